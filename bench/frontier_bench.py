#!/usr/bin/env python3
"""The frontier planner (DESIGN §14) against §5's two-round plan, and against
JAX's checkpoint policies.

usage: frontier_bench.py REMATSCOPE [--budgets 80%,60%,40%,minimize] [--cap all] ROUTINE...
       frontier_bench.py REMATSCOPE --policy PLAIN POLICY [--policy PLAIN POLICY]...

The first form prints, per routine and budget, §5's plan (under --cap, default
all) and the frontier plan: total, added compute, within budget, and the
frontier's remat flips, scorings and seconds.  The second form scores each
POLICY program (the same step under a `jax.checkpoint` policy) as the tool
scores it, takes its total as the budget and its compute minus PLAIN's as
the compute to beat, and runs the frontier planner on PLAIN at that budget:
the policy's (memory, added compute), the frontier plan's, and the ratio.
"""
import json
import subprocess
import sys


def run(binary, *args):
    p = subprocess.run([binary, "--db", ":memory:", *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"rematscope {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def gib(b):
    return f"{b / 2**30:.3f} GiB" if b >= 2**30 else f"{b / 2**20:.1f} MiB"


def gflop(f):
    return f"{f / 1e9:+.1f} GFLOP"


def plans(binary, routines, budgets, cap):
    print("| routine | budget | two-round total | two-round added | within | frontier total | frontier added "
          "| within | remat flips | scorings | seconds |")
    print("|---|---|---:|---:|---|---:|---:|---|---:|---:|---:|")
    for r in routines:
        for b in budgets:
            d = run(binary, "fit", r, "--budget", b, "--planner", "frontier", "--json", "--max-candidates", cap)
            f, bc = d["frontier"], d["baseline"]["compute"]
            remat = sum(1 for x in f["flips"] if x["kind"] == "remat")
            print(f"| {d['routine']} | {b} | {gib(d['final']['total'])} | {gflop(d['final']['compute'] - bc)} "
                  f"| {'yes' if d['within_budget'] else 'no'} | {gib(f['final']['total'])} "
                  f"| {gflop(f['final']['compute'] - bc)} | {'yes' if f['within_budget'] else 'no'} "
                  f"| {remat} of {len(f['flips'])} | {f['explored']} | {f['seconds']:.1f}"
                  f"{' (stopped)' if f['stopped'] else ''} |", flush=True)


def policies(binary, pairs):
    print("| step | policy | policy total | policy added | frontier total | frontier added | ratio | within | seconds |")
    print("|---|---|---:|---:|---:|---:|---:|---|---:|")
    for plain, policy in pairs:
        p0 = run(binary, "score", plain, "--json")["footprint"]
        p1 = run(binary, "score", policy, "--json")["footprint"]
        added = p1["compute"] - p0["compute"]
        d = run(binary, "fit", plain, "--budget", str(p1["total"]), "--planner", "frontier", "--json",
                "--max-candidates", "all")
        f = d["frontier"]
        fa = f["final"]["compute"] - d["baseline"]["compute"]
        ratio = f"{fa / added:.2f}" if added > 0 else "-"
        print(f"| {plain} | {policy} | {gib(p1['total'])} | {gflop(added)} | {gib(f['final']['total'])} "
              f"| {gflop(fa)} | {ratio} | {'yes' if f['within_budget'] else 'no'} | {f['seconds']:.1f} |", flush=True)


def main(argv):
    binary, rest = argv[1], argv[2:]
    budgets, cap, routines, pairs = ["80%", "60%", "40%", "minimize"], "all", [], []
    while rest:
        a = rest.pop(0)
        if a == "--budgets":
            budgets = rest.pop(0).split(",")
        elif a == "--cap":
            cap = rest.pop(0)
        elif a == "--policy":
            pairs.append((rest.pop(0), rest.pop(0)))
        else:
            routines.append(a)
    if routines:
        plans(binary, routines, budgets, cap)
    if pairs:
        policies(binary, pairs)


if __name__ == "__main__":
    main(sys.argv)
