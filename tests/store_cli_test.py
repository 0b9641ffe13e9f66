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
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, store_schema, test  # noqa: E402
import time

BIN, SAMPLES = sys.argv[1], sys.argv[2]
TRIALS = int(sys.argv[3]) if len(sys.argv) > 3 else 20
TMP = tempfile.mkdtemp(prefix="rs_store_")


def run(*args, db=None, env=None):
    e = dict(os.environ, XDG_DATA_HOME=os.path.join(TMP, "xdg"), RS_BUSY_TIMEOUT_MS="300",
             XDG_CONFIG_HOME=os.path.join(TMP, "xdg"))
    e.update(env or {})
    cmd = [BIN, *args] + (["--db", db] if db else [])
    p = subprocess.run(cmd, capture_output=True, text=True, env=e, timeout=300)
    return p.returncode, p.stdout, p.stderr






def expect_fail(args, needle, status, db=None, env=None):
    rc, out, err = run(*args, db=db, env=env)
    check(rc == status, f"{args}: exit {rc}, want {status}; {err!r}")
    lines = err.strip().split("\n")
    check(len(lines) == 1 and lines[0].startswith("rematscope: ") and needle in lines[0], f"{needle!r} vs {err!r}")


def expect_verified(db, n):
    """verify: one line per stored plan, every one ok, exit 0."""
    rc, out, err = run("verify", db=db)
    lines = out.strip().split("\n")
    check(rc == 0 and len(lines) == n and all(line.endswith(": ok") for line in lines), (rc, out, err))


# Before schema 8 each event spelled its group's members out; from 8 a plan
# keeps them once (group_members) and an event names its range.
SPELL_MEMBERS_OUT = (
    "UPDATE events SET members = coalesce((SELECT group_concat(node, ' ') FROM (SELECT node FROM group_members g "
    "WHERE g.plan_id = events.plan_id AND g.seq >= events.group_off AND g.seq < events.group_off + events.group_n "
    "ORDER BY g.seq)), '')")


def as_schema_9(con):
    """Makes the store behind con the one schema 9 wrote: no frontier plans."""
    con.execute("DROP TABLE frontiers")
    con.execute("DROP TABLE frontier_flips")


def as_schema_8(con):
    """Makes the store behind con the one schema 8 wrote: no XLA figure with a routine."""
    as_schema_9(con)
    con.execute("ALTER TABLE routines DROP COLUMN xla_bytes")


def as_schema_7(con):
    """Makes the store behind con the one schema 7 wrote: every event's members spelled out, no group_members."""
    as_schema_8(con)
    con.execute(SPELL_MEMBERS_OUT)
    con.execute("DROP TABLE group_members")
    con.execute("ALTER TABLE events DROP COLUMN group_off")
    con.execute("ALTER TABLE events DROP COLUMN group_n")


def as_schema_2(db):
    """Makes db the store schema 2 wrote: no routine kind, audit, gap, budget_spec or flip recompute columns."""
    con = sqlite3.connect(db)
    as_schema_7(con)
    con.execute("ALTER TABLE routines DROP COLUMN kind")
    for col in ("audit", "gap_kind", "gap_found", "gap_total", "gap_compute", "gap_flips", "gap_proved", "gap_explored",
                "budget_spec"):
        con.execute(f"ALTER TABLE plans DROP COLUMN {col}")
    con.execute("ALTER TABLE flips DROP COLUMN recompute")
    con.execute("PRAGMA user_version = 2")
    con.commit()
    con.close()


def tamper(db, sql):
    con = sqlite3.connect(db)
    con.execute(sql)
    con.commit()
    con.close()


@test
def default_location_and_import():
    rc, out, err = run("import", os.path.join(SAMPLES, "mlp_step.routine"), os.path.join(SAMPLES, "profiles.csv"))
    check(rc == 0, err)
    check(os.path.exists(os.path.join(TMP, "xdg", "rematscope", "session.db")), "XDG_DATA_HOME/rematscope/session.db")
    check("routine mlp_step, version 1 (15 steps)" in out and "9 profiles" in out, out)
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
    check(re.search(r"^context    M=1048576; alignment=1 max_inline_depth=\d+ aliasing=on layout=greedy", out, re.M), out)
    # an HLO routine binds nothing: its context starts with the config (it started "; alignment=")
    rc, out, err = run("fit", "jit_train_step", "--budget", "minimize", "--save", "--json", db=db)
    jit = json.loads(out)["plan_id"]
    rc, out, err = run("show", str(jit), db=db)
    check(re.search(r"^context    alignment=1 max_inline_depth=\d+ aliasing=on layout=greedy\n", out, re.M), out)
    run("delete", str(jit), db=db)
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
    expect_verified(db, 4)
    rc, out, err = run("delete", str(pid), db=db)
    check(rc == 0, err)
    expect_fail(["show", str(pid)], f"no plan {pid}", 2, db=db)


@test
def gap_saved_shown_exported_and_verified():
    db = os.path.join(TMP, "gap.db")
    rc, out, err = run("fit", os.path.join(SAMPLES, "pair_peak.routine"), "--budget", "minimize", "--exact",
                       "--save", "--json", db=db)
    check(rc == 0, err)
    plan = json.loads(out)
    ex = plan["exact"]
    check(ex["proved"] and ex["final"]["total"] <= plan["final"]["total"], ex)
    rc, out, err = run("fit", os.path.join(SAMPLES, "mlp_step.routine"), "--budget", "60%", "--improve",
                       "--save", "--json", db=db)
    check(rc == 0, err)
    imp = json.loads(out)["improved"]
    rc, out, err = run("show", str(plan["plan_id"]), "--json", db=db)
    gap = json.loads(out)["gap"]
    check(gap["kind"] == "exact" and gap["total"] == ex["final"]["total"] and gap["proved"] and
          gap["flips"] == ex["flips"], gap)
    path = os.path.join(TMP, "gap.csv")
    rc, out, err = run("export", str(plan["plan_id"]), str(plan["plan_id"] + 1), "--what", "plans",
                       "--output", path, db=db)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    check(rows[0]["gap_kind"] == "exact" and int(rows[0]["gap_total"]) == ex["final"]["total"] and
          rows[0]["gap_flips"] == " ".join(ex["flips"]), rows[0])
    check(rows[1]["gap_kind"] == "improved" and int(rows[1]["gap_compute"]) == imp["final"]["compute"], rows[1])
    # other layouts, a profile's alignment, context preferences: verified too
    for args in (["gen/unet_small.routine", "--budget", "minimize", "--layout", "timeline"],
                 ["gen/resnet_small.routine", "--budget", "70%", "--layout", "tight", "--profile", "a100-80gb"],
                 ["mlp_step.routine", "--budget", "minimize", "--inline", "h", "--profile", "a100-80gb"]):
        rc, out, err = run("fit", os.path.join(SAMPLES, args[0]), *args[1:], "--save", db=db)
        check(rc == 0, err)
    expect_verified(db, 5)


@test
def verify_names_what_was_altered():
    db = os.path.join(TMP, "tampered.db")
    rc, out, err = run("fit", os.path.join(SAMPLES, "harmful_hold.routine"), "--budget", "minimize", "--save",
                       "--json", db=db)
    check(rc == 0, err)
    plan = json.loads(out)
    first = plan["flips"][0]
    run("fit", os.path.join(SAMPLES, "pair_peak.routine"), "--budget", "minimize", "--save", db=db)
    expect_verified(db, 2)
    tamper(db, "UPDATE flips SET relief = relief + 1 WHERE plan_id = 1 AND seq = 0")
    rc, out, err = run("verify", db=db)
    lines = out.strip().split("\n")
    check(rc == 1 and len(lines) == 2 and lines[1] == "plan 2: ok", (rc, out, err))
    check(lines[0].startswith("plan 1: DIFFERS: ") and
          f"relief of flip 1 ({first['node']}): stored {first['relief'] + 1}, rebuilt {first['relief']}" in lines[0]
          and "relief sum" in lines[0], lines[0])
    tamper(db, "UPDATE flips SET relief = relief - 1 WHERE plan_id = 1 AND seq = 0")
    tamper(db, "UPDATE plans SET within_budget = 0, final_live_peak = final_live_peak + 8 WHERE id = 2")
    rc, out, err = run("verify", "2", db=db)
    check(rc == 1 and "within_budget: stored 0, rebuilt 1" in out and "final.live_peak" in out, out + err)
    rc, out, err = run("verify", "1", db=db)
    check(rc == 0 and out == "plan 1: ok\n", out + err)
    expect_fail(["verify", "9"], "no plan 9", 2, db=db)


@test
def budget_kept_as_asked():
    """A share of the baseline or the device is kept as it was asked for,
    beside the bytes it came to: in plans, show, --json, the plans CSV; verify
    resolves it again against the rebuilt baseline.  mlp_step's baseline is
    9.47 MiB (9927172 B): 70% is 6949020 B (rounded down), 60% 5956303 B."""
    db = os.path.join(TMP, "asked.db")
    mlp = os.path.join(SAMPLES, "mlp_step.routine")
    rc, out, err = run("sweep", mlp, "--budgets", "70%, 9MiB,minimize", "--save", db=db)
    check(rc == 0 and re.search(r"^70% = 6\.63 MiB +", out, re.M) and re.search(r"^9\.00 MiB +", out, re.M), out + err)
    rc, out, err = run("fit", mlp, "--budget", "device", "--profile", "a100-80gb", "--save", db=db)
    check(rc == 0, err)
    rc, out, err = run("plans", db=db)
    check(re.search(r"mlp_step v1 +70% = 6\.63 MiB ", out) and re.search(r"mlp_step v1 +9\.00 MiB ", out) and
          re.search(r"mlp_step v1 +device = 80\.0 GiB ", out) and re.search(r"mlp_step v1 +minimize ", out), out)
    rc, out, err = run("show", "1", db=db)
    check("budget 70% = 6.63 MiB" in out, out)
    plans = {p["id"]: p for p in json.loads(run("plans", "--json", db=db)[1])}
    check(plans[1]["budget_spec"] == "70%" and plans[1]["budget_bytes"] == 6949020, plans[1])
    check(plans[2]["budget_spec"] == "9MiB" and plans[4]["budget_spec"] == "device", plans)
    check(json.loads(run("show", "1", "--json", db=db)[1])["budget"] == {"kind": "bytes", "bytes": 6949020,
                                                                         "spec": "70%"}, "show --json")
    path = os.path.join(TMP, "asked.csv")
    rc, out, err = run("export", "1", "2", "3", "--what", "plans", "--output", path, db=db)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    check([(r["budget_spec"], r["budget_bytes"]) for r in rows] == [("70%", "6949020"), ("9MiB", str(9 << 20)),
                                                                   ("minimize", "")], rows)
    expect_verified(db, 4)
    tamper(db, "UPDATE plans SET budget_spec = '60%' WHERE id = 1")
    rc, out, err = run("verify", "1", db=db)
    check(rc == 1 and "budget_bytes: stored 6949020, rebuilt 5956303" in out, out + err)


@test
def verify_after_a_schema_migration():
    db = os.path.join(TMP, "old.db")
    run("sweep", os.path.join(SAMPLES, "mlp_step.routine"), "--budgets", "70%,minimize", "--save", db=db)
    run("fit", os.path.join(SAMPLES, "negative_relief.routine"), "--budget", "minimize", "--save", db=db)
    # an HLO text stored before routines had a kind (a leading blank line, as a dump may have)
    hlo = os.path.join(TMP, "conv_block_blank.hlo")
    with open(os.path.join(SAMPLES, "hlo", "conv_block.hlo")) as f, open(hlo, "w") as g:
        g.write("\n" + f.read())
    run("import", hlo, db=db)
    as_schema_2(db)
    expect_verified(db, 3)  # opening migrates it
    con = sqlite3.connect(db)
    check(con.execute("PRAGMA user_version").fetchone()[0] >= 3, "migrated")
    check(con.execute("SELECT count(*) FROM plans WHERE gap_kind IS NULL").fetchone()[0] == 3, "no gap yet")
    check(con.execute("PRAGMA user_version").fetchone()[0] == store_schema(), "migrated to the current schema")
    check(con.execute("SELECT count(*) FROM flips WHERE recompute IS NULL").fetchone()[0] > 0, "no recompute kept")
    check(con.execute("SELECT count(*) FROM plans WHERE budget_spec IS NULL").fetchone()[0] == 3, "no spec kept")
    kinds = dict(con.execute("SELECT name, kind FROM routines").fetchall())
    check(kinds == {"mlp_step": "routine", "negative_relief": "routine", "jit_conv_block": "hlo"}, kinds)
    con.close()
    rc, out, err = run("routines", db=db)
    check(rc == 0 and re.search(r"jit_conv_block +1 +hlo ", out) and re.search(r"mlp_step +1 +routine ", out), out)


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
    expect_fail(["plans"], "made by a newer rematscope (schema 42); this one reads up to ", 3, db=newer)
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
    rc, out, err = run("verify", db=db)  # every plan that survived is whole and right
    check(rc == 0 and "DIFFERS" not in out, out + err)


@test
def recompute_per_flip_across_the_schema_7_migration():
    """Flips keep the compute each added (DESIGN §13, schema 7).  A store of
    schema 6 migrates: its plans' flips have none (show says '-', JSON null,
    an empty CSV cell) and still verify; a plan saved after has them, and
    verify checks them: a tampered one differs."""
    db = os.path.join(TMP, "v6.db")
    rc, out, err = run("fit", os.path.join(SAMPLES, "negative_relief.routine"), "--budget", "minimize", "--save", db=db)
    check(rc == 0, err)
    con = sqlite3.connect(db)
    as_schema_7(con)
    con.execute("ALTER TABLE flips DROP COLUMN recompute")
    con.execute("PRAGMA user_version = 6")
    con.commit()
    con.close()
    rc, out, err = run("show", "1", "--json", db=db)
    check(rc == 0, err)
    j = json.loads(out)
    check(j["flips"] and all(f["recompute"] is None and f["pays"] is None for f in j["flips"]), j["flips"])
    check(all(g["recompute"] is None for g in j["by_origin"]), j["by_origin"])
    con = sqlite3.connect(db)
    check(con.execute("PRAGMA user_version").fetchone()[0] == store_schema(), "migrated to the current schema")
    con.close()
    rc, out, err = run("show", "1", db=db)
    check(re.search(r"\n +1  \S+ +.* +- +\n", out), out)
    path = os.path.join(TMP, "v6_flips.csv")
    rc, out, err = run("export", "1", "--what", "flips", "--output", path, db=db)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    check(rows and all(r["recompute"] == "" for r in rows), rows)
    rc, out, err = run("fit", os.path.join(SAMPLES, "gen", "transformer_small.routine"), "--budget", "minimize", "--save",
                       "--json", db=db)
    check(rc == 0, err)
    fitted = json.loads(out)
    rc, out, err = run("show", "2", "--json", db=db)
    shown = json.loads(out)
    check([f["recompute"] for f in shown["flips"]] == [f["recompute"] for f in fitted["flips"]], (shown, fitted))
    check(any(f["recompute"] > 0 for f in shown["flips"]), shown["flips"])
    check(sum(f["recompute"] for f in shown["flips"]) == shown["final"]["compute"] - shown["baseline"]["compute"],
          shown)
    expect_verified(db, 2)
    tamper(db, "UPDATE flips SET recompute = recompute + 7 WHERE plan_id = 2 AND seq = 0")
    rc, out, err = run("verify", "2", db=db)
    check(rc == 1 and "recompute of flip 1" in out and "recompute sum" in out, out + err)


@test
def export_guards_the_store_and_special_files():
    db = os.path.join(TMP, "guard.db")
    run("import", os.path.join(SAMPLES, "harmful_hold.routine"), db=db)
    rc, out, err = run("fit", "harmful_hold", "--budget", "minimize", "--save", db=db)
    check(rc == 0, err)
    link = os.path.join(TMP, "guard-link.csv")
    os.symlink(db, link)
    for target in (db, link):  # the store under its own name or another
        expect_fail(["export", "1", "--what", "plans", "--output", target], "this is the session store", 2, db=db)
    expect_fail(["export", "1", "--what", "plans", "--output", db + "-wal"], "write-ahead log", 2, db=db)
    # every command that writes a file by name keeps off the store
    mm = os.path.join(TMP, "guard-mm.csv")
    with open(mm, "w") as f:
        f.write("id,lower,upper,size\n0,0,4,5\n")
    expect_fail(["layout", mm, "--output", link], "writing the solution there would destroy it", 2, db=db)
    expect_fail(["layout", mm, "--svg", db], "writing the picture there would destroy it", 2, db=db)
    expect_fail(["gen", "chain", "--layers", "2", "-o", db + "-wal"], "write-ahead log", 2, db=db)
    expect_fail(["convert", os.path.join(SAMPLES, "hlo", "fused_mlp.hlo"), "-o", link], "this is the session store",
                2, db=db)
    rc, out, err = run("plans", "--json", db=db)
    check(rc == 0 and len(json.loads(out)) == 1, out + err)
    # a FIFO stays a FIFO and its reader gets the CSV
    fifo = os.path.join(TMP, "guard.fifo")
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", fifo], stdout=subprocess.PIPE)
    rc, out, err = run("export", "1", "--what", "flips", "--output", fifo, db=db)
    got = reader.communicate(timeout=30)[0].decode()
    check(rc == 0 and got.startswith("plan_id,seq,node,relief,cost,recompute,hlo,op_name,source,function\n1,0,"), (rc, err, got[:80]))
    check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced")
    # a device node stays one, and a full device is an error
    dev = os.path.join(TMP, "full.dev")
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    except OSError:
        dev = "/dev/full"
    expect_fail(["export", "1", "--what", "events", "--output", dev], "No space left on device", 2, db=db)
    check(stat.S_ISCHR(os.lstat(dev).st_mode), f"{dev} is no longer a device")
    rc, out, err = run("export", "1", "--what", "plans", "--output", "/dev/stdout", db=db)
    check(rc == 0 and out.startswith("plan_id,label,") and stat.S_ISLNK(os.lstat("/dev/stdout").st_mode), out + err)


@test
def interrupted_exports_leave_no_temporaries():
    db = os.path.join(TMP, "interrupt.db")
    rc, out, err = run("fit", os.path.join(SAMPLES, "gen", "chain_256.routine"), "--budget", "minimize", "--save", db=db)
    check(rc == 0, err)
    folder = os.path.join(TMP, "exports")
    os.makedirs(folder)
    out_csv = os.path.join(folder, "out.csv")
    # a leftover of a process that is gone goes on the next export; a live one's stays
    dead = 4194304 + 7  # above pid_max: no such process
    stale, live = f"{out_csv}.tmp{dead}", f"{out_csv}.tmp{os.getpid()}"
    for p in (stale, live):
        with open(p, "w") as f:
            f.write("half an export")
        os.utime(p, (time.time() - 60, time.time() - 60))
    rc, out, err = run("export", "1", "--what", "flips", "--output", out_csv, db=db)
    check(rc == 0 and not os.path.exists(stale) and os.path.exists(live), (err, os.listdir(folder)))
    os.unlink(live)
    e = dict(os.environ, XDG_DATA_HOME=os.path.join(TMP, "xdg"))
    interrupted = 0
    for trial in range(12):
        sig = (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)[trial % 3]
        p = subprocess.Popen([BIN, "export", *(["1"] * 60), "--what", "events", "--output", out_csv, "--db", db],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=e)
        time.sleep(random.uniform(0.1, 0.4))
        if p.poll() is None:
            p.send_signal(sig)
        rc = p.wait()
        interrupted += rc < 0
        left = [n for n in os.listdir(folder) if n.endswith(f".tmp{p.pid}")]  # a SIGKILL's stays until the next
        check(sig == signal.SIGKILL or not left, f"{sig.name} left {left}")
    rc, out, err = run("export", "1", "--what", "flips", "--output", out_csv, db=db)
    check(rc == 0 and os.listdir(folder) == ["out.csv"], os.listdir(folder))
    print(f"  12 exports, {interrupted} interrupted")


@test
def export_defuses_spreadsheet_formulas():
    db = os.path.join(TMP, "formula.db")
    labels = ['=HYPERLINK("http://evil","click")', "+cmd|' /c calc'!A0", "@SUM(1,2)", "-2+3", "\tx", "plain"]
    for label in labels:
        rc, out, err = run("fit", os.path.join(SAMPLES, "harmful_hold.routine"), "--budget", "minimize", "--save",
                           "--label", label, db=db)
        check(rc == 0, err)
    ids = [str(i) for i in range(1, len(labels) + 1)]
    path = os.path.join(TMP, "formula.csv")
    for raw in (False, True):
        rc, out, err = run("export", *ids, "--what", "plans", "--output", path, *(["--raw"] if raw else []), db=db)
        check(rc == 0, err)
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        want = labels if raw else ["'" + x for x in labels[:-1]] + ["plain"]
        check([r["label"] for r in rows] == want, [r["label"] for r in rows])
        check(all(r["budget_kind"] == "minimize" and int(r["baseline_total"]) > 0 for r in rows), rows[0])
    expect_fail(["plans", "--raw"], "option --raw does not apply to 'plans'", 2, db=db)
    # text from the model itself: an HLO op_name, in the flips, events and
    # layout files' source column, and a profile's name
    hlo = os.path.join(TMP, "formula.hlo")
    with open(hlo, "w") as f:
        f.write('HloModule m\nENTRY %e {\n  %a = f32[1024] parameter(0)\n'
                '  %b = f32[1024] negate(%a), metadata={op_name="=HYPERLINK(1)" source_file="x.py" source_line=3}\n'
                '  ROOT %c = f32[1024] add(%b, %a)\n}\n')
    profiles = os.path.join(TMP, "formula_profiles.csv")
    with open(profiles, "w") as f:
        f.write("name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s\n@evil,1073741824,1,8,1e12,1e11\n")
    run("import", profiles, db=db)
    rc, out, err = run("fit", hlo, "--budget", "1GiB", "--profile", "@evil", "--save", "--json", db=db)
    check(rc == 0, err)
    pid = str(json.loads(out)["plan_id"])
    for raw in (False, True):
        extra = ["--raw"] if raw else []
        q = "" if raw else "'"
        run("export", pid, "--what", "layout", "--output", path, *extra, db=db)
        with open(path, newline="") as f:
            row = {r["id"]: r for r in csv.DictReader(f)}["b"]
        check(row["op_name"] == q + "=HYPERLINK(1)" and row["source"] == "x.py:3", row)
        run("export", pid, "--what", "plans", "--output", path, *extra, db=db)
        with open(path, newline="") as f:
            row = next(csv.DictReader(f))
        check(row["profile"] == q + "@evil", row)


@test
def read_only_wal_without_shm_is_refused():
    if os.geteuid() != 0:
        print("  (skipped: needs root to run a command as nobody)")
        return
    src = os.path.join(TMP, "walsrc")
    os.makedirs(src)
    db = os.path.join(src, "s.db")
    rc, out, err = run("fit", os.path.join(SAMPLES, "harmful_hold.routine"), "--budget", "minimize", "--save", db=db)
    check(rc == 0, err)
    # a second plan committed to the -wal only: a reader holds the store open
    # so the saving process neither checkpoints it nor removes the log
    holder = sqlite3.connect(db)
    holder.execute("SELECT count(*) FROM plans").fetchone()
    rc, out, err = run("fit", os.path.join(SAMPLES, "harmful_hold.routine"), "--budget", "minimize", "--save", db=db)
    check(rc == 0 and os.path.getsize(db + "-wal") > 0, err)
    ro = os.path.join(TMP, "walro")
    os.makedirs(ro)
    for suffix in ("", "-wal"):
        with open(db + suffix, "rb") as f, open(os.path.join(ro, "s.db" + suffix), "wb") as g:
            g.write(f.read())
        os.chmod(os.path.join(ro, "s.db" + suffix), 0o444)
    holder.close()
    os.chmod(ro, 0o555)
    os.chmod(TMP, 0o755)
    p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", BIN, "plans", "--json",
                        "--db", os.path.join(ro, "s.db")], capture_output=True, text=True, timeout=60)
    check(p.returncode == 3 and "write-ahead log" in p.stderr and "-shm is missing" in p.stderr and not p.stdout,
          (p.returncode, p.stdout, p.stderr))
    # without a -wal the read-only store still lists
    os.chmod(ro, 0o755)
    os.unlink(os.path.join(ro, "s.db-wal"))
    os.chmod(ro, 0o555)
    p = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", BIN, "plans", "--json",
                        "--db", os.path.join(ro, "s.db")], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0 and len(json.loads(p.stdout)) >= 1, (p.returncode, p.stdout, p.stderr))



@test
def import_under_a_name_of_ones_own():
    """import --name (issue 28 item 3): two files of one module name stored
    apart, in a store made at schema 2 (no schema change is needed: a
    routine's name is a column its plans do not hold); the second import of
    the same name says where version 1 came from; a renamed text fitted
    from its file again is that routine; bad names and several routines
    are one-line errors that store nothing."""
    db = os.path.join(TMP, "named.db")
    pair = os.path.join(SAMPLES, "pair_peak.routine")
    run("fit", pair, "--budget", "minimize", "--save", db=db)
    as_schema_2(db)
    other = os.path.join(TMP, "pair_other.routine")
    with open(pair) as f, open(other, "w") as g:
        g.write(f.read() + "# the same routine's name, another file\n")
    rc, out, err = run("import", other, db=db)
    check(rc == 0 and "routine pair_peak, version 2" in out and f"version 1 came from {pair}" in out, out + err)
    rc, out, err = run("import", other, "--name", "pair_other", db=db)
    check(rc == 0 and "routine pair_other, version 1" in out, out + err)
    rc, out, err = run("import", other, db=db)  # its text is pair_peak v2's and pair_other's: its own name first
    check(rc == 0 and "pair_peak unchanged" in out, out)
    rc, out, err = run("fit", "pair_other", "--budget", "minimize", "--save", "--json", db=db)
    check(rc == 0 and json.loads(out)["routine"] == "pair_other", out + err)
    rc, out, err = run("plans", "--json", db=db)
    check(sorted(p["routine"] for p in json.loads(out)) == ["pair_other", "pair_peak"], out)
    expect_verified(db, 2)
    expect_fail(["import", other, "--name", "a/b"], "'a/b' has a '/' at byte 2: a name is 1 to 127 bytes", 2, db=db)
    expect_fail(["import", other, "--name", "x.hlo"], "not ending in .routine or .hlo", 2, db=db)
    expect_fail(["import", other, pair, "--name", "two"], "names one routine, and the import holds 2", 2, db=db)
    rc, out, err = run("routines", db=db)
    check("two" not in out.split() and "a/b" not in out, out)

finish()
