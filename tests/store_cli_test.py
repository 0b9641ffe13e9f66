#!/usr/bin/env python3
"""Session-store end-to-end tests: import, listings, fit --save, show,
compare, export (read back with Python's csv), delete; each store failure
with its one-line message and exit status 3; and crash safety: SIGKILL
during an import or a sweep --save, then integrity_check and all-or-none.

usage: store_cli_test.py REMATSCOPE SAMPLES_DIR [CRASH_TRIALS]
"""
import csv
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, test  # noqa: E402
import time

BIN, SAMPLES = sys.argv[1], sys.argv[2]
TRIALS = int(sys.argv[3]) if len(sys.argv) > 3 else 20
TMP = tempfile.mkdtemp(prefix="rs_store_")


def run(*args, db=None, env=None):
    e = dict(os.environ, XDG_DATA_HOME=os.path.join(TMP, "xdg"), RS_BUSY_TIMEOUT_MS="300")
    e.update(env or {})
    cmd = [BIN, *args] + (["--db", db] if db else [])
    p = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=300)
    return p.returncode, p.stdout, p.stderr






def expect_fail(args, needle, status, db=None, env=None):
    rc, out, err = run(*args, db=db, env=env)
    check(rc == status, f"{args}: exit {rc}, want {status}; {err!r}")
    lines = err.strip().split("\n")
    check(len(lines) == 1 and lines[0].startswith("rematscope: ") and needle in lines[0], f"{needle!r} vs {err!r}")


@test
def default_location_and_import():
    rc, out, err = run("import", os.path.join(SAMPLES, "mlp_step.routine"), os.path.join(SAMPLES, "profiles.csv"))
    check(rc == 0, err)
    check(os.path.exists(os.path.join(TMP, "xdg", "rematscope", "session.db")), "XDG_DATA_HOME/rematscope/session.db")
    check("routine mlp_step, version 1 (15 steps)" in out and "7 profiles" in out, out)
    rc, out, err = run("import", os.path.join(SAMPLES, "mlp_step.routine"))
    check("unchanged" in out, out)  # the same text: a no-op
    e = dict(os.environ)
    e.pop("XDG_DATA_HOME", None)
    home = os.path.join(TMP, "home")
    os.makedirs(home)
    e["HOME"] = home
    p = subprocess.run([BIN, "routines"], capture_output=True, text=True, env=e)
    check(p.returncode == 0 and os.path.exists(os.path.join(home, ".local/share/rematscope/session.db")), p.stderr)


@test
def import_is_all_or_nothing():
    db = os.path.join(TMP, "aon.db")
    bad = os.path.join(TMP, "bad.routine")
    with open(bad, "w") as f:
        f.write("routine bad\ninput x [4]\ny = f(nope) [4]\n")
    expect_fail(["import", os.path.join(SAMPLES, "pair_peak.routine"), bad], f"{bad}:3:7: unknown name 'nope'", 2, db=db)
    rc, out, err = run("routines", "--json", db=db)
    check(rc == 0 and json.loads(out) == [], out)
    badp = os.path.join(TMP, "badprof.csv")
    with open(badp, "w") as f:
        f.write("name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s,colour\n")
    expect_fail(["import", badp], "unknown column 'colour'", 2, db=db)
    # a changed text is a new version of the same name
    v1 = os.path.join(TMP, "v.routine")
    with open(v1, "w") as f:
        f.write("routine v\ninput x [4]\n")
    run("import", v1, db=db)
    with open(v1, "w") as f:
        f.write("routine v\ninput x [8]\n")
    rc, out, err = run("import", v1, db=db)
    check("routine v, version 2" in out, out)
    rc, out, err = run("score", "v", "--json", db=db)  # a routine named from the store: the latest
    check(rc == 0 and json.loads(out)["buffers"][0]["bytes"] == 32, out + err)


@test
def import_folder_with_symlink_loop():
    db = os.path.join(TMP, "dir.db")
    d = os.path.join(TMP, "tree")
    os.makedirs(os.path.join(d, "sub"))
    with open(os.path.join(d, "sub", "a.routine"), "w") as f:
        f.write("routine a\ninput x [4]\n")
    os.symlink("..", os.path.join(d, "sub", "loop"))
    os.symlink("self", os.path.join(d, "self"))  # a dangling loop
    rc, out, err = run("import", d, db=db)
    check(rc == 0 and out.count("routine a, version 1") == 1, out + err)


@test
def save_show_compare_export_delete():
    db = os.path.join(TMP, "plans.db")
    run("import", SAMPLES, db=db)
    label = 'with, "quotes"\nand a newline'
    rc, out, err = run("fit", "harmful_hold", "--budget", "minimize", "--save", "--label", label, "--json", db=db)
    check(rc == 0, err)
    plan = json.loads(out)
    pid = plan["plan_id"]
    rc, out, err = run("fit", "pair_peak", "--budget", "50MiB", "--save", "--profile", "a100-80gb", db=db)
    check(rc == 0 and "saved as plan" in out, out + err)
    rc, out, err = run("sweep", "mlp_step", "--budgets", "9MiB,minimize", "--save", db=db)
    check(rc == 0 and "saved as plans" in out, out + err)
    rc, out, err = run("plans", "--json", db=db)
    plans = json.loads(out)
    check(len(plans) == 4 and plans[-1]["id"] == pid and plans[-1]["label"] == label, plans)
    rc, out, err = run("show", str(pid), "--json", db=db)
    shown = json.loads(out)
    for k in ("baseline", "final", "flips", "considered", "dropped", "within_budget", "reuse"):
        check(shown[k] == plan[k], (k, shown[k], plan[k]))
    rc, out, err = run("show", str(pid), "--events", db=db)
    check("held group {c1} discarded as harmful" in out, out)
    rc, out, err = run("compare", str(pid), str(pid + 1), db=db)
    check(rc == 0 and f"flips only in plan {pid}: P\n" in out and "with, \"quotes\"\\nand" in out, out)
    for what in ("plans", "flips", "events"):
        path = os.path.join(TMP, f"{what}.csv")
        rc, out, err = run("export", str(pid), str(pid + 1), "--what", what, "--output", path, db=db)
        check(rc == 0, err)
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        if what == "plans":
            check(rows[0]["label"] == label, rows[0]["label"])  # survives a spreadsheet round trip
            check(int(rows[0]["final_total"]) == plan["final"]["total"], rows[0])
            check(rows[1]["profile"] == "a100-80gb" and rows[1]["budget_bytes"] == str(50 << 20), rows[1])
        if what == "flips":
            mine = [r for r in rows if int(r["plan_id"]) == pid]
            check([(r["node"], int(r["relief"]), int(r["cost"])) for r in mine] ==
                  [(x["node"], x["relief"], x["cost"]) for x in plan["flips"]], mine)
        if what == "events":
            check(any("," in r["text"] for r in rows) and rows[0]["kind"] == "baseline", rows[0])
    path = os.path.join(TMP, "layout.csv")
    rc, out, err = run("export", str(pid), "--what", "layout", "--output", path, db=db)
    check(rc == 0, err)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    check(max(int(r["offset"]) + int(r["size"]) for r in rows) == plan["final"]["total"], rows)
    expect_fail(["export", str(pid), "--what", "layout"], "export needs --output", 2, db=db)
    expect_fail(["export", "999", "--what", "plans", "--output", path], "no plan 999", 2, db=db)
    rc, out, err = run("delete", str(pid), db=db)
    check(rc == 0, err)
    expect_fail(["show", str(pid)], f"no plan {pid}", 2, db=db)


@test
def store_failures_exit_3():
    txt = os.path.join(TMP, "notes.txt")
    with open(txt, "w") as f:
        f.write("these are my notes, not a database\n" * 50)
    expect_fail(["plans"], f"not a rematscope session store: {txt}", 3, db=txt)
    newer = os.path.join(TMP, "newer.db")
    run("routines", db=newer)
    con = sqlite3.connect(newer)
    con.execute("PRAGMA user_version = 42")
    con.close()
    expect_fail(["plans"], "made by a newer rematscope (schema 42); this one reads up to 2", 3, db=newer)
    locked = os.path.join(TMP, "locked.db")
    run("import", os.path.join(SAMPLES, "pair_peak.routine"), db=locked)
    holder = subprocess.Popen([sys.executable, "-c", f"""
import sqlite3, sys, time
con = sqlite3.connect({locked!r}, isolation_level=None)
con.execute('BEGIN EXCLUSIVE')
print('locked', flush=True)
time.sleep(30)
"""], stdout=subprocess.PIPE, text=True)
    try:
        check(holder.stdout.readline().strip() == "locked", "holder")
        expect_fail(["import", os.path.join(SAMPLES, "mlp_step.routine")],
                    f"the store is locked by process {holder.pid}", 3, db=locked)
    finally:
        holder.kill()
        holder.wait()
    full = os.path.join(TMP, "full.db")
    run("import", os.path.join(SAMPLES, "mlp_step.routine"), db=full)
    big = os.path.join(TMP, "big.routine")
    subprocess.run([BIN, "gen", "chain", "--layers", "20000", "-o", big], check=True)
    p = subprocess.run(f"ulimit -f 200; exec {BIN} import {big} --db {full}", shell=True, capture_output=True,
                       text=True)
    check(p.returncode == 3 and "the disk is full; nothing of it was saved" in p.stderr, (p.returncode, p.stderr))
    rc, out, err = run("routines", "--json", db=full)
    check(rc == 0 and [r["name"] for r in json.loads(out)] == ["mlp_step"], out + err)


def integrity(db):
    con = sqlite3.connect(db)
    ok = con.execute("PRAGMA integrity_check").fetchone()[0]
    fk = con.execute("PRAGMA foreign_key_check").fetchall()
    con.close()
    return ok == "ok" and not fk


@test
def crash_safety():
    random.seed(7)
    db = os.path.join(TMP, "crash.db")
    run("import", os.path.join(SAMPLES, "mlp_step.routine"), db=db)
    big = os.path.join(TMP, "crash_big.routine")
    subprocess.run([BIN, "gen", "chain", "--layers", "60000", "-o", big], check=True)
    with open(big) as f:
        big_text = f.read()
    sweep_routine = os.path.join(SAMPLES, "gen", "chain_256.routine")
    killed = 0
    for trial in range(TRIALS):
        if trial % 2 == 0:
            args = [BIN, "import", big, "--db", db]
        else:
            args = [BIN, "sweep", sweep_routine, "--budgets", "50%,minimize", "--save", "--db", db]
        p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(random.uniform(0.0, 0.5))
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            killed += 1
        p.wait()
        check(integrity(db), f"integrity after trial {trial}")
        con = sqlite3.connect(db)
        for name, source in con.execute("SELECT name, source FROM routines WHERE name LIKE 'chain_6%'"):
            check(source == big_text, "a routine is stored whole or not at all")
        for pid, nf, ne in con.execute("SELECT id, n_flips, n_events FROM plans"):
            f = con.execute("SELECT count(*) FROM flips WHERE plan_id = ?", (pid,)).fetchone()[0]
            e = con.execute("SELECT count(*) FROM events WHERE plan_id = ?", (pid,)).fetchone()[0]
            check((f, e) == (nf, ne), f"plan {pid}: {f}/{nf} flips, {e}/{ne} events")
        for sid, n in con.execute("SELECT id, n_plans FROM sweeps"):
            k = con.execute("SELECT count(*) FROM plans WHERE sweep_id = ?", (sid,)).fetchone()[0]
            check(k == n, f"sweep {sid}: {k} of {n} plans")
        con.close()
    print(f"  {TRIALS} trials, {killed} killed mid-way")


finish()
