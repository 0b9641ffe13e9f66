#!/usr/bin/env python3
"""What a JAX user tripped over (issue 43), from the command line: the line
that says when the candidate cap alone keeps a budget out of reach (fit,
sweep), budgets shown as typed with what they came to (fit, sweep, plans,
show), paths in messages without a doubled '/', sweep's time column with a
profile, and the profiles CSV's decimal mantissas.  The figures are worked
by hand in the comments, or read from `fit --json` of the same step.

usage: jax_user_test.py REMATSCOPE SAMPLES_DIR BENCH_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, test  # noqa: E402

BIN, SAMPLES, BENCH = sys.argv[1], sys.argv[2], sys.argv[3]
TMP = tempfile.mkdtemp(prefix="rs_jax_user_")
# a real JAX step (DESIGN §10): floor 2129472564 B, under the default cap of
# 32 (of 51 candidates) 2425203764 B, baseline 2496319546 B
LLAMA_SCAN = os.path.join(BENCH, "jax", "llama_scan", "after_as_text.hlo")
LLAMA = os.path.join(BENCH, "jax", "llama_bf16", "after.hlo")
MLP = os.path.join(SAMPLES, "mlp_step.routine")
CHAIN = os.path.join(SAMPLES, "gen", "chain_16.routine")


def run(*args, env=None):
    e = dict(os.environ, XDG_DATA_HOME=TMP, XDG_CONFIG_HOME=TMP)
    e.update(env or {})
    wrap = os.environ.get("RS_WRAP", "").split()
    p = subprocess.run([*wrap, BIN, *args], capture_output=True, text=True, env=e, timeout=600)
    if p.returncode == 99:
        raise AssertionError(f"valgrind found errors in {args}:\n{p.stderr[-3000:]}")
    return p.returncode, p.stdout, p.stderr


def write(name, text):
    path = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def units(v):
    """units_format_bytes: "512 B", "48.0 MiB", "2.00 GiB"."""
    if -1024 < v < 1024:
        return f"{v} B"
    d, k = float(v), -1
    while abs(d) >= 1024 and k < 5:
        d /= 1024
        k += 1
    unit = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"][k]
    return f"{d:.0f} {unit}" if abs(d) >= 100 else f"{d:.1f} {unit}" if abs(d) >= 10 else f"{d:.2f} {unit}"


@test
def a_flip_on_an_accumulated_node_says_it_changes_nothing():
    """Walk finding: the Llama step at 3GB (every candidate) lists flip 203,
    loop_broadcast_fusion, the 500 MiB f32 logits gradient, which is
    accumulated (+=): the virtualizer rejects it (DESIGN §2), and only the
    SVG said so.  fit says it under the flips, --json marks the flip."""
    rc, out, err = run("--db", ":memory:", "fit", LLAMA, "--budget", "3GB", "--max-candidates", "all")
    check(rc == 0, err)
    check("1 of the 212 flips is on an accumulated node (+=), which the virtualizer rejects (DESIGN §2): it stays a "
          "buffer and changes nothing: #203 loop_broadcast_fusion\n" in out, out[-2000:])
    rc, out, err = run("--db", ":memory:", "fit", LLAMA, "--budget", "3GB", "--max-candidates", "all", "--json")
    flips = json.loads(out)["flips"]
    check([(k + 1, f["node"], f["relief"]) for k, f in enumerate(flips) if f.get("accumulated")] ==
          [(203, "loop_broadcast_fusion", 0)], out[:300])


@test
def fit_says_when_the_cap_alone_keeps_the_budget_out_of_reach():
    """llama_bf16 (539 candidates) at 4GB: above the floor (970577940 B =
    926 MiB), below the floor under the cap of 32 (6142687252 B: the cap
    drops the products that hold the peak): the first line says so; at 0.9GB
    (below the floor itself) and at 6.2GB (above both) it says nothing, and
    --max-candidates all says nothing either."""
    if not os.path.exists(LLAMA):
        return
    rc, out, err = run("--db", ":memory:", "fit", LLAMA, "--budget", "4GB", "--json")
    j = json.loads(out)
    check(j["floor"]["bytes"] == 970577940 and j["floor_cap"]["bytes"] == 6142687252 and j["dropped"] == 507,
          (j["floor"], j.get("floor_cap"), j["dropped"]))
    rc, out, err = run("--db", ":memory:", "fit", LLAMA, "--budget", "4GB")
    check(rc == 0, err)
    lines = out.split("\n")
    check(lines[0] == "the cap of 32 keeps 4GB out of reach; every candidate reaches down to 926 MiB: "
                      "--max-candidates all", lines[:2])
    check(lines[1].startswith("fit jit_step: budget 4GB = 3.73 GiB (4000000000 B), candidate cap 32"), lines[1])
    for budget, extra in (("0.9GB", []), ("6.2GB", []), ("4GB", ["--max-candidates", "all"])):
        rc, out, err = run("--db", ":memory:", "fit", LLAMA, "--budget", budget, *extra)
        check(rc == 0 and "out of reach" not in out and out.startswith("fit jit_step"), (budget, out[:300]))


@test
def sweep_says_which_budgets_the_cap_keeps_out_of_reach():
    """One line before the table names the budgets between the two floors
    (4GB and 5GB; 0.9GB is below the floor, 6.2GB above the cap's)."""
    if not os.path.exists(LLAMA):
        return
    rc, out, err = run("--db", ":memory:", "sweep", LLAMA, "--budgets", "0.9GB,4GB,5GB,6.2GB")
    check(rc == 0, err)
    said = [l for l in out.split("\n") if "out of reach" in l]
    check(said == ["the cap of 32 keeps 4GB, 5GB out of reach; every candidate reaches down to 926 MiB: "
                   "--max-candidates all"], said)
    check(out.index("out of reach") < out.index("\nbudget "), out)
    # each row's budget as typed with what it came to: 5e9 / 2^30 = 4.657 GiB
    check(re.search(r"^5GB = 4\.66 GiB +\S+ GiB +\d+ ", out, re.M), out)


@test
def budgets_show_the_spec_typed_and_its_bytes():
    """9.5MB is 9500000 B = 9.0599 MiB, which "9.06 MiB" alone does not
    say: fit, plans and show say "9.5MB = 9.06 MiB"; 9MiB is exactly 9.00
    MiB and stays "9.00 MiB"; 60% of 9927172 B is 5956303 B = 5.68 MiB."""
    db = os.path.join(TMP, "typed.db")
    rc, out, err = run("--db", db, "fit", MLP, "--budget", "9.5MB", "--save")
    check(rc == 0 and out.startswith("fit mlp_step: budget 9.5MB = 9.06 MiB (9500000 B), candidate cap 32"),
          out[:200] + err)
    for b in ("9MiB", "60%"):
        check(run("--db", db, "fit", MLP, "--budget", b, "--save")[0] == 0, b)
    rc, out, err = run("--db", db, "plans")
    rows = {int(l.split()[0]): l for l in out.split("\n")[1:] if l.strip()}
    check(re.search(r" 9\.5MB = 9\.06 MiB +9\.47 MiB ", rows[1]), rows)
    check(re.search(r"v1 +9\.00 MiB +9\.47 MiB ", rows[2]), rows)
    check(re.search(r" 60% = 5\.68 MiB +9\.47 MiB ", rows[3]), rows)
    rc, out, err = run("--db", db, "show", "1")
    check(out.split("\n")[0] == "plan 1: mlp_step v1, budget 9.5MB = 9.06 MiB", out[:200])
    rc, out, err = run("--db", db, "show", "2")
    check(out.split("\n")[0] == "plan 2: mlp_step v1, budget 9.00 MiB", out[:200])


@test
def paths_in_messages_never_double_the_slash():
    """A folder typed with its '/' (and with '//' inside) names its files
    with one; the store under XDG_DATA_HOME=/x/ is /x/rematscope/..."""
    d = os.path.join(TMP, "dump")
    write("dump/sub/bad.routine", "not a routine\n")
    rc, out, err = run("--db", ":memory:", "import", d + "/")
    check(rc == 2 and f"{d}/sub/bad.routine:1:1:" in err and "//" not in err, err)
    rc, out, err = run("--db", ":memory:", "import", d + "//sub/")
    check(rc == 2 and f"{d}/sub/bad.routine:1:1:" in err and "//" not in err, err)
    data = os.path.join(TMP, "xdg") + "/"
    rc, out, err = run("fit", MLP, "--budget", "60%", "--save", env={"XDG_DATA_HOME": data})
    want = os.path.join(TMP, "xdg", "rematscope", "session.db")
    check(rc == 0 and f"saved as plan 1 in {want}\n" in out, out[-200:] + err)


@test
def sweep_has_a_time_column_with_a_profile():
    """chain_16 at minimize adds 8589934592 FLOPs (fit --json): on
    a100-80gb (312e12 FLOP/s) 27.53 us, as fit's recompute line says it;
    at 90% it adds 402653184 FLOPs, 1.29 us.  Without a profile, no column."""
    rc, out, err = run("--db", ":memory:", "fit", CHAIN, "--budget", "minimize", "--json")
    j = json.loads(out)
    added = j["final"]["compute"] - j["baseline"]["compute"]
    check(added == 8589934592, added)
    rc, out, err = run("--db", ":memory:", "fit", CHAIN, "--budget", "minimize", "--profile", "a100-80gb")
    check("about +27.5 us on a100-80gb" in out, out)
    rc, out, err = run("--db", ":memory:", "sweep", CHAIN, "--budgets", "90%,minimize", "--profile", "a100-80gb")
    check(rc == 0, err)
    lines = out.split("\n")
    head = next(l for l in lines if l.startswith("budget "))
    check(re.search(r"recompute +time within", head) and "time on a100-80gb" in lines[0], out)
    row = next(l for l in lines if l.startswith("minimize "))
    check(re.search(r"\+8\.59 GFLOPs +\+133\.331% +\+27\.5 us yes ", row), row)
    row = next(l for l in lines if l.startswith("90% = "))
    check(re.search(r"\+403 MFLOPs +\+6\.250% +\+1\.29 us yes ", row), row)
    rc, out, err = run("--db", ":memory:", "sweep", CHAIN, "--budgets", "90%,minimize")
    check(" time " not in out, out)


@test
def profiles_csv_takes_a_whole_decimal_mantissa():
    """15.7e12 is 15700000000000 FLOP/s; 1.5e0 is refused at its cell
    (line 2, column 9: "x,1,1,1," before it)."""
    db = os.path.join(TMP, "prof.db")
    good = write("good.csv", "name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s\n"
                             "orin,8589934592,256,6,15.7e12,68e9\n")
    rc, out, err = run("--db", db, "import", good)
    check(rc == 0, err)
    rc, out, err = run("--db", db, "fit", CHAIN, "--budget", "minimize", "--profile", "orin", "--json")
    j = json.loads(out)
    check(j["final"]["compute"] - j["baseline"]["compute"] == 6039797760, out[:300])
    rc, out, err = run("--db", db, "fit", CHAIN, "--budget", "minimize", "--profile", "orin")
    # orin's alignment 256 and depth 6 make another plan: 6039797760 / 15.7e12 s = 384.70 us
    check("about +385 us on orin" in out, out)
    bad = write("bad.csv", "name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s\n"
                           "x,1,1,1,1.5e0,1\n")
    rc, out, err = run("--db", db, "import", bad)
    check(rc == 2 and err.startswith(f"rematscope: {bad}:2:9: flops_per_s must be a whole number, found '1.5e0'"),
          err)


finish()
