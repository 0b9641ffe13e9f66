#!/usr/bin/env python3
"""Real JAX steps end to end (DESIGN §10 as revised): every dump in
BENCH/jax loads as after.hlo, after_as_text.hlo and before.hlo; on the GPU
steps the live peak is XLA's own peak (record.json) within 1 %; after.hlo
and its as_text() twin give the same footprint; an --xla_dump_to folder
imports its module and says what it skipped; XLA's figure is kept and shown;
flips name the user's train_step.py lines and functions.

usage: jax_test.py REMATSCOPE BENCH_DIR
"""
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, test  # noqa: E402

BIN, BENCH = sys.argv[1], sys.argv[2]
JAX = os.path.join(BENCH, "jax")
TMP = tempfile.mkdtemp(prefix="rs_jax_")
STEPS = sorted(d for d in os.listdir(JAX) if os.path.isfile(os.path.join(JAX, d, "record.json")))


def run(*args):
    e = dict(os.environ)
    e["XDG_DATA_HOME"] = TMP
    e["XDG_CONFIG_HOME"] = TMP
    p = subprocess.run([BIN, *args], capture_output=True, text=True, env=e, timeout=1200)
    return p.returncode, p.stdout, p.stderr


def score_json(path):
    rc, out, err = run("score", path, "--json", "--db", ":memory:")
    check(rc == 0, f"{path}: {err}")
    return json.loads(out)


def record(step):
    with open(os.path.join(JAX, step, "record.json")) as f:
        return json.load(f)


@test
def every_dump_loads_and_matches_xla():
    """The three files of each step load; on a GPU step the live peak is
    within 1 % of XLA's peak_memory_in_bytes, and the as_text() twin agrees
    with the dump to the byte (the footprint's five keys)."""
    check(len(STEPS) >= 6, STEPS)
    for step in STEPS:
        xla = record(step)["memory_analysis"]["peak_memory_in_bytes"]
        gpu = record(step)["device"].startswith("cuda")
        fps = {}
        for name in ("after.hlo", "after_as_text.hlo", "before.hlo"):
            path = os.path.join(JAX, step, name)
            if os.path.isfile(path):
                fps[name] = score_json(path)["footprint"]
        check("after.hlo" in fps and "before.hlo" in fps, (step, fps.keys()))
        if "after_as_text.hlo" in fps:
            check(fps["after.hlo"] == fps["after_as_text.hlo"], (step, fps))
        if gpu:
            lp = fps["after.hlo"]["live_peak"]
            check(abs(lp - xla) <= 0.01 * xla, (step, lp, xla))


@test
def library_calls_are_candidates_with_their_flops():
    """llama_bf16's matrix products are cuBLAS calls: flip candidates (pure),
    and the step's compute is the pre-optimization dump's within 1 %."""
    j = score_json(os.path.join(JAX, "llama_bf16", "after.hlo"))
    before = score_json(os.path.join(JAX, "llama_bf16", "before.hlo"))["footprint"]["compute"]
    check(abs(j["footprint"]["compute"] - before) <= 0.01 * before, (j["footprint"]["compute"], before))
    cands = {c["node"] for c in j["candidates"]}
    gemms = [b["node"] for b in j["buffers"] if b["hlo"].startswith("custom-call") and not b["node"].endswith(".scratch")]
    check(gemms and all(g in cands for g in gemms), gemms[:5])
    scratch = [b for b in j["buffers"] if b["node"].endswith(".scratch")]
    check(scratch and all(b["end"] - b["start"] == 1 for b in scratch), scratch[:3])


@test
def sources_name_the_users_lines():
    """At least 90 % of the flip candidates of the unrolled Llama step carry a
    train_step.py line; a fit's by-origin names train_step.py lines with their
    functions."""
    j = score_json(os.path.join(JAX, "llama_bf16", "after.hlo"))
    cands = [c for c in j["candidates"] if c["direction"] == "Inline"]
    py = [c for c in cands if c["source"].startswith("train_step.py:")]
    check(len(py) >= 0.9 * len(cands), (len(py), len(cands)))
    rc, out, err = run("fit", os.path.join(JAX, "llama_bf16", "after.hlo"), "--budget", "4GB", "--max-candidates",
                       "all", "--json", "--db", ":memory:")
    check(rc == 0, err)
    f = json.loads(out)
    check(f["within_budget"], f["final"])
    origins = f["by_origin"]
    check(origins and origins[0]["origin"].startswith("train_step.py:") and origins[0].get("function"), origins[:3])
    # the text says the function beside the line
    rc, out, err = run("fit", os.path.join(JAX, "llama_bf16", "after.hlo"), "--budget", "4GB", "--max-candidates",
                       "all", "--db", ":memory:")
    check(rc == 0, err)
    check(any(l.strip().endswith(")") and "train_step.py:" in l for l in out.split("flips by origin")[1].splitlines()),
          out[-2000:])


@test
def a_module_before_xlas_passes_says_so():
    """Walk finding: score on before.hlo (what .lower().as_text() gives)
    read 9.28 GiB, 1.6x XLA's peak, with no word that it is XLA's input.
    A module without is_scheduled=true says it is before XLA's passes (text
    and --json); the module XLA runs says nothing of the kind."""
    before = os.path.join(JAX, "llama_bf16", "before.hlo")
    rc, out, err = run("score", before, "--db", ":memory:")
    check(rc == 0, err)
    check("\nstage      before XLA's passes (the module is not scheduled): XLA fuses, reorders and reuses buffers "
          "after them" in out, out[:600])
    check("footprint  total 9.28 GiB (9966600365 B)" in out, out[:600])
    rc, out, err = run("score", before, "--db", ":memory:", "--json")
    check(json.loads(out)["after_xla_passes"] is False, out[:300])
    after = os.path.join(JAX, "llama_bf16", "after.hlo")
    rc, out, err = run("score", after, "--db", ":memory:")
    check(rc == 0 and "stage " not in out, out[:600])
    rc, out, err = run("score", after, "--db", ":memory:", "--json")
    check(json.loads(out)["after_xla_passes"] is True, out[:300])


@test
def dump_folder_imports_its_module():
    """A folder laid out as --xla_dump_to writes it: the module after XLA's
    passes is imported (not the one before), what else it holds is said, and
    XLA's figure from the memory-usage report beside it is kept and shown."""
    d = os.path.join(TMP, "dump")
    os.makedirs(d)
    src = os.path.join(JAX, "cnn")
    stem = "module_0001.jit_step.sm_9.0a_gpu_after_optimizations"
    shutil.copy(os.path.join(src, "after.hlo"), os.path.join(d, stem + ".txt"))
    shutil.copy(os.path.join(src, "memory-usage-report.txt"), os.path.join(d, stem + "-memory-usage-report.txt"))
    shutil.copy(os.path.join(src, "buffer-assignment.txt"), os.path.join(d, stem + "-buffer-assignment.txt"))
    shutil.copy(os.path.join(src, "before.hlo"), os.path.join(d, "module_0001.jit_step.before_optimizations.txt"))
    with open(os.path.join(d, "module_0001.jit_step.sm_9.0a_gpu_after_optimizations.ptx"), "w") as f:
        f.write("// ptx\n")
    db = os.path.join(TMP, "dump.db")
    rc, out, err = run("--db", db, "import", d + "/")
    check(rc == 0, err)
    check(f"{d}/{stem}.txt: routine jit_step, version 1" in out, out)
    # the report beside the module is read for XLA's figure: not among the skipped
    check("an XLA dump folder, 1 module after XLA's passes imported (1 with XLA's memory-usage report, read for its "
          "figure); skipped 3 files (1 before XLA's passes, 1 buffer assignment, 1 PTX)" in out, out)
    check("//" not in out.replace("// ", ""), out)
    rc, out, err = run("--db", db, "routines")
    check(rc == 0 and sum(l.startswith("jit_step ") for l in out.splitlines()) == 1, out)
    total = int(open(os.path.join(src, "memory-usage-report.txt")).read().split("Total bytes: ")[1].split()[0])
    rc, out, err = run("--db", db, "score", "jit_step")
    check(rc == 0, err)
    check(f"xla        XLA's allocation (its memory-usage report's Total bytes): 85.5 MiB ({total} B); this arena: "
          in out, out)
    # XLA's peak is not in the dump: the line says which of ours it compares with
    peak = json.loads(run("--db", db, "score", "jit_step", "--json")[1])["footprint"]["live_peak"]
    check(re.search(r"^ +XLA's peak: not in the dump \(compiled\.memory_analysis\(\)\.peak_memory_in_bytes\); hold it "
                    r"against this live peak: [0-9.]+ [KMG]iB \(%d B\)$" % peak, out, re.M), out)
    rc, out, err = run("--db", db, "score", "jit_step", "--json")
    check(json.loads(out)["xla_bytes"] == total, out[:300])
    # beside a file named after.hlo: the folder's memory-usage-report.txt
    rc, out, err = run("score", os.path.join(src, "after.hlo"), "--json", "--db", ":memory:")
    check(json.loads(out)["xla_bytes"] == total, out[:300])


finish()
