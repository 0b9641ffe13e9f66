#!/usr/bin/env python3
"""DESIGN §13's answers in the TUI (issue 26): the real binary in tmux, each
test asserting the drawn cells against what the CLI says of the same data
(`score --json`, `fit --json`, `show --json`, the warning `fit` prints) or
against figures worked by hand: the floor's line on the Arena and its value
in the Fit prompt, the question before a fit below the floor (n fits
nothing, y fits), the step inspector's bytes by role, the Fit table's
recompute column and its '!' marks, the flips by origin (g) and an origin's
flips (Enter), Compare's floor line, within column and recompute sums,
Plans' recompute column, and the Why popup's totals in bytes where rounding
prints them alike.

usage: tui_answers_test.py REMATSCOPE SAMPLES_DIR BENCH_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, test  # noqa: E402
import tuilib  # noqa: E402

tuilib.init(sys.argv[1], sys.argv[2], prefix="rs_tui_answers_")
from tuilib import BIN, DB, SAMPLES, TMP, Tui, add_budgets, fit_on, flops, open_routine, tmux, units  # noqa: E402

BERT = os.path.join(os.path.abspath(sys.argv[3]), "hlo", "bert_tiny_train_fwd_bwd.hlo")
RESNET = os.path.join(SAMPLES, "gen", "resnet_small.routine")  # routine resnet_4


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# tests/answers_test.py's F1, worked by hand there: spans x 0-4, a 0-1, p 1-3
# (pinned), c 2-3, q 3-4 (pinned), o 4 (output); live 104, 124, 29, 59, 36,
# the peak at step 1 (resident 4, pinned 20, candidate 100).  Without the
# candidates a and c: 4, 24, 24, 54, 36, so the floor is 54 B at step 3
# (resident 4, pinned 50).  A cap of 1 keeps c (bound 5) and drops a (100):
# the floor under the cap is then the peak itself, 124 B at step 1.
F1 = write("f1.routine", "routine f1\ndtype u8\ninput x [4]\na = f(x) [100]\np = g(a) [20] @pinned\n"
                         "c = f(p) [5]\nq = h(p, c) [30] @pinned\no = k(q) [2] @output\n")
# X (bound 20) is held, Y closes the group: X carries relief 0 and
# recompute 0, Y 100 B and the group's +10 FLOPs (answers_test's PAIR2).
PAIR2 = write("pair2.routine", "routine pair2\ndtype u8\ninput x [4]\nX = f(x) [100] cost=10\nu = g(X, X) [0] @output\n"
                               "Y = f(x) [100] cost=50\nv = g(Y) [0] @output\n")
# x (1 MiB) lives throughout; a (10 B, steps 0-2) and b (20 B, 1-2) feed o
# (2 B) at step 2: 1048608 B, then 1048598 B without a, 1048578 B without
# both: totals that all print as 1.00 MiB.
ALIKE = write("alike.routine", "routine alike\ndtype u8\ninput x [1048576]\na = f(x) [10]\nb = g(x) [20]\n"
                               "o = h(a, b) [2] @output\n")
# eight equal regions: no flip alone lowers the arena, all eight do; a7
# closes a load-bearing group of seven (counted, not named, past three)
RING = write("ring.routine", "routine ring\ndtype u8\ninput x [4]\n" +
             "".join(f"a{i} = f(x) [10]\no{i} = g(a{i}) [0] @output\n" for i in range(8)))
for path in (F1, PAIR2, ALIKE, RESNET, BERT, RING):
    subprocess.run([BIN, "import", path, "--db", DB], check=True, capture_output=True)
BERT_NAME = "SyncTensorsGraph.1724"


def run(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True,
                       env=dict(os.environ, XDG_DATA_HOME=TMP, XDG_CONFIG_HOME=TMP))
    return p.returncode, p.stdout, p.stderr


def jrun(*args):
    rc, out, err = run(*args, "--json")
    check(rc == 0, (args, err))
    return json.loads(out), err


def flops_short(v, sign=False):
    """tui_flops_short: "75.3k", "512", "+1.00M"."""
    num, unit = flops(v).split(" ")
    return ("+" if sign and v >= 0 else "") + num + ("" if unit == "FLOPs" else unit[0])


def flat(s):
    """The screen as one line, blanks collapsed (for text that wraps)."""
    return re.sub(r"\s+", " ", s)


def pane(s, x):
    """Columns x on of every row, joined: a right pane's text."""
    return flat(" ".join(l[x:] for l in s.split("\n")))


def warning_of(*args):
    """What `fit` says before it runs when the budget is below a floor: the
    sentence between "rematscope: floor: " and its CLI tail."""
    rc, out, err = run("fit", *args, "--db", ":memory:")
    check(rc == 0 and err.startswith("rematscope: floor: "), (args, err))
    said = err[len("rematscope: floor: "):].split("; fitting anyway")[0]
    return re.sub(r" \(--max-candidates \d+ considers every one\)$", "", said)


def axis_rows(s, col):
    """The arena's offset axis at column col: {row: glyph}, and the labels
    left of it {row: text}."""
    glyphs, labels = {}, {}
    for i, l in enumerate(s.split("\n")):
        if len(l) > col and l[col] in "│┼╪":
            glyphs[i] = l[col]
            if l[max(0, col - 5):col].strip():
                labels[i] = l[max(0, col - 5):col].strip()
    return glyphs, labels


@test
def floor_line_on_the_arena():
    """f1's floor (54 B, score --json) is a dashed line: '╪' on the offset
    axis at the row that holds offset 54 (labelled rows above it start
    higher, the ones at or below it at 54 or lower), labelled '╌╌ floor 54 B'
    on the header; a budget line of 54 B lands on the very row (and hides
    it); the Fit screen's arena draws it too."""
    j, _ = jrun("score", F1, "--db", ":memory:")
    check(j["floor"] == {"bytes": 54, "step": 3, "resident": 4, "output": 0, "pinned": 50, "candidate": 0}, j["floor"])
    t = Tui("floorline", w=100, h=30)
    try:
        t.wait("Routines")
        open_routine(t, "f1")
        s = t.wait("╌╌ floor 54 B")
        glyphs, labels = axis_rows(s, 5)
        rows = [r for r, g in glyphs.items() if g == "╪"]
        check(len(rows) == 1 and "┼" not in glyphs.values(), s)
        fy = rows[0]
        check(labels and all((int(v) > 54) == (r < fy) for r, v in labels.items()), (fy, labels, s))
        check(set(s.split("\n")[fy][6:63]) <= {"╌", "█", "▒", "▞", "▓"} and "╌" in s.split("\n")[fy], s.split("\n")[fy])
        t.keys("B")
        t.type("54")
        t.keys("Enter")
        s = t.wait("── budget 54 B")
        glyphs, _ = axis_rows(s, 5)
        check(glyphs.get(fy) == "┼" and "╪" not in glyphs.values(), s)
        t.keys("B", "C-u")
        t.type("none")
        t.keys("Enter", "f", "C-u")
        t.type("minimize")
        t.keys("Enter")
        s = t.wait("event 0/")
        check("╪" in s and "╌" in s, "the Fit arena draws the plan's floor: " + s)
    finally:
        t.close()


@test
def fit_prompt_shows_the_floor_and_asks_below_it():
    """The prompt's label says the floor; a budget below it is asked about
    with the sentence `fit` warns with (the floor and its roles at step 3):
    n fits nothing, y fits (fit --json's final).  Under a cap of 1 a budget
    between the floors asks with the floor under the cap (124 B at step 1,
    the dropped candidate's 100 B); above both, or minimize, nothing is
    asked."""
    below = warning_of(F1, "--budget", "50")
    check(below == "the budget 50 B is below the floor 54 B at step 3: resident 4 B, output 0 B, pinned 50 B: no "
                   "plan can reach it", below)
    under_cap = warning_of(F1, "--budget", "60", "--max-candidates", "1")
    check("below the floor under the cap, 124 B at step 1: resident 4 B, output 0 B, pinned 20 B, dropped "
          "candidates 100 B: no plan of the 1 cheapest of 2 candidates can reach it" in under_cap, under_cap)
    t = Tui("floorask", w=100, h=30)
    try:
        t.wait("Routines")
        open_routine(t, "f1")
        t.keys("f")
        t.wait("fit to budget (floor 54 B; 48MiB, 60%, device, minimize):")
        t.keys("C-u")
        t.type("50")
        t.keys("Enter")
        s = t.wait("fit to 50 anyway? (y/n)")
        check(below in flat(s), s)
        t.keys("n")
        s = t.wait("not fitted: 50 B is below the floor, 54 B: no plan can reach it")
        t.keys("3")
        t.wait("No fit yet.")
        t.keys("f", "C-u")
        t.type("50")
        t.keys("Enter")
        t.wait("fit to 50 anyway? (y/n)")
        t.keys("y")
        j, _ = jrun("fit", F1, "--budget", "50", "--db", ":memory:")
        check(j["final"]["total"] == 54 and not j["within_budget"], j)
        t.wait("fit 50 B: 124 B -> 54 B NOT within budget, 2 flips")
        # the floor under the cap of 1
        t.keys("C", "C-u")
        t.type("1")
        t.keys("Enter")
        t.wait("candidate cap: the 1 cheapest")
        t.keys("f", "C-u")
        t.type("60")
        t.keys("Enter")
        s = t.wait("fit to 60 anyway? (y/n; a: with every candidate, as C all)")
        check(under_cap + " (C sets the cap: all considers every one)" in flat(s), (under_cap, s))
        t.keys("y")
        t.wait("a fit to 60 replaces the fit to 50 you did not save")
        t.keys("y")
        j, _ = jrun("fit", F1, "--budget", "60", "--max-candidates", "1", "--db", ":memory:")
        s = t.wait("fit 60 B: 124 B -> %s" % units(j["final"]["total"]))
        # the default cap again: 70 B is above both floors, minimize has none
        t.keys("C", "C-u", "Enter")
        t.wait("candidate cap: the default")
        for b in ("70", "minimize"):
            t.keys("f", "C-u")
            t.type(b)
            t.keys("Enter")
            t.wait("you did not save: go on?")
            t.keys("y")
            s = t.wait("fit %s: " % ("70 B" if b == "70" else b))
            check("anyway?" not in s, s)
    finally:
        t.close()


@test
def bert_prompt_asks_with_the_floor_under_the_cap():
    """The BERT step at 60 %: below the floor under the 32-candidate cap
    (83.0 MiB at step 333); the prompt's label has its floor (score --json),
    the question the very sentence `fit` warns with."""
    j, _ = jrun("score", BERT, "--db", ":memory:")
    said = warning_of(BERT, "--budget", "60%")
    check("floor under the cap" in said, said)
    t = Tui("bertask", w=160, h=45)
    try:
        t.wait("Routines")
        open_routine(t, BERT_NAME)
        s = t.wait("╌╌ floor %s" % units(j["floor"]["bytes"]))
        t.keys("f")
        t.wait("fit to budget (floor %s; " % units(j["floor"]["bytes"]))
        t.keys("C-u")
        t.type("60%")
        t.keys("Enter")
        s = t.wait("fit to 60% anyway? (y/n; a: with every candidate, as C all)")
        check(said + " (C sets the cap: all considers every one)" in flat(s), (said, s))
        t.keys("n")
        # short, and whole: the question said the rest
        s = t.wait("not fitted: ")
        check(re.search(r"not fitted: \S+ \S+ is below the floor under the cap, \S+ \S+ \(C sets the cap: all "
                        r"considers every one\)", flat(s)), s)
    finally:
        t.close()


def role_split(s, x):
    m = re.search(r"resident (\S+ [KMGTPE]?i?B),? output (\S+ [KMGTPE]?i?B),? pinned (\S+ [KMGTPE]?i?B),? "
                  r"candidate (\S+ [KMGTPE]?i?B)", pane(s, x))
    return m.groups() if m else None


@test
def inspector_splits_the_live_bytes_by_role():
    """p: the inspector at the peak splits its live bytes as score --json's
    peak_by_role (they sum to live_peak); on f1 at step 2, by hand: x 4 B,
    p 20 B, c 5 B (live 29 B).  Then the BERT step's peak."""
    j, _ = jrun("score", F1, "--db", ":memory:")
    check(j["peak_by_role"] == {"resident": 4, "output": 0, "pinned": 20, "candidate": 100}, j)
    t = Tui("byrole", w=100, h=30)
    try:
        t.wait("Routines")
        open_routine(t, "f1")
        t.keys("p")
        s = t.wait("step 1 (the peak)")
        check(role_split(s, 64) == ("4 B", "0 B", "20 B", "100 B"), pane(s, 64))
        check("live 124 B of max live 124 B" in s, s)
        t.keys("l")
        s = t.wait("live 29 B of max live")
        check(role_split(s, 64) == ("4 B", "0 B", "20 B", "5 B"), pane(s, 64))
    finally:
        t.close()
    j, _ = jrun("score", BERT, "--db", ":memory:")
    r, fp = j["peak_by_role"], j["footprint"]
    check(sum(r.values()) == fp["live_peak"], (r, fp))
    t = Tui("byrolebert", w=160, h=45)
    try:
        t.wait("Routines")
        open_routine(t, BERT_NAME)
        t.keys("p")
        s = t.wait("step %d (the peak)" % fp["peak_step"])
        x = s.split("\n")[[i for i, l in enumerate(s.split("\n")) if "(the peak)" in l][0]].index(" step ")
        check(role_split(s, x) == tuple(units(r[k]) for k in ("resident", "output", "pinned", "candidate")),
              (pane(s, x), r))
        check("live %s of max live %s" % (units(fp["live_peak"]), units(fp["live_peak"])) in s, s)
    finally:
        t.close()


def role_rows(s):
    """The rows of the step inspector's roles at 80 columns (the pane from
    column 44): those between the live line and the list's header."""
    rows = [ln[44:].rstrip() for ln in s.split("\n")]
    at = next(i for i, ln in enumerate(rows) if ln.startswith("live "))
    end = next(i for i, ln in enumerate(rows) if i > at and ln.startswith("buffer "))
    return rows[at + 1:end]


@test
def peak_by_role_keeps_candidate_at_80_columns():
    """p at 80x24 (a pane of 36) on a 4-layer transformer: the four roles
    need three rows ("resident 202 MiB, output 4 B" / "pinned 6.00 MiB" /
    "candidate 1.06 GiB"); they take them from the step's list, which
    scrolls (89 buffers live) and keeps 12 rows, where two rows dropped
    candidate behind "… 1 more".  On the BERT step at 80x18 the list (with
    its source row) would keep too few for a third: then candidate, what
    the planner can relieve, leads and the others are the ones that go."""
    tr = os.path.join(TMP, "tr4.routine")
    subprocess.run([BIN, "gen", "transformer", "--layers", "4", "-o", tr], check=True, capture_output=True)
    db = os.path.join(TMP, "tr4.db")
    subprocess.run([BIN, "import", tr, "--db", db], check=True, capture_output=True)
    for path, name, h, use in ((tr, "transformer_4", 24, db), (BERT, BERT_NAME, 18, DB)):
        j, _ = jrun("score", path, "--db", ":memory:")
        r, peak = j["peak_by_role"], j["footprint"]["peak_step"]
        said = {k: "%s %s" % (k, units(r[k])) for k in ("resident", "output", "pinned", "candidate")}
        check(len(said["resident"] + ", " + said["output"] + ", " + said["pinned"]) > 36, said)  # two rows will not do
        t = Tui(f"roles80x{h}", w=80, h=h, db=use)
        try:
            t.wait("Routines")
            open_routine(t, name)
            t.keys("p")
            s = t.wait("step %d (the peak)" % peak)
            shown = role_rows(s)
            if h == 24:
                check(shown == [said["resident"] + ", " + said["output"], "  " + said["pinned"],
                                "  " + said["candidate"]], shown)
                check(re.search(r"1-12 of 89 \(Up/Down\)", s), s)
            else:
                check(shown == [said["candidate"], "  " + said["resident"] + "  … 2 more"], (shown, said))
        finally:
            t.close()


def paged_rows(t, is_header, row_key):
    """Every row of the Fit screen's table, paging down from the top: the
    header line (the first is_header(line) holds for) and {row_key(line):
    line} for the rows below it that have a key."""
    t.keys(*["PPage"] * 6)
    rows, header, sizes = {}, None, []
    for _ in range(40):
        s = t.screen()
        lines = s.split("\n")
        header = next((l for l in lines if is_header(l)), None)
        check(header, s)
        for l in lines[4:]:
            k = row_key(l)
            if k is not None and k not in rows:
                rows[k] = l
        if sizes[-2:] == [len(rows)] * 2:  # a page down scrolls once the selection reaches the bottom
            break
        sizes.append(len(rows))
        t.keys("NPage")
        time.sleep(0.3)
    return header, rows


def table_rows(t):
    """The candidates' rows by name."""
    def name(l):
        m = re.match(r"^ +([0-9-]+) (\S+)", l)
        return m.group(2) if m else None
    return paged_rows(t, lambda l: l.strip().startswith("rk"), name)


@test
def fit_table_recompute_column_and_marks():
    """resnet_4 under minimize: at the end every flip's row shows the
    recompute fit --json gives it ("+1.00M": short, signed at 160 columns) with '!'
    exactly where fit --json says it does not pay (17 of them); every other
    candidate '-'; at the first event every row '-'.  pair2 by hand: the
    held X carries +0 FLOPs, Y the group's +10 FLOPs."""
    j, _ = jrun("fit", RESNET, "--budget", "minimize", "--db", ":memory:")
    flips = {f["node"]: f for f in j["flips"]}
    check(sum(not f["pays"] for f in j["flips"]) == 17, j["flips"])
    t = Tui("reccol", w=160, h=45)
    try:
        fit_on(t, "resnet_4", "minimize")
        t.wait("event 0/")
        header, rows = table_rows(t)
        end = header.index("recompute") + len("recompute")
        check(len(rows) == len(j["candidates"]) if "candidates" in j else len(rows) >= len(flips), (len(rows), header))
        check(all(l[end - 9:end].strip() == "-" for l in rows.values()), "nothing accepted at event 0")
        t.keys("e")
        t.wait("round 2 end")
        header, rows = table_rows(t)
        check(set(flips) <= set(rows), (set(flips) - set(rows)))
        marks = 0
        for name, l in rows.items():
            cell, mark = l[end - 9:end].strip(), l[end]
            if name in flips:
                check(cell == flops_short(flips[name]["recompute"], True), (name, cell, flips[name]))
                check((mark == "!") == (not flips[name]["pays"]), (name, mark, flips[name]))
                marks += mark == "!"
            else:
                check(cell == "-" and mark == " ", (name, l))
        check(marks == 17, marks)
    finally:
        t.close()
    t = Tui("reccol80", w=80, h=24)
    try:
        fit_on(t, "resnet_4", "minimize")
        t.wait("event 0/")
        t.keys("e")
        s = t.wait("round 2 end")
        header = next(l for l in s.split("\n") if l.strip().startswith("rk"))
        end = header.index("added") + len("added")
        seen = 0
        for l in s.split("\n")[4:]:
            m = re.match(r"^ +([0-9-]+) (\S+)", l)
            if m and m.group(2) in flips:
                f = flips[m.group(2)]
                check(l[end - 5:end].strip() == flops_short(f["recompute"]) and (l[end] == "!") == (not f["pays"]),
                      (l, f))
                seen += 1
        check(seen >= 10, s)
    finally:
        t.close()
    t = Tui("recpair", w=160, h=45)
    try:
        fit_on(t, "pair2", "minimize")
        s = t.wait("event 0/")
        header = next(l for l in s.split("\n") if l.strip().startswith("rk"))
        end = header.index("recompute") + len("recompute")
        t.keys("e")
        s = t.wait("round 2 end")
        got = {m.group(1): l[end - 9:end].strip() for l in s.split("\n") for m in [re.match(r"^ +\d+ (\S+)", l)] if m}
        check(got == {"X": "+0", "Y": "+10"}, got)
    finally:
        t.close()


def origin_rows(t):
    """The origins' rows in order (numbered from 1)."""
    def rank(l):
        m = re.match(r"^ +(\d+) ", l)
        return int(m.group(1)) if m else None
    header, rows = paged_rows(t, lambda l: "origin (g: candidates)" in l, rank)
    return header, [rows[k] for k in range(1, len(rows) + 1) if k in rows]


@test
def origins_table_and_an_origins_flips():
    """g on the BERT step's Minimize fit: the table is fit --json's
    by_origin, in its order (37 origins, biggest relief first), each with
    its flips, relief (exact bytes too), recompute and '!' where one of its
    flips does not pay; a long source path is cut on the left and keeps its
    line number.  The columns sum as fit --json does: flips to its flips,
    reliefs to baseline - final.  Enter on the third (a source line) lists
    exactly its flips in acceptance order; Esc closes, g gives the
    candidates back."""
    j, _ = jrun("fit", BERT, "--budget", "minimize", "--db", ":memory:")
    groups = j["by_origin"]
    check(len(groups) == 36 and sum(g["flips"] for g in groups) == len(j["flips"]), len(groups))
    check(sum(g["relief"] for g in groups) == j["baseline"]["total"] - j["final"]["total"], groups)
    t = Tui("origins", w=160, h=45)
    try:
        t.wait("Routines")
        open_routine(t, BERT_NAME)
        t.keys("f", "C-u")
        t.type("minimize")
        t.keys("Enter")
        t.wait("event 0/")
        t.keys("g")
        t.wait("origin (g: candidates)")
        header, rows = origin_rows(t)
        check(len(rows) == len(groups), (len(rows), header))
        o0 = header.index("origin")
        check(all(f["pays"] for f in j["flips"]), "no flip of this plan is marked: no '!'")
        for k, (l, g) in enumerate(zip(rows, groups)):
            cell = l[o0:].split("  ")[0].rstrip()
            check(cell == g["origin"] or (cell.startswith("…") and g["origin"].endswith(cell[1:]) and
                                          re.search(r":\d+$", cell)), (k, cell, g))
            rest = l[o0 + len(cell):].split()
            want = [str(g["flips"]), *units(g["relief"]).split(" "), str(g["relief"]),
                    *("+" + flops(g["recompute"])).split(" ")]
            check(rest[:len(want)] == want, (k, rest, want))
        t.keys(*["PPage"] * 6, "Down", "Down", "Enter")
        g = groups[2]
        check(":" in g["origin"], g)
        s = t.wait("Origin: ")
        mine = [(i + 1, f) for i, f in enumerate(j["flips"]) if f.get("source") == g["origin"]]
        check(len(mine) == g["flips"], (mine, g))
        check("%d flips, relief %s (%d B), recompute +%s" % (g["flips"], units(g["relief"]), g["relief"],
                                                              flops(g["recompute"])) in s, s)
        listed = [m.groups() for m in re.finditer(r"│ +(\d+)([! ]) (\S+) +(\S+ \S+) +(\d+) +(\S+ \S+) +(\S+ \S+)"
                                                  r"(?:  (?:in #\d+|closes \d+))? *│", s)]
        check(listed == [(str(i), " " if f["pays"] else "!", f["node"], units(f["relief"]), str(f["relief"]),
                          flops(f["cost"]), "+" + flops(f["recompute"])) for i, f in mine], (listed, mine))
        t.keys("Escape")
        t.keys("g")
        s = t.wait(re.compile(r"rk candidate +solo +cost bound +recompute"))
    finally:
        t.close()


@test
def an_origins_flips_line_up_at_80_columns():
    """Walk finding: at 80x24 an origin's flips drifted by row (a fixed
    17-column name that longer names overflowed) and the recompute's unit
    wrapped onto the next row.  Now the name column is as wide as the
    origin's longest name (up to what the row leaves, the exact bytes
    going first): every row is one row, and every number ends where its
    heading does."""
    j, _ = jrun("fit", BERT, "--budget", "minimize", "--db", ":memory:")
    groups = j["by_origin"]
    def flips_of(g):
        return [f for f in j["flips"] if f.get("source") == g["origin"]]
    k, g = next((k, g) for k, g in enumerate(groups) if flips_of(g) and max(len(f["node"]) for f in flips_of(g)) > 17)
    mine = flips_of(g)
    t = Tui("origins80", w=80, h=24)
    try:
        t.wait("Routines")
        open_routine(t, BERT_NAME)
        t.keys("f", "C-u")
        t.type("minimize")
        t.keys("Enter")
        t.wait("event 0/")
        t.keys("g")
        t.wait("origin (g: candidates)")
        t.keys(*["Down"] * k, "Enter")
        s = t.wait("Origin: ")
        lines = s.split("\n")
        head = next(l for l in lines if re.search(r"│ +# +node +relief", l))
        rows = [l for l in lines if re.match(r"^ *│ +\d+[! ] \S", l)]
        check(len(rows) == min(len(mine), len(rows)) and rows, (rows, head))
        ends = {h: head.index(h) + len(h) for h in ("relief", "cost bound", "recompute")}
        for r, f in zip(rows, mine):
            for h, value in (("relief", units(f["relief"])), ("cost bound", flops(f["cost"])),
                             ("recompute", "+" + flops(f["recompute"]))):
                check(r[ends[h] - len(value):ends[h]] == value, (h, value, r, head))
            name = r.split()[2]
            check(name == f["node"] or "…" in name, (name, f["node"]))
    finally:
        t.close()


def ops_of(path):
    """node -> the op of its first definition, read from a routine's text."""
    ops = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*(\S+)\s*=\s*([A-Za-z_][\w.]*)\(", line.split("#")[0])
            if m and m.group(1) not in ops:
                ops[m.group(1)] = m.group(2)
    return ops


@test
def origins_mark_the_flips_that_do_not_pay():
    """resnet_4 under minimize at 80 columns: its flips group by op (a
    generated routine says no source line); an origin is marked '!' exactly
    where one of its flips does not pay (fit --json's pays)."""
    j, _ = jrun("fit", RESNET, "--budget", "minimize", "--db", ":memory:")
    ops = ops_of(RESNET)
    bad = {ops[f["node"]] for f in j["flips"] if not f["pays"]}
    check(bad and len(bad) < len(j["by_origin"]), (bad, j["by_origin"]))
    t = Tui("originsbad", w=80, h=24)
    try:
        fit_on(t, "resnet_4", "minimize")
        t.wait("event 0/")
        t.keys("g")
        t.wait("origin (g: candidates)")
        header, rows = origin_rows(t)
        check(len(rows) == len(j["by_origin"]), rows)
        for l, g in zip(rows, j["by_origin"]):
            rest = l[:62].split()  # the table is 61 columns from 1 below 140
            check(rest[1] == g["origin"] and rest[2] == str(g["flips"]), (l, g))
            check(rest[-1] == flops_short(g["recompute"]) + ("!" if g["origin"] in bad else ""), (l, g))
    finally:
        t.close()


@test
def compare_floor_within_and_recompute_sums():
    """Compare on f1 under a cap of 1: 200 B fits, 60 B is below the floor
    under the cap ("no, cap"), 50 B below the floor ("no, floor"), as sweep
    says; the chart's dashed line is the floor (54 B).  On resnet_4 each
    row's recompute is the exact sum of fit --json's flips' recompute."""
    t = Tui("cmpfloor", w=120, h=40)
    try:
        t.wait("Routines")
        open_routine(t, "f1")
        t.keys("4", "C", "C-u")
        t.type("1")
        t.keys("Enter")
        add_budgets(t, "200", "60", "50")
        s = t.screen()
        within = {m.group(1): m.group(2) for m in re.finditer(r"^ +\d+[ *](\d+) .* (yes|no, cap|no, floor|no) *$",
                                                              s, re.M)}
        check(within == {"200": "yes", "60": "no, cap", "50": "no, floor"}, (within, s))
        rc, out, _ = run("sweep", F1, "--budgets", "200,60,50", "--max-candidates", "1", "--db", ":memory:")
        check(re.search(r"\n60 B .* no, cap +\n", out) and re.search(r"\n50 B .* no, floor +\n", out), out)
        check(re.search(r"╌{10,} floor 54 B", s), s)
        t.keys("C", "C-u", "Enter")  # the default again: the store keeps C's choice for the next session
    finally:
        t.close()
    t = Tui("cmprec", w=120, h=40)
    try:
        t.wait("Routines")
        open_routine(t, "resnet_4")
        add_budgets(t, "90%", "70%", "50%")
        s = t.screen()
        header = next(l for l in s.split("\n") if l.strip().startswith("# budget"))
        end = header.index("recompute") + len("recompute")
        for b in ("90%", "70%", "50%"):
            j, _ = jrun("fit", RESNET, "--budget", b, "--db", ":memory:")
            row = next(l for l in s.split("\n") if re.match(r"^ +\d+[ *]%s " % re.escape(b), l))
            total = sum(f["recompute"] for f in j["flips"])
            check(total == j["final"]["compute"] - j["baseline"]["compute"], j)
            check(row[end - 10:end].strip() == flops_short(total, True), (b, row, total))
        rc, out, _ = run("score", RESNET, "--json", "--db", ":memory:")
        check(re.search(r"╌{10,} floor %s" % re.escape(units(json.loads(out)["floor"]["bytes"])), s), s)
    finally:
        t.close()


@test
def plans_recompute_column_is_the_flips_sum():
    """A saved resnet_4 Minimize plan: Plans' recomp. column is the sum of
    show --json's flips' recompute."""
    db = os.path.join(TMP, "plans.db")
    subprocess.run([BIN, "import", RESNET, "--db", db], check=True, capture_output=True)
    t = Tui("plansrec", w=120, h=40, db=db)
    try:
        fit_on(t, "resnet_4", "minimize")
        t.wait("event 0/")
        t.keys("S")
        t.type("rec")
        t.keys("Enter")
        s = t.wait("saved as plan")
        pid = re.search(r"saved as plan (\d+)", s).group(1)
        t.keys("5")
        s = t.wait(" rec ")
        j, _ = jrun("show", pid, "--db", db)
        total = sum(f["recompute"] for f in j["flips"])
        header = next(l for l in s.split("\n") if "recomp." in l)
        end = header.index("recomp.") + len("recomp.")
        row = next(l for l in s.split("\n") if re.match(r"^. +%s +rec " % pid, l))
        check(total > 0 and row[end - 7:end].strip() == flops_short(total, True), (row, total))
    finally:
        t.close()


@test
def plans_name_the_frontier_plan_saved_beside():
    """A plan saved by fit --planner frontier (the routine of remat_test's frontier_by_hand: a remat-flipped,
    total 38 B, compute 54 = baseline 49 + 5) shows, under Plans' table, the frontier plan's total, its compute
    over the baseline and its flips, as plans --json gives them; a two-round plan shows none."""
    db = os.path.join(TMP, "frontier.db")
    path = write("frontier_hand.routine", "routine frontier_hand\ninput x [4] u8\na = f(x) [8] u8 cost=5\n"
                 "b = g(a) [2] u8 @pinned\nc = h(b) [32] u8 @pinned\nd = k(c) [2] u8 @pinned\n"
                 "e = m(d, a) [2] u8 @pinned\ng = n(e, a) [2] u8 @output\n")
    rc, out, err = run("fit", path, "--budget", "40", "--save", "--db", db)
    check(rc == 0, err)
    rc, out, err = run("fit", path, "--budget", "40", "--planner", "frontier", "--save", "--label", "fr", "--db", db)
    check(rc == 0, err)
    listed = json.loads(run("plans", "--json", "--db", db)[1])
    fr = [p["frontier"] for p in listed if "frontier" in p]
    check(len(fr) == 1 and fr[0] == {"final_total": 38, "final_compute": 54, "flips": 1, "within_budget": True},
          f"plans --json: {listed}")
    t = Tui("plansfr", w=120, h=30, db=db)
    try:
        t.keys("5")
        s = t.wait(" fr ")
        t.wait(" plan 1: ")  # sorted by id, the first selected: the two-round plan
        check("frontier plan" not in t.screen(), f"the two-round plan shows a frontier plan:\n{t.screen()}")
        t.keys("Down")
        s = t.wait(" plan 2: ")
        check("frontier plan 38 B, +5 FLOPs over the baseline, 1 flip" in flat(s), s)
        t.keys("Up")
        t.wait(" plan 1: ")
        check("frontier plan" not in t.screen(), f"the two-round plan shows a frontier plan:\n{t.screen()}")
    finally:
        t.close()


@test
def compare_puts_a_policy_beside_the_plans():
    """P on Compare: the same step under a policy (frontier_hand with a recomputed once before e: total 38 B,
    compute 54 = the plain step's 49 + 5) is scored alone, its total is a row (38 B, where §5 inlines a:
    +10 FLOPs), the line under the table compares the two (2.00x the policy's), and the chart marks its point P
    at 38 B and +5/49 = +10.2 %, left of the row's digit at +20.4 %, the right end of the axis."""
    db = os.path.join(TMP, "policy.db")
    plain = write("fh_plain.routine", "routine fh_plain\ninput x [4] u8\na = f(x) [8] u8 cost=5\n"
                  "b = g(a) [2] u8 @pinned\nc = h(b) [32] u8 @pinned\nd = k(c) [2] u8 @pinned\n"
                  "e = m(d, a) [2] u8 @pinned\ng = n(e, a) [2] u8 @output\n")
    policy = write("fh_policy.routine", "routine fh_policy\ninput x [4] u8\na = f(x) [8] u8 cost=5\n"
                   "b = g(a) [2] u8 @pinned\nc = h(b) [32] u8 @pinned\nd = k(c) [2] u8 @pinned\n"
                   "a2 = f(x) [8] u8 cost=5\ne = m(d, a2) [2] u8 @pinned\ng = n(e, a2) [2] u8 @output\n")
    for path in (plain, policy):
        subprocess.run([BIN, "import", path, "--db", db], check=True, capture_output=True)
    t = Tui("cmppol", w=120, h=40, db=db)
    try:
        t.wait("Routines")
        open_routine(t, "fh_plain")
        t.keys("4", "P")
        t.wait("the same step under a jax.checkpoint policy")
        t.type("fh_policy")
        t.keys("Enter")
        s = t.wait("P policy fh_policy")
        check("P policy fh_policy: 38 B, adds +5 FLOPs over the baseline; the plan at its memory adds +10 FLOPs, "
              "2.00x the policy's" in s, s)
        row = next(l for l in s.split("\n") if re.match(r"^ +1 38 +38 B ", l))
        check(re.search(r" 38 B +38 +1 +\+10 .* yes *$", row), row)
        lines = s.split("\n")
        chart_rows = [i for i, l in enumerate(lines) if "P" in l and "│" in l]
        check(len(chart_rows) == 1, f"one P in the chart: {chart_rows}\n{s}")
        l = lines[chart_rows[0]]
        check("1" in l and l.index("P") < l.rindex("1"), f"P left of the row's digit on its row: {l}")
    finally:
        t.close()


@test
def a_popup_says_how_to_close_it_when_a_key_is_for_the_screen():
    """With the help open, 1 and i (keys of the screens under it) are not swallowed without a word: the
    status says a popup is open and how to close it; Esc closes it and i then asks for a file (the walk typed
    a whole import into a Why popup)."""
    t = Tui("popupkeys", w=100, h=30)
    try:
        t.wait("Routines")
        t.keys("?")
        t.wait("Esc/q close")
        t.keys("1", "i")
        s = t.wait("a popup is open: Esc or q closes it")
        check("Esc/q close" in s, s)
        t.keys("Escape")
        time.sleep(0.3)
        check("Esc/q close" not in t.screen(), t.screen())
    finally:
        t.close()


@test
def session_cuts_a_routine_name_in_the_middle():
    """At 80 columns the Session list cuts SyncTensorsGraph.1724 in the middle, keeping its numeric suffix
    (it was cut at the end, 'SyncTensorsGraph.17…', the suffix that tells two modules apart lost)."""
    t = Tui("sessname", w=80, h=24)
    try:
        s = t.wait("Routines")
        row = next((l for l in s.split("\n") if "Sync" in l), "")
        check(re.search(r"Sync\S*(…|~)\.1724 |SyncTensorsGraph\.1724 ", row), f"the routine's row: {row!r}\n{s}")
    finally:
        t.close()


@test
def why_gives_bytes_where_totals_round_alike():
    """alike's totals all print as 1.00 MiB: the Why popup of a says the
    try's and the accept's totals in bytes (1048608 B, 1048598 B: worked by
    hand above), as fit --events does."""
    rc, out, _ = run("fit", ALIKE, "--budget", "minimize", "--events", "--db", ":memory:")
    try_s = "round two: try a: alone 1.00 MiB (1048598 B), current 1.00 MiB (1048608 B)"
    acc_s = "a accepted: relieved 10 B (1048608 B -> 1048598 B)"
    check(try_s in out and acc_s in out, out)
    t = Tui("whyalike", w=160, h=45)
    try:
        fit_on(t, "alike", "minimize")
        t.wait("event 0/")
        t.keys("Enter")
        s = t.wait("Why: a")
        check(try_s in s and acc_s in s, s)
    finally:
        t.close()


@test
def why_names_a_big_group_once_last():
    """The Why of a7, which closes a group of seven: the verdict first with
    the group counted, the recompute with its share, the events counting
    the group ("with the 7 held flips", never its names: a real step's
    events each spelled 1,960 and its Why ran to 713 rows), and the seven
    names once, after the last event."""
    t = Tui("whyring", w=160, h=45)
    try:
        fit_on(t, "ring", "minimize")
        t.wait("event 0/")
        t.keys("/")
        t.type("a7")
        t.keys("Enter")
        t.wait("a7: candidate 8 of 8, fit: committed")  # the search says what it found
        t.keys("Enter")
        s = t.wait("Why: a7")
        rows = [r for r in (m.group(1).strip() for m in re.finditer(r"│(.*)│", s)) if r]
        check(rows and rows[0].startswith("a7 committed in round two, closing the load-bearing group of 7 flips: "
                                          "together they relieved 10 B"), rows[:2])
        check(any(r.startswith("recompute: +0 FLOPs (+0.000%)") for r in rows), rows)
        events = [i for i, r in enumerate(rows) if re.match(r"^\d+ +r[12] ", r)]
        check(events and any("with the 7 held flips 4 B, current 14 B" in rows[i] for i in events), rows)
        check(not any("a0, a1, a2, a3" in rows[i] for i in events), rows)
        named = [i for i, r in enumerate(rows) if r == "the load-bearing group of 7 flips: {a0, a1, a2, a3, a4, a5, a6}"]
        check(len(named) == 1 and named[0] > events[-1], (named, events, rows))
    finally:
        t.close()


@test
def compare_says_what_makes_a_budget_jump():
    """Compare's diff line counts the flips that differ and names the
    biggest group the row committed: ring's Minimize takes all eight flips
    at once, one group (seven held and a7) relieving 10 B, where 20 B takes
    none (a new user saw 7 flips become 3,878 with nothing saying why)."""
    t = Tui("cmpjump", w=120, h=40)
    try:
        t.wait("Routines")
        open_routine(t, "ring")
        add_budgets(t, "20B", "minimize")
        t.keys("G")
        t.wait("row 2 vs the row above (+8 -0 flips, its biggest group 8 flips for 10 B): +a0")
        # narrow, the group wraps to a row of its own, whole (it was cut: "...for 10…")
        tmux("resize-window", "-t", "cmpjump", "-x", "60", "-y", "30")
        s = t.wait(re.compile(r"^ row 2 vs the row above \(\+8 -0 flips, *$", re.M))
        rows = s.split("\n")
        at = next(i for i, r in enumerate(rows) if r.startswith(" row 2 vs the row above (+8 -0 flips,"))
        check(rows[at + 1].strip().startswith("its biggest group 8 flips for 10 B): +a0") and "…" not in rows[at + 1], rows[at:at + 3])
    finally:
        t.close()


shutil.rmtree(TMP, ignore_errors=True) if not failed() else None
tmux("kill-server", check=False)
finish()
