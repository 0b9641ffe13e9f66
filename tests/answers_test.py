#!/usr/bin/env python3
"""DESIGN §13 end to end: the floor, the peak by role, recompute per flip,
flips by origin and the flips that do not pay, as score, fit, sweep, show and
export give them.  Hand-worked routines check exact figures; on every sample
and bench HLO dump the figures are recomputed here, independently: the roles
read from the routine text (`convert` for HLO), the spans and bytes from
`score --json`'s buffers, the candidates and their cost bounds from its
candidate list.

usage: answers_test.py REMATSCOPE SAMPLES_DIR BENCH_DIR
"""
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, test  # noqa: E402

BIN, SAMPLES, BENCH = sys.argv[1], sys.argv[2], sys.argv[3]
TMP = tempfile.mkdtemp(prefix="rs_answers_")
ROLES = ("resident", "output", "pinned", "candidate")


def run(*args, env=None):
    e = dict(os.environ, XDG_DATA_HOME=TMP, XDG_CONFIG_HOME=TMP)
    e.update(env or {})
    wrap = os.environ.get("RS_WRAP", "").split()
    p = subprocess.run([*wrap, BIN, *args], capture_output=True, text=True, env=e, timeout=1200)
    if p.returncode == 99:
        raise AssertionError(f"valgrind found errors in {args}:\n{p.stderr[-3000:]}")
    return p.returncode, p.stdout, p.stderr


def jrun(*args):
    rc, out, err = run(*args, "--json")
    check(rc == 0, f"{args}: {err}")
    return json.loads(out), err


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# Spans x 0-4, a 0-1, p 1-3 (pinned), c 2-3, q 3-4 (pinned), o 4 (output).
# Live 104, 124, 29, 59, 36: the peak is step 1.  Without the candidates a
# and c: 4, 24, 24, 54, 36, so the floor is 54 at step 3 (resident 4, pinned
# 50).  Cost bounds: a 100, c 5; a cap of 1 drops a, and the floor under
# the cap is then the peak itself, 124 at step 1.
F1 = ("routine f1\ndtype u8\ninput x [4]\na = f(x) [100]\np = g(a) [20] @pinned\nc = f(p) [5]\n"
      "q = h(p, c) [30] @pinned\no = k(q) [{o}] @output\n")
# X is read twice and costs 10, Y once and costs 50: X (bound 20) is held,
# Y (50) closes the group; X carries relief 0 and recompute 0, Y 100 B and
# the group's +10 FLOPs.
PAIR2 = ("routine pair2\ndtype u8\ninput x [4]\nX = f(x) [100] cost=10\nu = g(X, X) [0] @output\n"
         "Y = f(x) [100] cost=50\nv = g(Y) [0] @output\n")


def roles_of(path):
    """node -> (role, origin) read from the routine text (a §1 file, or an
    HLO dump through convert): input/param resident; @output and @into
    output; @pinned pinned; else candidate.  The origin: source="...", else
    the op of the node's first definition."""
    if path.endswith(".routine"):
        with open(path) as f:
            text = f.read()
    else:
        rc, text, err = run("convert", path)
        check(rc == 0, err)
    nodes = {}
    for line in text.split("\n"):
        src = re.search(r'\bsource="((?:[^"\\]|\\.)*)"', line)
        bare = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line).split("#")[0]  # no quoted text, no comment
        m = re.match(r"\s*(input|param)\s+(\S+)", bare)
        if m:
            nodes[m.group(2)] = ("resident", src.group(1) if src else m.group(1))
            continue
        m = re.match(r"\s*(\S+)\s*=\s*([A-Za-z_][\w.]*)\(", bare)
        if m and m.group(1) not in nodes:
            flags = set(re.findall(r"@(output|pinned|into)", bare))
            role = "output" if flags & {"output", "into"} else "pinned" if "pinned" in flags else "candidate"
            nodes[m.group(1)] = (role, src.group(1) if src else m.group(2))
    return nodes


def aligned(b, a):
    return (b + a - 1) // a * a


def floor_of(buffers, roles, alignment, held=()):
    """The largest aligned total live at one step of the buffers that are no
    candidate (or are held), the first such step, and its roles there."""
    keep = [b for b in buffers if roles[b["node"]][0] != "candidate" or b["node"] in held]
    steps = max([b["end"] for b in buffers] + [0]) + 1
    delta = [0] * (steps + 1)
    for b in keep:
        delta[b["start"]] += aligned(b["bytes"], alignment)
        delta[b["end"] + 1] -= aligned(b["bytes"], alignment)
    best, at, cur = -1, 0, 0
    for s in range(steps):
        cur += delta[s]
        if cur > best:
            best, at = cur, s
    split = {r: 0 for r in ROLES}
    for b in keep:
        if b["start"] <= at <= b["end"]:
            split[roles[b["node"]][0]] += aligned(b["bytes"], alignment)
    return dict(bytes=best, step=at, **split)


def split_at(buffers, roles, alignment, step):
    split = {r: 0 for r in ROLES}
    for b in buffers:
        if b["start"] <= step <= b["end"]:
            split[roles[b["node"]][0]] += aligned(b["bytes"], alignment)
    return split


def every_routine():
    files = sorted(glob.glob(os.path.join(SAMPLES, "*.routine")) + glob.glob(os.path.join(SAMPLES, "gen", "*.routine")) +
                   glob.glob(os.path.join(SAMPLES, "hlo", "*.hlo")) + glob.glob(os.path.join(BENCH, "hlo", "*.hlo")))
    check(len(files) >= 24, files)
    return files


@test
def floor_and_peak_by_role_by_hand():
    p = write("f1.routine", F1.format(o=2))
    j, _ = jrun("score", p)
    check(j["footprint"]["live_peak"] == 124 and j["footprint"]["peak_step"] == 1, j["footprint"])
    check(j["floor"] == {"bytes": 54, "step": 3, "resident": 4, "output": 0, "pinned": 50, "candidate": 0}, j["floor"])
    check(j["peak_by_role"] == {"resident": 4, "output": 0, "pinned": 20, "candidate": 100}, j["peak_by_role"])
    rc, out, err = run("score", p)
    check("peak       live 124 B at step 1: resident 4 B, output 0 B, pinned 20 B, candidate 100 B\n" in out, out)
    check("floor      54 B at step 3: resident 4 B, output 0 B, pinned 50 B: no plan goes below it\n" in out, out)
    # a tie (step 4 holds 4 + 30 + 20 = 54 too): the first step
    j, _ = jrun("score", write("f1_tie.routine", F1.format(o=20)))
    check(j["floor"]["bytes"] == 54 and j["floor"]["step"] == 3 and j["floor"]["pinned"] == 50, j["floor"])
    # aligned to 16: x 16, p 32, q 32, o 16: 80 at step 3; o of 17 bytes
    # (32 aligned) ties at step 4, where unaligned it was below
    for o in (2, 17):
        j, _ = jrun("score", write(f"f1_{o}.routine", F1.format(o=o)), "--alignment", "16")
        check(j["floor"] == {"bytes": 80, "step": 3, "resident": 16, "output": 0, "pinned": 64, "candidate": 0},
              (o, j["floor"]))
        check(j["peak_by_role"] == {"resident": 16, "output": 0, "pinned": 32, "candidate": 112}, j["peak_by_role"])
    # @into: a zero-byte output; the floor never counts its shape's 8 bytes
    j, _ = jrun("score", write("f2.routine", "routine f2\ndtype u8\ninput w [8]\ninput x [4]\na = f(x) [50]\n"
                                             "w2 = sub(w, a) [8] @into(w)\nb = g(w2) [10]\no = h(b) [6] @output\n"))
    check(j["floor"] == {"bytes": 18, "step": 3, "resident": 12, "output": 6, "pinned": 0, "candidate": 0}, j["floor"])
    check(j["peak_by_role"] == {"resident": 12, "output": 0, "pinned": 0, "candidate": 50}, j["peak_by_role"])
    check(not any(c["node"] == "w2" for c in j["candidates"]), j["candidates"])


@test
def a_missed_budget_says_by_how_much_and_why():
    """negative_relief at 75% (78.0 MiB of 104 MiB), every candidate: the
    plan ends at 84.0 MiB, above the floor, so fit and show say the miss
    (6.00 MiB, 6291456 B) and that the two rounds tried every candidate."""
    db = os.path.join(TMP, "missed.db")
    path = os.path.join(SAMPLES, "negative_relief.routine")
    j, _ = jrun("fit", path, "--budget", "75%", "--max-candidates", "all", "--db", db)
    check(not j["within_budget"] and j["final"]["total"] - j["budget"]["bytes"] == 6291456, j)
    want = ("within budget: no, missed by 6.00 MiB (6291456 B) (the two rounds considered every candidate: "
            "--improve or --exact searches further)\n")
    rc, out, err = run("fit", path, "--budget", "75%", "--max-candidates", "all", "--db", db, "--save")
    check(rc == 0 and want in out, out)
    rc, out, err = run("show", "1", "--db", db)
    check(rc == 0 and "within budget: no, missed by 6.00 MiB (6291456 B);" in out, out)
    rc, out, err = run("fit", path, "--budget", "minimize", "--db", db)
    check(rc == 0 and "within budget: yes\n" in out, out)


@test
def fit_says_the_floor_before_it_runs():
    p = write("f1.routine", F1.format(o=2))
    # below the floor: said on stderr before the fit, and the fit still runs (§5)
    j, err = jrun("fit", p, "--budget", "50", "--max-candidates", "1")
    check("rematscope: floor: the budget 50 B is below the floor 54 B at step 3: resident 4 B, output 0 B, "
          "pinned 50 B: no plan can reach it; fitting anyway\n" == err, err)
    check(j["floor"] == {"bytes": 54, "step": 3, "resident": 4, "output": 0, "pinned": 50, "candidate": 0}, j)
    check(j["floor_cap"] == {"bytes": 124, "step": 1, "resident": 4, "output": 0, "pinned": 20, "candidate": 100}, j)
    check(not j["within_budget"] and j["dropped"] == 1, j)
    # between the floors: the cap is what stands in the way, and the fix is named
    j, err = jrun("fit", p, "--budget", "60", "--max-candidates", "1")
    check("below the floor under the cap, 124 B at step 1: resident 4 B, output 0 B, pinned 20 B, dropped "
          "candidates 100 B: no plan of the 1 cheapest of 2 candidates can reach it (--max-candidates 2 considers "
          "every one); fitting anyway" in err, err)
    # with every candidate the floor under the cap is the floor: no floor_cap key
    j, err = jrun("fit", p, "--budget", "60")
    check(err == "" and "floor_cap" not in j and j["floor"]["bytes"] == 54, (err, j))
    rc, out, err = run("fit", p, "--budget", "50", "--max-candidates", "1")
    check(rc == 0 and "floor      54 B at step 3: resident 4 B, output 0 B, pinned 50 B: no plan goes below it\n"
          "floor under the cap  124 B at step 1: resident 4 B, output 0 B, pinned 20 B, dropped candidates 100 B: no "
          "plan of the 1 cheapest of 2 candidates goes below it\n"
          "within budget: no, missed by 74 B (the budget is below the floor: no plan can reach it)\n" in out, out)
    # minimize and budgets above the floor say nothing before
    for b in ("minimize", "100%", "70"):
        rc, out, err = run("fit", p, "--budget", b)
        check(rc == 0 and err == "", (b, err))
    # sweep marks the rows no plan could meet
    rc, out, err = run("sweep", p, "--budgets", "200,60,50", "--max-candidates", "1")
    check(rc == 0 and re.search(r"\n60 B .* no, cap +\n", out) and re.search(r"\n50 B .* no, floor +\n", out), out)
    check("floor      54 B at step 3" in out, out)


@test
def recompute_per_flip_by_hand():
    p = write("pair2.routine", PAIR2)
    db = os.path.join(TMP, "pair2.db")
    j, _ = jrun("fit", p, "--budget", "minimize", "--save", "--db", db)
    check([(f["node"], f["relief"], f["recompute"]) for f in j["flips"]] == [("X", 0, 0), ("Y", 100, 10)], j["flips"])
    check(j["final"]["compute"] - j["baseline"]["compute"] == 10, j)
    rc, out, err = run("fit", p, "--budget", "minimize")
    check(re.search(r"\n +1  X +0 B +0 +20 FLOPs +\+0 FLOPs", out) and
          re.search(r"\n +2  Y +100 B +100 +50 FLOPs +\+10 FLOPs", out), out)
    s, _ = jrun("show", "1", "--db", db)
    check([f["recompute"] for f in s["flips"]] == [0, 10], s["flips"])
    check(s["floor"] == j["floor"] and s["by_origin"] == j["by_origin"], (s, j))
    path = os.path.join(TMP, "pair2_flips.csv")
    rc, out, err = run("export", "1", "--what", "flips", "--output", path, "--db", db)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    check([(r["node"], r["recompute"]) for r in rows] == [("X", "0"), ("Y", "10")], rows)
    # by origin: X and Y are both f(x) with no source: one group, op f
    check(j["by_origin"] == [{"origin": "f", "flips": 2, "relief": 100, "recompute": 10}], j["by_origin"])


@test
def floor_and_roles_recomputed_on_every_sample_and_dump():
    """The floor and the peak by role of score --json against the buffers
    it lists and the roles the routine text gives, at alignments 1 and 256."""
    for path in every_routine():
        roles = roles_of(path)
        for a in ("1", "256"):
            j, _ = jrun("score", path, "--alignment", a, "--db", ":memory:")
            al = int(a)
            for b in j["buffers"]:
                check(b["node"] in roles, (path, b["node"]))
            want = floor_of(j["buffers"], roles, al)
            check(j["floor"] == want, (path, a, j["floor"], want))
            fp = j["footprint"]
            split = split_at(j["buffers"], roles, al, fp["peak_step"])
            check(j["peak_by_role"] == split, (path, a, j["peak_by_role"], split))
            check(sum(split.values()) == fp["live_peak"], (path, a, split, fp))
            check(j["floor"]["bytes"] <= fp["live_peak"] <= fp["total"], (path, a))


@test
def floor_under_the_cap_recomputed():
    """fit at 60 % with small caps: the floor under the cap counts the
    candidates the cap drops (the cheapest by cost bound are kept, ties in
    definition order) with their baseline spans."""
    for path in every_routine():
        roles = roles_of(path)
        s, _ = jrun("score", path, "--db", ":memory:")
        inline = [c for c in s["candidates"] if c["direction"] == "Inline"]
        order = sorted(range(len(inline)), key=lambda k: (inline[k]["cost"], k))
        for cap in (0, 3):
            j, err = jrun("fit", path, "--budget", "60%", "--max-candidates", str(cap), "--db", ":memory:")
            check(j["floor"] == floor_of(s["buffers"], roles, 1), (path, j["floor"]))
            met = j["baseline"]["total"] <= j["budget"]["bytes"]
            dropped = [] if met else [inline[k]["node"] for k in order[cap:]]
            check(j["dropped"] == len(dropped), (path, cap, j["dropped"], len(dropped)))
            if dropped:
                check(j["floor_cap"] == floor_of(s["buffers"], roles, 1, set(dropped)), (path, cap, j["floor_cap"]))
                check(j["final"]["live_peak"] >= j["floor_cap"]["bytes"], (path, cap))
            else:
                check("floor_cap" not in j, (path, cap))
            below = j["budget"]["bytes"] < j["floor"]["bytes"]
            below_cap = dropped and j["budget"]["bytes"] < j["floor_cap"]["bytes"]
            check(("below the floor" in err) == bool(below or below_cap), (path, cap, err))
            if below:
                check(not j["within_budget"], path)


def origin_groups(flips, roles):
    groups = {}
    for f in flips:
        g = groups.setdefault(roles[f["node"]][1], {"flips": 0, "relief": 0, "recompute": 0})
        g["flips"] += 1
        g["relief"] += f["relief"]
        g["recompute"] += f["recompute"]
    return [dict(origin=k, **v) for k, v in sorted(groups.items(), key=lambda kv: (-kv[1]["relief"],
                                                                                   kv[0].encode()))]


def unpaid_of(flips, base):
    """The rule of docs/design-notes.md: a flip, or a committed group with the flip closing
    it, does not pay when recompute / compute > 100 * relief / total."""
    marks, start = [], 0
    for i, f in enumerate(flips):
        if f["relief"] == 0 and i + 1 < len(flips):
            continue
        rec = sum(g["recompute"] for g in flips[start:i + 1])
        bad = rec > 0 and rec * base["total"] > 100 * f["relief"] * base["compute"]
        marks += [bad] * (i + 1 - start)
        start = i + 1
    return marks


@test
def recompute_origins_and_pay_on_every_sample_and_dump():
    """Recompute per flip sums to final - baseline; by_origin is the flips
    grouped by source, else op (biggest relief first, ties by byte order);
    pays follows docs/design-notes.md's rule."""
    flagged = 0
    for path in every_routine():
        roles = roles_of(path)
        for budget in ("minimize", "60%"):
            j, _ = jrun("fit", path, "--budget", budget, "--max-candidates", "1000000", "--db", ":memory:")
            fl = j["flips"]
            check(sum(f["recompute"] for f in fl) == j["final"]["compute"] - j["baseline"]["compute"], (path, budget))
            check(all(f["recompute"] == 0 for f in fl if f["relief"] == 0), (path, budget))
            check(j["by_origin"] == origin_groups(fl, roles), (path, budget, j["by_origin"], origin_groups(fl, roles)))
            marks = unpaid_of(fl, j["baseline"])
            check([not f["pays"] for f in fl] == marks, (path, budget, fl))
            flagged += sum(marks)
    check(flagged > 0, "some sample has a flip that does not pay")


@test
def recompute_is_what_each_flip_added():
    """On the BERT step at 60 % (every candidate): each flip's recompute is
    the compute score gives the flips so far minus the flips before it (the
    members of a group 0, the flip closing it the group's)."""
    bert = os.path.join(BENCH, "hlo", "bert_tiny_train_fwd_bwd.hlo")
    for path, budget in ((bert, "60%"), (os.path.join(SAMPLES, "gen", "resnet_small.routine"), "minimize")):
        j, _ = jrun("fit", path, "--budget", budget, "--max-candidates", "1000000", "--db", ":memory:")
        before, prefix = j["baseline"]["compute"], []
        check(any(f["recompute"] for f in j["flips"]), (path, j["flips"]))
        for f in j["flips"]:
            prefix += ["--inline", f["node"]]
            if f["relief"] == 0:
                continue
            s, _ = jrun("score", path, *prefix, "--db", ":memory:")
            check(f["recompute"] == s["footprint"]["compute"] - before, (path, f, s["footprint"]))
            before = s["footprint"]["compute"]
        check(before == j["final"]["compute"], path)


@test
def show_and_export_give_the_fit_answers():
    db = os.path.join(TMP, "answers.db")
    path = os.path.join(SAMPLES, "gen", "resnet_small.routine")
    # plan 1: a cap that drops candidates (a floor under it); plan 2: flips that do not pay
    for pid, args in ((1, ("--budget", "50%", "--max-candidates", "40")), (2, ("--budget", "minimize"))):
        j, _ = jrun("fit", path, *args, "--save", "--db", db)
        s, _ = jrun("show", str(pid), "--db", db)
        for k in ("floor", "floor_cap", "by_origin"):
            check(s.get(k) == j.get(k), (k, s.get(k), j.get(k)))
        check(("floor_cap" in s) == (pid == 1), s.keys())
        check([(f["node"], f["recompute"], f["pays"]) for f in s["flips"]] ==
              [(f["node"], f["recompute"], f["pays"]) for f in j["flips"]], s["flips"])
        out_csv = os.path.join(TMP, f"origins{pid}.csv")
        rc, out, err = run("export", str(pid), "--what", "origins", "--output", out_csv, "--db", db)
        check(rc == 0, err)
        with open(out_csv, newline="") as f:
            rows = list(csv.DictReader(f))
        check([(int(r["plan_id"]), int(r["rank"]), r["origin"], int(r["flips"]), int(r["relief"]), int(r["recompute"]))
               for r in rows] ==
              [(pid, k + 1, g["origin"], g["flips"], g["relief"], g["recompute"]) for k, g in enumerate(j["by_origin"])],
              rows)
        rc, out, err = run("show", str(pid), "--db", db)
        check(rc == 0 and "\nflips by origin (%d, biggest relief first):\n" % len(j["by_origin"]) in out, out)
        check(("floor under the cap  " in out) == (pid == 1), out)
        marked = sum(1 for f in s["flips"] if not f["pays"])
        check(marked == (0 if pid == 1 else 17), (pid, marked))
        rows = re.findall(r"\n +\d+([! ]) \S+ +\d", out)
        check(len(rows) == len(s["flips"]) and rows.count("!") == marked, (marked, rows, out))
        if marked:
            check(re.search(r"\n  ! %d flips do not pay: together \+" % marked, out), out)


@test
def bert_at_sixty_percent_names_its_floor():
    """The synthetic 13.5k-instruction BERT dump (18 copies of the step, as
    bench/hlo_bench.py builds it) at 60 %: its floor is above the budget, so
    fit says so before it starts, naming what holds the floor."""
    src = os.path.join(BENCH, "hlo", "bert_tiny_train_fwd_bwd.hlo")
    with open(src) as f:
        text = f.read()
    at = text.index("\nENTRY ")
    head, entry = text[:at + 1], text[at + 1:]
    body = entry[entry.index("{\n") + 2:entry.rindex("}")]
    lines = [l for l in body.split("\n") if l.strip()]
    names = set(re.findall(r"%([A-Za-z_][A-Za-z0-9_.\-]*) = ", body))
    pat = re.compile(r"%([A-Za-z_][A-Za-z0-9_.\-]*)")
    out, roots = [head, "ENTRY %Batched {\n"], []
    for k in range(18):
        for l in lines:
            l2 = pat.sub(lambda m: "%" + m.group(1) + f"_b{k}" if m.group(1) in names else m.group(0), l)
            if l2.lstrip().startswith("ROOT "):
                roots.append(re.search(r"%([^ ]+) = ", l2).group(1))
                l2 = l2.replace("ROOT ", "", 1)
            l2 = re.sub(r"parameter\((\d+)\)", lambda m: f"parameter({int(m.group(1)) + 1000 * k})", l2)
            out.append(l2 + "\n")
    out.append("  ROOT %all = () tuple(" + ", ".join("%" + r for r in roots) + ")\n}\n")
    path = write("bert_batched.hlo", "".join(out))
    s, _ = jrun("score", path, "--db", ":memory:")
    roles = roles_of(path)
    check(s["floor"] == floor_of(s["buffers"], roles, 1), s["floor"])
    rc, out_, err = run("fit", path, "--budget", "60%", "--db", ":memory:")
    check(rc == 0, err)
    budget = s["footprint"]["total"] * 60 // 100
    if budget < s["floor"]["bytes"]:
        check(err.startswith("rematscope: floor: the budget ") and "no plan can reach it" in err, err)
        check(re.search(r"within budget: no, missed by [0-9.]+ [KMG]iB \([0-9]+ B\) \(the budget is below the floor: no "
                        r"plan can reach it\)", out_), out_)


finish()
