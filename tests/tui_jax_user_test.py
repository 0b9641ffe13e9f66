#!/usr/bin/env python3
"""What a JAX user tripped over (issue 43), in the TUI: the real binary in
tmux, each test comparing what is drawn with what the CLI says of the same
data (`fit --json`, `score --json`) or with figures worked by hand: the
line above the plan (Fit) and the rows (Compare) when the cap alone keeps
a budget out of reach, A re-fitting Compare's "no, cap" rows with every
candidate, C's choice offered again in the next session, budgets as typed
with what they came to (status bar, Fit, Plans), the Arena's names whole at
160 columns, the Session's file column telling dumps apart, Compare's
est. time column in line at 80 columns, Esc clearing what D said, and x
beside a budget the baseline meets.

usage: tui_jax_user_test.py REMATSCOPE SAMPLES_DIR BENCH_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, test  # noqa: E402
import tuilib  # noqa: E402

tuilib.init(sys.argv[1], sys.argv[2], prefix="rs_tui_jax_user_")
from tuilib import BIN, DB, SAMPLES, TMP, Tui, add_budgets, fit_anyway, fit_on, open_routine, tmux, units  # noqa: E402

JAX = os.path.join(os.path.abspath(sys.argv[3]), "jax")
LLAMA_SCAN = os.path.join(JAX, "llama_scan", "after_as_text.hlo")
CNN = os.path.join(JAX, "cnn", "after_as_text.hlo")
LLAMA = os.path.join(JAX, "llama_bf16", "after.hlo")
GPT = os.path.join(JAX, "gpt_tiny_accum", "after_as_text.hlo")
HAVE_JAX = all(os.path.exists(p) for p in (LLAMA_SCAN, LLAMA, CNN, GPT))
MLP = os.path.join(SAMPLES, "mlp_step.routine")
CHAIN = os.path.join(SAMPLES, "gen", "chain_16.routine")
TRANSFORMER = os.path.join(SAMPLES, "gen", "transformer_small.routine")  # routine transformer_2


def run(*args, env=None):
    e = dict(os.environ, XDG_DATA_HOME=TMP, XDG_CONFIG_HOME=TMP)
    e.update(env or {})
    p = subprocess.run([BIN, *args], capture_output=True, text=True, env=e)
    return p.returncode, p.stdout, p.stderr


def jrun(*args):
    rc, out, err = run(*args, "--json")
    check(rc == 0, (args, err))
    return json.loads(out)


def flat(s):
    return re.sub(r"\s+", " ", s)


subprocess.run([BIN, "import", MLP, CHAIN, TRANSFORMER, "--db", DB], check=True, capture_output=True)
if HAVE_JAX:
    for path, name in ((LLAMA_SCAN, "llama_scan"), (LLAMA, "llama"), (CNN, "cnn"), (GPT, "gpt_tiny_accum")):
        subprocess.run([BIN, "import", path, "--name", name, "--db", DB], check=True, capture_output=True)


@test
def fit_says_the_cap_keeps_the_budget_out_of_reach():
    """llama_bf16 at 4GB: the floor (fit --json: 970577940 B = 926 MiB)
    is below it, the floor under the default cap of 32 above it: row 1,
    over the plan, says so; the header and the status bar say the budget
    as typed with its bytes (4e9 / 2^30 = 3.73 GiB)."""
    if not HAVE_JAX:
        return
    j = jrun("fit", LLAMA, "--budget", "4GB", "--db", ":memory:")
    check(j["floor"]["bytes"] < 4000000000 < j["floor_cap"]["bytes"], j["floor"])
    t = Tui("capfit", w=160, h=45)
    try:
        fit_on(t, "llama", "4GB")
        s = t.wait("event 0/")
        rows = s.split("\n")
        check(rows[1].strip() == "the cap of 32 keeps 4GB out of reach; every candidate reaches down to %s: C all"
              % units(j["floor"]["bytes"]), rows[:3])
        check("fit 4GB = 3.73 GiB: " in rows[2], rows[2])
        check("│ budget 4GB = 3.73 GiB │" in rows[-2], rows[-2])
        # with every candidate (C all) the line goes
        t.keys("C", "C-u")
        t.type("all")
        t.keys("Enter", "f", "C-u")
        t.type("4GB")
        t.keys("Enter")
        fit_anyway(t)
        s = t.wait(re.compile(r"event 0/[^\n]*cap all"), timeout=20)
        check("out of reach" not in s, s)
        t.keys("C", "C-u", "Enter")  # the default again: the store keeps C's choice
    finally:
        t.close()


@test
def the_floor_question_fits_with_every_candidate_on_a():
    """Walk finding: on llama_bf16, f 70% met "below the floor under the
    cap ... fit to 70% anyway?" and only y (a fit of 32 candidates that
    misses) or n; C all then f again was the way, and the user did not find
    it.  The question offers a: the fit runs with every candidate (cap all,
    as fit --max-candidates all, which meets 70%) and C's prompt offers
    all from then on."""
    if not HAVE_JAX:
        return
    j = jrun("fit", LLAMA, "--budget", "70%", "--max-candidates", "all", "--db", ":memory:")
    check(j["within_budget"], j["final"])
    t = Tui("floora", w=160, h=45)
    try:
        t.wait("Routines")
        open_routine(t, "llama")
        t.keys("f")
        t.type("70%")
        t.keys("Enter")
        t.wait("fit to 70% anyway? (y/n; a: with every candidate, as C all)")
        t.keys("a")
        s = t.wait(re.compile(r"within budget, %d flips, cap all, layout greedy" % len(j["flips"])), timeout=60)
        check("NOT within" not in s.split("\n")[2], s.split("\n")[2])
        t.keys("C")
        t.wait("candidate cap (N, all; empty: 32, minimize all): all")
        t.keys("Escape")
    finally:
        t.close()


@test
def compare_marks_cap_rows_and_a_refits_them_with_every_candidate():
    """llama_bf16 at 0.9GB (below the floor), 4GB (between the floors) and
    6.2GB (above the baseline, 6142787610 B): only 4GB's row says
    "no, cap" and row 1 names it; A fits it again with every candidate, as
    `fit --max-candidates all` does (same final bytes, cap all, 0
    dropped), and leaves the other rows as they were."""
    if not HAVE_JAX:
        return
    alls = jrun("fit", LLAMA, "--budget", "4GB", "--max-candidates", "all", "--db", ":memory:")
    floor = jrun("fit", LLAMA, "--budget", "0.9GB", "--db", ":memory:")
    t = Tui("capcmp", w=160, h=45)
    try:
        t.wait("Routines")
        open_routine(t, "llama")
        add_budgets(t, "0.9GB", "4GB", "6.2GB")
        s = t.wait("A fits them with every candidate")
        check(s.split("\n")[1].strip() == "the cap of 32 keeps 4GB out of reach; every candidate reaches down to "
              "%s: A fits them with every candidate" % units(alls["floor"]["bytes"]), s)

        def row(s, b):
            return next(l for l in s.split("\n") if re.match(r"^ +\d+[ *]%s " % re.escape(b), l))
        check(re.search(r" 32 +507 +no, cap$", row(s, "4GB = 3.73 GiB").rstrip()), row(s, "4GB"))
        check(re.search(r" 32 +507 +no, floor$", row(s, "0.9GB = 858 MiB").rstrip()), row(s, "0.9GB"))
        t.keys("A")
        s = t.wait("Compare fitted 1 budget; 2 rows kept as they were", timeout=30)
        r = row(s, "4GB").rstrip()
        check(re.search(r" %s +%d +%d .* all +0 +%s$" % (re.escape(units(alls["final"]["total"])), alls["final"]["total"],
                                                           len(alls["flips"]), "yes" if alls["within_budget"] else "no"),
                        r), (r, alls["final"]["total"]))
        r = row(s, "0.9GB").rstrip()
        check(re.search(r" %d .* 32 +507 +no, floor$" % floor["final"]["total"], r), r)
        check("out of reach" not in s.split("\n")[1], s)
        t.keys("A")
        t.wait('A: no row missed only because of the cap (within says "no, cap" where one did)')
    finally:
        t.close()


@test
def the_cap_chosen_is_offered_next_session():
    """C all, quit; in the next session on the same store C's prompt
    offers all again (and says so), while fits keep the default until it
    is answered."""
    db = os.path.join(TMP, "cap.db")
    subprocess.run([BIN, "import", TRANSFORMER, "--db", db], check=True, capture_output=True)
    t = Tui("capkeep1", w=120, h=40, args=["--db", db])
    try:
        t.wait("Routines")
        open_routine(t, "transformer_2")
        t.keys("C", "C-u")
        t.type("all")
        t.keys("Enter")
        t.wait("every candidate is considered")
        t.keys("Q")
        t.exit_status()
    finally:
        t.close()
    t = Tui("capkeep2", w=120, h=40, args=["--db", db])
    try:
        t.wait("Routines")
        open_routine(t, "transformer_2")
        t.keys("f", "C-u")
        t.type("90%")
        t.keys("Enter")
        fit_anyway(t)  # 90% is below the floor under the cap: the question comes first
        t.wait(re.compile(r"event 0/[^\n]*cap 32 of 77"))  # offered, not imposed
        t.keys("C")
        t.wait("candidate cap (N, all; empty: 32, minimize all; as chosen last time): all")
        t.keys("Escape")
    finally:
        t.close()


@test
def plans_show_a_budget_as_typed():
    """A fit to 9.5MB saved: Plans says 9.5MB = 9.06 MiB (9500000 B is
    9.0599 MiB, which 9.06 MiB alone did not say)."""
    t = Tui("typed", w=120, h=40)
    try:
        fit_on(t, "mlp_step", "9.5MB")
        t.wait("event 0/")
        t.keys("S")
        t.type("typed")
        t.keys("Enter")
        t.wait("saved as plan")
        t.keys("5")
        s = t.wait("typed")
        r = next(l for l in s.split("\n") if " typed " in l)
        check("9.5MB = 9.06 MiB" in r, r)
    finally:
        t.close()


@test
def arena_names_whole_at_160_columns():
    """gpt_tiny_accum's step list at step 0 (Enter): every buffer's name
    whole (score --json's names; opt_state_0__nu__wte__.1 was cut to
    opt_state….1 at 160 columns beside a picture with room to spare)."""
    if not HAVE_JAX:
        return
    names = {b["node"] for b in jrun("score", GPT, "--db", ":memory:")["buffers"]}
    t = Tui("names160", w=160, h=45)
    try:
        t.wait("Routines")
        open_routine(t, "gpt_tiny_accum")
        t.keys("Enter")
        s = t.wait(re.compile(r"buffer +bytes role +offset"))
        lines = s.split("\n")
        at = next(i for i, l in enumerate(lines) if re.search(r"buffer +bytes role +offset", l))
        x = lines[at].index("buffer ")
        shown = [l[x:].split()[0] for l in lines[at + 1:at + 12] if len(l) > x and l[x:].strip()]
        check(len(shown) >= 8 and all(n in names for n in shown), shown)
        check("opt_state_0__nu__wte__.1" in shown, shown)
    finally:
        t.close()


@test
def inspector_sources_whole_beside_long_names_at_160_columns():
    """llama_bf16's step list at its peak (p) at 160x45: the source column
    takes what its longest source needs ("train_step.py:143"; it kept 10
    columns, "…tep.py:143", beside a name column as wide as the longest
    parameter name), the names the rest: every row's source is the file
    name and line score --json gives its buffer."""
    if not HAVE_JAX:
        return
    src = {b["node"]: b.get("source", "") for b in jrun("score", LLAMA, "--db", ":memory:")["buffers"]}
    t = Tui("insp160", w=160, h=45)
    try:
        t.wait("Routines")
        open_routine(t, "llama")
        t.keys("p")
        s = t.wait("(the peak)")
        lines = s.split("\n")
        at = next(i for i, l in enumerate(lines) if re.search(r"buffer +bytes role +offset source", l))
        x = lines[at].index("buffer ")
        row = re.compile(r"^(\S+)\s+[0-9.]+ [KMG]?i?B\s+(?:res|pin|out|cand|rej|into)\s+[0-9]+(?:\s+(\S+))?\s*$")
        rows = [m for m in (row.match(l[x:]) for l in lines[at + 1:at + 36]) if m]
        check(len(rows) >= 30, s)
        with_src = [m for m in rows if m.group(2)]
        check(len(with_src) >= 20, s)
        for m in with_src:
            name, shown = m.group(1), m.group(2)
            if "…" in name:
                check(re.match(r"^[A-Za-z_0-9.]+\.py:[0-9]+$", shown), m.group(0))
            else:
                check(name in src and shown == src[name].rsplit("/", 1)[-1], (m.group(0), src.get(name)))
        check(any(m.group(2) == "train_step.py:143" for m in rows), s)
    finally:
        t.close()


@test
def search_finds_a_source_line():
    """Walk finding: / train_step.py:43 said "no buffer matches" on the
    Arena and / train_step.py:75 "no candidate matches" on Fit, though
    those are the lines the user knows.  A search that matches no name
    looks in each node's source and function: the buffer and candidate it
    lands on have that line (score --json), and the status says it."""
    if not HAVE_JAX:
        return
    src = {b["node"]: b.get("source", "") for b in jrun("score", LLAMA, "--db", ":memory:")["buffers"]}
    t = Tui("srcsearch", w=160, h=45)
    try:
        t.wait("Routines")
        open_routine(t, "llama")
        t.keys("/")
        t.type("train_step.py:43")
        t.keys("Enter")
        s = t.wait(re.compile(r"(\S+) \(train_step\.py:43 in [^)]+\): buffer [0-9]+ of 1126, steps"))
        name = re.search(r"(\S+) \(train_step\.py:43 in [^)]+\): buffer", s).group(1)
        check(src.get(name, "").endswith("train_step.py:43"), (name, src.get(name)))
        check("(N: the next match)" in s, s.split("\n")[-3:])
        t.keys("N")
        s = t.wait(re.compile(r"(\S+) \(train_step\.py:43 in [^)]+\): buffer"))
        other = re.search(r"(\S+) \(train_step\.py:43 in [^)]+\): buffer", s).group(1)
        check(other != name and src.get(other, "").endswith("train_step.py:43"), (name, other))
        t.keys("f")
        t.type("4GB")
        t.keys("Enter")
        fit_anyway(t)
        t.wait("event 0/")
        t.keys("/")
        t.type("train_step.py:75")
        t.keys("Enter")
        s = t.wait(re.compile(r"(\S+) \(train_step\.py:75\): candidate [0-9]+ of 539, fit: "))
        name = re.search(r"(\S+) \(train_step\.py:75\): candidate", s).group(1)
        check(src.get(name, "").endswith("train_step.py:75"), (name, src.get(name)))
    finally:
        t.close()


@test
def session_file_column_tells_dumps_apart():
    """Two dumps both named after_as_text.hlo: the file column says the
    folder too (cnn/after_as_text.hlo, llama_scan/after_as_text.hlo); a
    sample keeps its own name alone."""
    if not HAVE_JAX:
        return
    t = Tui("files", w=160, h=45)
    try:
        s = t.wait("Routines")
        rows = {l.split()[0].lstrip("*"): l for l in s.split("\n")[4:12] if l.strip()}
        check(" cnn/after_as_text.hlo " in rows["cnn"], rows)
        check(" llama_scan/after_as_text.hlo" in rows["llama_scan"], rows)
        check(" mlp_step.routine " in rows["mlp_step"], rows)
    finally:
        t.close()


@test
def compare_says_the_cap_only_may_help():
    """cnn at 40% with the default cap (32 of its 33 candidates): the floor
    under the cap (sweep --json's floor_cap) is below the budget, so the cap
    is not what keeps it out of reach (with every candidate the fit misses
    too); the status says by how much it missed and that C all only may
    reach it (it said "the cap kept 32 of 33 candidates: C sets it (all)",
    while A answered that no row missed because of the cap)."""
    if not HAVE_JAX:
        return
    p = jrun("sweep", CNN, "--budgets", "40%", "--db", ":memory:")["plans"][0]
    check(p["floor_cap"]["bytes"] <= p["budget"]["bytes"] and not p["within_budget"] and p["dropped"] == 1, p["floor_cap"])
    every = jrun("sweep", CNN, "--budgets", "40%", "--max-candidates", "all", "--db", ":memory:")["plans"][0]
    check(not every["within_budget"], every["final"])
    t = Tui("capmay", w=120, h=30)
    try:
        t.wait("Routines")
        open_routine(t, "cnn")
        add_budgets(t, "40%")
        t.wait("row 1 (40%%) missed by %s; the cap kept 32 of 33 candidates: C all may reach it"
               % units(p["final"]["total"] - p["budget"]["bytes"]), timeout=30)
        t.keys("A")
        t.wait("no row")
    finally:
        t.close()


@test
def compare_est_time_in_line_at_80_columns():
    """transformer_2 on the jetson profile (1.28e12 FLOP/s): est. times in
    µs (one column, two bytes) and ms; each row's cap ends where the
    header's "cap" does (the µs rows pulled it one column left)."""
    cfg = os.path.join(TMP, "jetson")
    os.makedirs(os.path.join(cfg, "rematscope"), exist_ok=True)
    with open(os.path.join(cfg, "rematscope", "config"), "w") as f:
        f.write("profile = jetson-orin-nano-8gb\n")
    t = Tui("esttime", w=80, h=24, env={"XDG_CONFIG_HOME": cfg})
    try:
        t.wait("Routines")
        open_routine(t, "transformer_2")
        add_budgets(t, "90%", "minimize")
        s = t.wait(re.compile(r"2 minimize "))
        lines = s.split("\n")
        head = next(l for l in lines if l.strip().startswith("# budget"))
        end = head.index(" cap ") + len(" cap")
        rows = [l for l in lines if re.match(r"^ +[12] (90%=[0-9.]+M|minimize) ", l)]
        check(len(rows) == 2 and any("µs" in r for r in rows), rows)
        for r in rows:
            check(re.match(r"^(\S+|none)$", r[end - 4:end].strip()) and r[end] == " " and r[end - 5] == " ",
                  (head, r))
    finally:
        t.close()


@test
def esc_clears_what_d_said():
    """D on Compare says "row 2 against row 1: D the numbers, Esc back";
    Esc back on the rows leaves no such line."""
    t = Tui("escd", w=120, h=40)
    try:
        t.wait("Routines")
        open_routine(t, "mlp_step")
        add_budgets(t, "90%", "minimize")
        t.keys("G", "D")
        t.wait("row 2 against row 1: D the numbers, Esc back")
        t.keys("Escape")
        s = t.wait("# budget")
        check("against" not in s, s)
    finally:
        t.close()


@test
def x_beside_a_budget_the_baseline_meets():
    """mlp_step at 100%: the baseline meets it; the best plan (fit --exact)
    has 3 flips adding no compute and 9927172 - 6978052 = 2949120 B (2.81
    MiB) less: Fit's pane and Compare's best row say "3 flips that add no
    compute save 2.81 MiB".  chain_16 at 100%: the best plan flips nothing,
    and nothing is said of it."""
    j = jrun("fit", MLP, "--budget", "100%", "--exact", "--db", ":memory:")
    saved = j["baseline"]["total"] - j["exact"]["final"]["total"]
    check(saved == 2949120 and len(j["exact"]["flips"]) == 3, j["exact"])
    t = Tui("xmet", w=120, h=40)
    try:
        fit_on(t, "mlp_step", "100%")
        t.wait("event 0/")
        t.keys("x")
        s = t.wait("x again hides it")
        check("best (proved) 6.65 MiB: 3 flips that add no compute save 2.81 MiB" in flat(s), s)
        add_budgets(t, "100%")
        t.keys("x")
        s = t.wait(re.compile(r"best +6\.65 MiB +6978052 +3 flips that add no compute save 2\.81 MiB"))
        open_routine_again = t  # chain_16: nothing saved, nothing said
        open_routine_again.keys("1")
        fit_on(t, "chain_16", "100%")
        t.wait("event 0/")
        t.keys("x")
        s = t.wait("x again hides it")
        check("best (proved)" not in s and "flips that add" not in s and "two-round" in s, s)
    finally:
        t.close()


shutil.rmtree(TMP, ignore_errors=True) if not failed() else None
tmux("kill-server", check=False)
finish()
