#!/usr/bin/env python3
"""HLO benchmark (DESIGN §10): builds a ~3 MB dump of about 10k-14k
instructions from the BERT training step in ../shared/bench/hlo (copies of its
ENTRY, renamed, as micro-batches of one module, each copy's donated output
aliased as the original's; written to a temporary folder, never committed), then times the real binary on it: import + score,
fit at 60 % (the default cap of 32, and every candidate), Minimize, and each
one's peak RSS against the file's size.

usage: bench/hlo_bench.py REMATSCOPE BENCH_DATA_DIR [COPIES]
       bench/hlo_bench.py --dump OUT.hlo BENCH_DATA_DIR [COPIES]   (only write the dump)
"""
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

DUMP = sys.argv[1] == "--dump"
args = sys.argv[2:] if DUMP else sys.argv[1:]
BIN, DATA = args[0], args[1]   # with --dump, BIN is the dump's path
COPIES = int(args[2]) if len(args) > 2 else 18
SRC = os.path.join(DATA, "hlo", "bert_tiny_train_fwd_bwd.hlo")

MEASURE = """
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
sys.stderr.write("\\nRSS_KIB=%d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(p.returncode)
"""


def batched_alias(head):
    """The module line with its input_output_alias pairs repeated for every
    copy: copy k's ROOT is element k of the batched ROOT, its parameters
    numbered from 1000 k (DESIGN §10's donated buffers, {k, OUT...})."""
    line, _, rest = head.partition("\n")
    m = re.search(r"input_output_alias=\{(.*?)\s*\}(?=,\s*\w+=|\s*$)", line)
    if not m:
        return head
    pairs = re.findall(r"\{([\d,\s]*)\}:\s*\((\d+),\s*(\{[\d,\s]*\})((?:,\s*[\w-]+)?)\)", m.group(1))
    out = []
    for k in range(COPIES):
        for idx, param, pidx, kind in pairs:
            inner = ", ".join([str(k)] + [i.strip() for i in idx.split(",") if i.strip()])
            out.append(f"{{{inner}}}: ({int(param) + 1000 * k}, {pidx}{kind})")
    return line[:m.start()] + "input_output_alias={ " + ", ".join(out) + " }" + line[m.end():] + "\n" + rest


def build(path):
    text = open(SRC).read()
    at = text.index("\nENTRY ")
    head, entry = batched_alias(text[:at + 1]), text[at + 1:]
    sig_end = entry.index("{\n") + 2
    body = entry[sig_end:entry.rindex("}")]
    lines = [l for l in body.split("\n") if l.strip()]
    names = set(re.findall(r"%([A-Za-z_][A-Za-z0-9_.\-]*) = ", body))
    pat = re.compile(r"%([A-Za-z_][A-Za-z0-9_.\-]*)")
    out = [head, "ENTRY %Batched {\n"]
    roots = []
    n = 0
    for k in range(COPIES):
        for l in lines:
            l2 = pat.sub(lambda m: "%" + m.group(1) + f"_b{k}" if m.group(1) in names else m.group(0), l)
            if l2.lstrip().startswith("ROOT "):
                roots.append(re.search(r"%([^ ]+) = (\S+|\(.*?\)) ", l2).group(1))
                l2 = l2.replace("ROOT ", "", 1)
            l2 = re.sub(r"parameter\((\d+)\)", lambda m: f"parameter({int(m.group(1)) + 1000 * k})", l2)
            out.append(l2 + "\n")
            n += 1
    out.append("  ROOT %all = () tuple(" + ", ".join("%" + r for r in roots) + ")\n}\n")
    with open(path, "w") as f:
        f.write("".join(out))
    return n + 1


def timed(*args, runs=3):
    best, rss, rc = None, 0, 0
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", MEASURE, BIN, *args], capture_output=True, text=True)
        dt = time.perf_counter() - t
        rc = p.returncode
        if rc:
            sys.exit(f"{args}: {p.stderr}")
        rss = max(rss, int(p.stderr.rpartition("RSS_KIB=")[2].strip()))
        best = dt if best is None else min(best, dt)
    return best, rss


def main():
    tmp = tempfile.mkdtemp(prefix="rs_hlo_bench_")
    path = os.path.join(tmp, "bert_batched.hlo")
    n = build(path)
    size = os.path.getsize(path)
    print(f"dump: {COPIES} copies of the BERT step's ENTRY, {n} instructions, {size / 1e6:.2f} MB ({tmp})")
    print(f"{'what':44} {'wall':>8} {'CPU':>8} {'peak RSS':>12} {'x file':>7}")
    db = os.path.join(tmp, "s.db")
    rows = [
        (path, "convert (read, write the §1 text)", ["convert", path, "-o", os.path.join(tmp, "b.routine")], 3),
        (path, "score (read + lower + layout + candidates)", ["score", path, "--db", ":memory:"], 3),
        (path, "import into a store (read, check, write)", ["--db", db, "import", path], 3),
        (path, "fit at 60% (the default cap: 32)", ["fit", path, "--budget", "60%", "--db", ":memory:"], 1),
        (path, "fit minimize, 128 candidates", ["fit", path, "--budget", "minimize", "--max-candidates", "128",
                                                "--db", ":memory:"], 1),
        (SRC, "the BERT step itself: fit at 60%, all 518", ["fit", SRC, "--budget", "60%", "--max-candidates", "1000",
                                                             "--db", ":memory:"], 3),
        (SRC, "the BERT step itself: fit minimize", ["fit", SRC, "--budget", "minimize", "--db", ":memory:"], 1),
    ]
    for file, what, args, runs in rows:
        if args[0] == "--db" and os.path.exists(db):
            os.remove(db)
        t0 = os.times()
        t, rss = timed(*args, runs=runs)
        t1 = os.times()
        cpu = (t1.children_user + t1.children_system - t0.children_user - t0.children_system) / runs
        fs = os.path.getsize(file)
        print(f"{what:44} {t:7.2f}s {cpu:7.2f}s {rss / 1024:8.0f} MiB {rss * 1024 / fs:6.1f}x")


if DUMP:
    print(f"{BIN}: {build(BIN)} instructions")
else:
    main()
