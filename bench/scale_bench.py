#!/usr/bin/env python3
"""Scale benchmark (issue 19): `score --json` and `fit --budget 60%` of
generated chains of 10k, 100k and 1M steps (`gen chain`, written to a
temporary folder), with wall time, CPU time, peak RSS, bytes of RSS per step
and the ratio to the goal: under 300 MiB for `score` of 1M steps.

usage: bench/scale_bench.py REMATSCOPE [MAX_LAYERS]
"""
import os
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1]
MAX_LAYERS = int(sys.argv[2]) if len(sys.argv) > 2 else 499999
GOAL_MIB = 300

MEASURE = """
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stderr.write("\\nRSS_KIB=%d CPU=%.3f\\n" % (u.ru_maxrss, u.ru_utime + u.ru_stime))
sys.exit(p.returncode)
"""


def measure(*args):
    """(wall s, cpu s, peak RSS KiB) of one run, measured in a child
    interpreter so its RSS is the command's alone."""
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", MEASURE, BIN, *args], stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(args), p.stderr))
    line = [l for l in p.stderr.splitlines() if l.startswith("RSS_KIB=")][-1]
    kv = dict(f.split("=") for f in line.split())
    return wall, float(kv["CPU"]), int(kv["RSS_KIB"])


def main():
    print("%-9s %10s %-14s %8s %8s %10s %10s" % ("steps", "file", "command", "wall s", "CPU s", "peak RSS", "B/step"))
    with tempfile.TemporaryDirectory() as d:
        layers = 4999
        while layers <= MAX_LAYERS:
            path = os.path.join(d, "chain_%d.routine" % layers)
            subprocess.run([BIN, "gen", "chain", "--layers", str(layers), "-o", path], check=True,
                           stdout=subprocess.DEVNULL)
            steps = 2 * layers + 2
            size = os.path.getsize(path)
            for name, args in (("score --json", ["score", path, "--json"]),
                               ("fit 60%", ["fit", path, "--budget", "60%"])):
                if name.startswith("fit") and layers > 49999:
                    continue  # a fit of a million steps runs for minutes; the score is the goal
                wall, cpu, rss = measure(*args)
                note = ""
                if name.startswith("score") and layers == 499999:
                    note = "  goal < %d MiB: %.2fx of it" % (GOAL_MIB, rss / 1024 / GOAL_MIB)
                print("%-9d %8.1f MB %-14s %8.2f %8.2f %6.0f MiB %10.0f%s" %
                      (steps, size / 1e6, name, wall, cpu, rss / 1024, rss * 1024 / steps, note))
            layers = layers * 10 + 9


if __name__ == "__main__":
    main()
