#!/usr/bin/env python3
"""Donated buffers end to end (DESIGN §1 `@into`, §10 "Donated buffers"): the
hand-written modules of samples/hlo (worked by hand below), the four bench
dumps against a plain reading of their input_output_alias, `@into` in a §1
routine, and what score, convert, fit, verify and the SVG say of them.

usage: donation_test.py REMATSCOPE SAMPLES_DIR BENCH_DIR
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, test  # noqa: E402

BIN, SAMPLES, BENCH = sys.argv[1], sys.argv[2], sys.argv[3]
TMP = tempfile.mkdtemp(prefix="rs_don_")
STEP = os.path.join(SAMPLES, "hlo", "donated_step.hlo")
ROOT = os.path.join(SAMPLES, "hlo", "donated_root.hlo")
DUP = os.path.join(SAMPLES, "hlo", "donated_dup.hlo")
HLO_BENCH = sorted(glob.glob(os.path.join(BENCH, "hlo", "*.hlo")))


def run(*args):
    e = dict(os.environ)
    e["XDG_DATA_HOME"] = TMP
    e["XDG_CONFIG_HOME"] = TMP
    wrap = os.environ.get("RS_WRAP", "").split()
    p = subprocess.run([*wrap, BIN, *args], capture_output=True, text=True, env=e, timeout=1200)
    if p.returncode == 99:
        raise AssertionError(f"valgrind found errors in {args}:\n{p.stderr[-3000:]}")
    return p.returncode, p.stdout, p.stderr


def score_json(path):
    rc, out, err = run("score", path, "--json", "--db", ":memory:")
    check(rc == 0, f"{path}: {err}")
    j = json.loads(out)
    j.pop("after_xla_passes", None)  # the HLO module's stage: a §1 routine converted from it is no module
    return j


def by_node(j):
    return {b["node"]: b for b in j["buffers"]}


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def expect_error(args, needle):
    rc, out, err = run(*args)
    lines = err.strip().split("\n")
    check(rc == 2 and len(lines) == 1 and lines[0].startswith("rematscope: ") and needle in lines[0] and out == "",
          f"{args}: exit {rc}, {err!r}, want {needle!r}")


@test
def step_sample_by_hand():
    """donated_step: w2 and m2 into w and m, the fusion's first leaf (its node
    upd; the second leaf is upd.1, §10) into v, x passed through, parameter 7
    absent.  Residents 81,924 B; the peak moves from the tail (step 5: 163,848
    B without donation) to step 1 (147,460)."""
    j = score_json(STEP)
    b = by_node(j)
    check(b["w2"]["bytes"] == 0 and b["w2"]["into"] == "w" and b["m2"]["into"] == "m", (b["w2"], b["m2"]))
    check(b["upd"]["bytes"] == 0 and b["upd"]["into"] == "v", b["upd"])
    check(b["upd.1"]["bytes"] == 16384 and "into" not in b["upd.1"] and b["upd.1"]["start"] == 6, b["upd.1"])
    check(b["x"]["bytes"] == 32768 and "into" not in b["x"], b["x"])
    check(all("into" not in v for k, v in b.items() if k not in ("w2", "m2", "upd")), b)
    fp = j["footprint"]
    # the leaf's step adds cost 1 (§10)
    check(fp == {"total": 147464, "live_peak": 147460, "peak_step": 1, "buffers": 13, "compute": 49153}, fp)
    check([c["node"] for c in j["candidates"]] == ["wb", "h", "g"], j["candidates"])
    # without the alias the same step counts the updates twice
    with open(STEP) as f:
        text = f.read()
    plain = write("plain_step.hlo", re.sub(r"^HloModule donated_step,[^\n]*", "HloModule donated_step", text))
    fp = score_json(plain)["footprint"]
    check(fp["live_peak"] == 163848 and fp["peak_step"] == 5, fp)
    # the table: the role, and what the alias did
    rc, out, err = run("score", STEP, "--db", ":memory:")
    check(rc == 0, err)
    check("donated    3 of 5 aliased outputs, 48.0 KiB (49152 B) written into their parameters' buffers" in out, out)
    row = next(l for l in out.splitlines() if l.startswith("w2 "))
    check(" 0 B " in row and "  into w  " in row and "sgd train.py:13" in row, row)


@test
def step_sample_converts():
    """convert writes @into(P) and the fusion's leaves, says what was
    donated, and reads back to the same score and plans."""
    out_path = os.path.join(TMP, "donated_step.routine")
    rc, out, err = run("convert", STEP, "-o", out_path)
    check(rc == 0, err)
    with open(out_path) as f:
        text = f.read()
    check("# donated (input_output_alias): 3 of 5 outputs, 49152 bytes written into their parameters\n" in text, text)
    check("\nm2 = add(m, g) [4096] f32 cost=4096 @output @into(m) hlo=\"m2\"" in text, text)
    check("\nupd.1 = leaf() [4096] f32 cost=1 @output @pinned hlo=\"upd\"\n"
          "upd = fusion(v, g, upd.1) [4096] f32 cost=8192 @output @into(v) hlo=\"upd\"\n" in text, text)
    check(text.count("@into(") == 3, text)
    check(score_json(STEP) == score_json(out_path), "score differs after convert")
    for budget in ("80%", "minimize"):
        runs = []
        for p in (STEP, out_path):
            rc, out, err = run("fit", p, "--budget", budget, "--json", "--db", ":memory:")
            check(rc == 0, err)
            runs.append(json.loads(out))
        check(runs[0] == runs[1], f"fit {budget} differs after convert")
        flips = {f["node"] for f in runs[0]["flips"]}
        check(not flips & {"w2", "m2", "upd", "loss"}, flips)
    # at 80 % (117,971 B): wb and h, 16 KiB each
    check([f["node"] for f in runs[0]["flips"]] != [] and runs[0]["baseline"]["total"] == 147464, runs[0]["flips"])
    rc, out, err = run("fit", STEP, "--budget", "80%", "--json", "--db", ":memory:")
    j = json.loads(out)
    check([f["node"] for f in j["flips"]] == ["wb", "h"] and j["final"]["total"] == 114696, j["flips"])


@test
def root_sample_moves_the_parameter_up():
    """donated_root: `{}` donates the array ROOT whole, into a parameter
    printed after it: its input line moves up to just before r's."""
    rc, out, err = run("convert", ROOT)
    check(rc == 0, err)
    lines = [l.split(" hlo=")[0] for l in out.splitlines() if not l.startswith("#")]
    check(lines == ["routine donated_root", "c = iota() [1024] f32 cost=1024", "d = multiply(c, c) [1024] f32 cost=1024",
                    "input p [1024] f32", "input q [1024] f32",
                    "r = add(d, q) [1024] f32 cost=1024 @output @into(p)"], lines)
    j = score_json(ROOT)
    b = by_node(j)
    check(b["r"]["bytes"] == 0 and b["r"]["into"] == "p" and b["r"]["start"] == 2, b["r"])
    check(j["footprint"]["live_peak"] == 4 * 4096 and j["footprint"]["total"] == 4 * 4096, j["footprint"])


@test
def dup_sample_edges():
    """donated_dup: a named twice (the second pair finds nothing left), a
    tuple and a constant skipped, b reached through opt-barrier(tuple)."""
    j = score_json(DUP)
    b = by_node(j)
    check(b["a"]["into"] == "p0" and b["a"]["bytes"] == 0, b["a"])
    check(b["b"]["into"] == "p3" and b["b"]["bytes"] == 0, b["b"])
    check(b["c"]["bytes"] == 256 and "into" not in b["c"] and b["k"]["bytes"] == 256, (b["c"], b["k"]))
    check(j["footprint"]["total"] == 6 * 256 and j["candidates"] == [], j["footprint"])
    rc, out, err = run("score", DUP, "--db", ":memory:")
    check("donated    2 of 6 aliased outputs, 512 B written into their parameters' buffers" in out, out)


def plain_alias_reading(path):
    """The bench dumps' donation read plainly: every pair {k}: (P, {}) of the
    HloModule line, ROOT a flat tuple; an operand that is an ENTRY
    instruction but a parameter or constant donates its bytes, once."""
    with open(path) as f:
        text = f.read()
    head = text.split("\n", 1)[0]
    pairs = [(int(o), int(p)) for o, p in re.findall(r"\{(\d+)\}: \((\d+), \{\}(?:, [a-z]+-alias)?\)", head)]
    entry = text[text.index("\nENTRY "):]
    defs = {}
    for m in re.finditer(r"\n\s*(ROOT )?%([\w.\-]+) = ([^ ]+|\(.*?\)) ([\w\-]+)\(", entry):
        defs[m.group(2)] = (m.group(3), m.group(4))
    params = {}
    for m in re.finditer(r"\n\s*%([\w.\-]+) = \S+ parameter\((\d+)\)", entry):
        params[int(m.group(2))] = m.group(1)
    root = re.search(r"\n\s*ROOT %[\w.\-]+ = \(.*?\) tuple\((.*)\)", entry).group(1)
    ops = re.findall(r"%([\w.\-]+)", root)
    size = {"f32": 4, "bf16": 2, "f16": 2, "s32": 4, "s64": 8, "pred": 1, "u8": 1, "s8": 1, "u32": 4, "f64": 8}
    donated, total, into = 0, 0, {}
    for o, p in pairs:
        name = ops[o]
        shape, op = defs[name]
        # written in place (§10): a scatter or dynamic-update-slice is a
        # further definition of its operand 0's node
        while op in ("scatter", "dynamic-update-slice"):
            line = re.search(r"\n\s*(?:ROOT )?%" + re.escape(name) + r" = [^\n]*", entry).group(0)
            first = re.search(op + r"\((?:\S+ )?%([\w.\-]+)", line).group(1)
            if defs[first][1] in ("parameter", "constant"):
                break
            name = first
            shape, op = defs[name]
        if op in ("parameter", "constant") or name in into:
            continue
        # a parameter still read after the node's definition is copied by
        # XLA first: the node keeps its bytes (§10)
        after = entry[re.search(r"\n\s*(?:ROOT )?%" + re.escape(name) + r" = ", entry).end():]
        if re.search(r"\n\s*(?:ROOT )?%[\w.\-]+ = [^\n]*%" + re.escape(params[p]) + r"(?![\w.\-])", after):
            continue
        t, dims = re.match(r"(\w+)\[([\d,]*)\]", shape).groups()
        n = 1
        for d in dims.split(","):
            n *= int(d) if d else 1
        into[name] = params[p]
        donated += 1
        total += n * size[t]
    return len(pairs), donated, total, into


@test
def bench_dumps_donate():
    """The four bench dumps: the donated outputs and bytes score reports, and
    each donated node's buffer (0 B, "into" its parameter), match a plain
    reading of the alias; the table says the same."""
    check(len(HLO_BENCH) == 4, HLO_BENCH)
    seen = {}
    for p in HLO_BENCH:
        pairs, donated, total, into = plain_alias_reading(p)
        j = score_json(p)
        got = {b["hlo"]: b for b in j["buffers"] if "into" in b}
        check(set(got) == set(into), (p, sorted(set(got) ^ set(into))[:5]))
        names = {b["node"]: b["hlo"] for b in j["buffers"]}
        for h, b in got.items():
            check(b["bytes"] == 0 and names[b["into"]] == into[h], (p, b))
        rc, out, err = run("score", p, "--db", ":memory:")
        line = next(l for l in out.splitlines() if l.startswith("donated "))
        m = re.match(r"donated    (\d+) of (\d+) aliased outputs, (?:\S+ \S+ \((\d+) B\)|(\d+) B) written", line)
        check(m and (int(m.group(1)), int(m.group(2)), int(m.group(3) or m.group(4))) == (donated, pairs, total),
              (p, line))
        seen[os.path.basename(p)] = (donated, pairs, total)
    check(seen == {"bert_tiny_optimizer.hlo": (30, 31, 2656304), "bert_tiny_train_fwd_bwd.hlo": (1, 1, 4),
                   "gpt2_2layer_train.hlo": (4, 4, 6291456), "linear_adam.hlo": (0, 3, 0)}, seen)


@test
def routine_into():
    """`@into` in a §1 routine: 0 bytes, role into P, never a candidate; its
    errors are one located line."""
    path = write("into.routine", "routine don\ninput w [1024]\ninput x [1024]\ng = mul(x, x) [1024]\n"
                                 "w2 = sub(w, g) [1024] @into(w)\ny = f(w2) [1024] @output\n")
    j = score_json(path)
    b = by_node(j)
    check(b["w2"]["bytes"] == 0 and b["w2"]["into"] == "w" and b["w2"]["start"] == 1 and b["w2"]["end"] == 2, b["w2"])
    check([c["node"] for c in j["candidates"]] == ["g"], j["candidates"])
    # w x 4096 each for 3 steps, g (0-1), y (2): 12,288 B at step 0
    check(j["footprint"]["live_peak"] == 12288 and j["footprint"]["total"] == 12288, j["footprint"])
    rc, out, err = run("score", path, "--db", ":memory:")
    check("into       1 node written into its input's buffer (@into), 4.00 KiB (4096 B) not counted again" in out, out)
    check(any(l.startswith("w2 ") and " into w" in l for l in out.splitlines()), out)
    # an inline preference for it is rejected: "into"
    rc, out, err = run("score", path, "--inline", "w2", "--json", "--db", ":memory:")
    check(rc == 0 and json.loads(out)["rejected"] == [{"node": "w2", "reason": "into"}], out + err)
    expect_error(["score", write("b1.routine", "routine b\ninput w [4]\nparam c [4]\ny = f(w) [4] @into(c)\n")],
                 "b1.routine:4:20: @into(c) names a param (line 3), not an input")
    expect_error(["score", write("b2.routine", "routine b\ninput w [4]\ny = f(w) [4] @inline @into(w)\n")],
                 "b2.routine:3:22: @into and @inline on one node")
    expect_error(["score", write("b3.routine", "routine b\ninput w [4]\ny = f(w) [4] @into(z)\ninput z [4]\n")],
                 "b3.routine:3:20: @into(z) names a node declared later, at line 4")


@test
def saved_plan_verifies():
    """A plan of a donated routine, saved and rebuilt by verify's plain
    path, agrees; the SVG's hover title names the parameter."""
    db = os.path.join(TMP, "don.db")
    rc, out, err = run("--db", db, "fit", STEP, "--budget", "80%", "--save")
    check(rc == 0, err)
    rc, out, err = run("--db", db, "verify")
    check(rc == 0 and out.strip().endswith("ok"), out + err)
    # w2 and m2 hold no bytes, so they draw nothing: the hover title of the
    # input each is written into says it
    svg = os.path.join(TMP, "step.svg")
    rc, out, err = run("--db", db, "export", "1", "--what", "svg", "--output", svg)
    check(rc == 0, err)
    titles = [t.text or "" for t in ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}title")]
    w = [t for t in titles if t.startswith("w: ")]
    check(len(w) == 1 and re.fullmatch(r"w: 16\.0 KiB \(16384 B\), steps 0-7, offset \d+, resident, "
                                       r"takes w2's result: donated", w[0]), w or titles)
    check(not any(t.startswith("w2") for t in titles), titles)
    x = [t for t in titles if t.startswith("x: ")]
    check(x and "donated" not in x[0], x)


finish()
