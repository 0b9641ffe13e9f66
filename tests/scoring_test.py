#!/usr/bin/env python3
"""Scoring end-to-end tests (issue 27): `--scoring full` (a check: every
scoring laid out from scratch) and the default incremental scorings print
byte-identical plans and traces (fit --json --events) on every sample, the
sample and bench HLO dumps and random routines; a sweep's plans are its
budgets' single fits; `--max-candidates all` keeps every candidate.

usage: scoring_test.py REMATSCOPE SAMPLES_DIR BENCH_DIR
"""
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, test  # noqa: E402

BIN, SAMPLES, BENCH = sys.argv[1], sys.argv[2], sys.argv[3]
TMP = tempfile.mkdtemp(prefix="rs_scoring_")


def run(*args):
    e = dict(os.environ)
    e["XDG_DATA_HOME"] = TMP
    e["XDG_CONFIG_HOME"] = TMP
    wrap = os.environ.get("RS_WRAP", "").split()
    p = subprocess.run([*wrap, BIN, *args, "--db", ":memory:"], capture_output=True, text=True, env=e, timeout=1200)
    if p.returncode == 99:
        raise AssertionError(f"valgrind found errors in {args}:\n{p.stderr[-3000:]}")
    return p.returncode, p.stdout, p.stderr


def routines():
    files = sorted(glob.glob(os.path.join(SAMPLES, "*.routine")) + glob.glob(os.path.join(SAMPLES, "hlo", "*.hlo")))
    files += sorted(glob.glob(os.path.join(BENCH, "hlo", "*.hlo")))
    return files


def both(path, *args):
    """fit --json --events with the incremental scorings and with --scoring full."""
    a = run("fit", path, *args, "--json", "--events")
    b = run("fit", path, *args, "--json", "--events", "--scoring", "full")
    return a, b


@test
def full_and_incremental_print_the_same():
    n = 0
    for path in routines():
        for args in (["--budget", "60%"], ["--budget", "minimize"], ["--budget", "85%", "--max-candidates", "all"],
                     ["--budget", "40%", "--max-candidates", "5", "--alignment", "64"]):
            (ra, oa, ea), (rb, ob, eb) = both(path, *args)
            check(ra == 0 and rb == 0, f"{path} {args}: {ea}{eb}")
            check(oa == ob, f"{path} {args}: the plans differ")
            j = json.loads(oa)
            check(j["events"][-1]["kind"] == "end", j["events"][-1])
            n += 1
    check(n >= 40, n)


def random_routine(seed):
    """A random routine: a chain with skips, reused intermediates, outputs
    and pinned nodes, sizes that make layouts tight."""
    rnd = random.Random(seed)
    lines = [f"routine r{seed}", "dtype f32", "input x [64]", "param w [32]"]
    names = ["x", "w"]
    for i in range(rnd.randint(8, 40)):
        k = rnd.randint(1, 3)
        args = ", ".join(rnd.choice(names[-6:]) for _ in range(k))
        flag = rnd.choice(["", "", "", "", " @output", " @pinned"])
        lines.append(f"n{i} = op{rnd.randint(0, 3)}({args}) [{rnd.choice([1, 8, 16, 64, 100, 256])}]{flag}")
        names.append(f"n{i}")
    lines[-1] = lines[-1].split(" @")[0] + " @output"
    path = os.path.join(TMP, f"random_{seed}.routine")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


@test
def random_routines_print_the_same():
    for seed in range(60):
        path = random_routine(seed)
        for budget in ("50%", "minimize"):
            (ra, oa, ea), (rb, ob, eb) = both(path, "--budget", budget, "--max-candidates", "all")
            check(ra == 0 and rb == 0, f"seed {seed}: {ea}{eb}")
            check(oa == ob, f"seed {seed} {budget}: the plans differ")


def without_counters(plan):
    plan = dict(plan)
    plan.pop("reuse", None)
    plan.pop("plan_id", None)
    return plan


@test
def sweep_plans_are_the_single_fits():
    cases = [(os.path.join(SAMPLES, "gen", "transformer_small.routine"), "90%,75%,60%,minimize", []),
             (os.path.join(SAMPLES, "pair_peak.routine"), "minimize,80%,100%", ["--max-candidates", "all"]),
             (os.path.join(SAMPLES, "gen", "resnet_small.routine"), "60%,40%,60%", ["--max-candidates", "3"]),
             (os.path.join(BENCH, "hlo", "bert_tiny_train_fwd_bwd.hlo"), "90%,75%,60%,minimize",
              ["--max-candidates", "all"])]
    for path, budgets, extra in cases:
        rc, out, err = run("sweep", path, "--budgets", budgets, *extra, "--json")
        check(rc == 0, err)
        sweep = json.loads(out)
        rc2, out2, err2 = run("sweep", path, "--budgets", budgets, *extra, "--json", "--scoring", "full")
        check(rc2 == 0 and out2 == out, f"{path}: sweep --scoring full differs")
        made = [p["reuse"]["reused"] + p["reuse"]["lowered"] for p in sweep["plans"]]
        check(made == sorted(made), made)  # the scorings made so far
        alone_total = 0
        for b, plan in zip(budgets.split(","), sweep["plans"]):
            rc, out, err = run("fit", path, "--budget", b, *extra, "--json")
            check(rc == 0, err)
            single = json.loads(out)
            check(without_counters(single) == without_counters(plan), f"{path} {b}: the sweep's plan differs")
            alone_total += single["reuse"]["reused"] + single["reuse"]["lowered"]
        # one search: no more scorings than the single fits together
        check(made[-1] <= alone_total, (made, alone_total))


@test
def max_candidates_all():
    path = os.path.join(BENCH, "hlo", "bert_tiny_train_fwd_bwd.hlo")
    rc, out, err = run("fit", path, "--budget", "60%", "--max-candidates", "all", "--json")
    check(rc == 0, err)
    j = json.loads(out)
    rc, out2, err = run("score", path, "--json")
    inline = [c for c in json.loads(out2)["candidates"] if c["direction"] == "Inline"]
    check(j["considered"] == len(inline) and j["dropped"] == 0, (j["considered"], len(inline)))
    rc, out, err = run("fit", path, "--budget", "60%", "--max-candidates", "all")
    check(rc == 0 and "candidate cap all" in out, out[:300])
    rc, out, err = run("sweep", path, "--budgets", "60%", "--max-candidates", "all", "--json")
    check(rc == 0 and json.loads(out)["plans"][0]["considered"] == len(inline), err)


@test
def bad_scoring_and_cap():
    rc, out, err = run("fit", os.path.join(SAMPLES, "mlp_step.routine"), "--budget", "60%", "--scoring", "fast")
    check(rc == 2 and err == "rematscope: --scoring: expected full or incremental, found 'fast'\n", err)
    rc, out, err = run("fit", os.path.join(SAMPLES, "mlp_step.routine"), "--budget", "60%", "--max-candidates", "most")
    check(rc == 2 and "--max-candidates" in err and len(err.splitlines()) == 1, err)
    rc, out, err = run("score", os.path.join(SAMPLES, "mlp_step.routine"), "--scoring", "full")
    check(rc == 2 and "option --scoring does not apply to 'score'" in err, err)
    rc, out, err = run("fit", os.path.join(SAMPLES, "mlp_step.routine"), "--budget", "60%", "--scoring", "incremental",
                       "--json")
    check(rc == 0 and json.loads(out)["routine"] == "mlp_step", err)


finish()
