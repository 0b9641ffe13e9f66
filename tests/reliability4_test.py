#!/usr/bin/env python3
"""Reliability end-to-end tests, issue 42: completion that quotes every word
it offers and only reads the store, writers racing on a new or older store,
import's report after its commit, damaged numbers, one escaper and one
--name rule, one reader for every file read, the theme reader, ^Z in the TUI
(the last in tui_test.py).

usage: reliability4_test.py REMATSCOPE SAMPLES_DIR COMPLETION_SCRIPT
"""
import hashlib
import json
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, store_schema, test  # noqa: E402

BIN, SAMPLES, COMPLETION = (os.path.abspath(a) for a in sys.argv[1:4])
TMP = tempfile.mkdtemp(prefix="rs_rel4_")
XDG = os.path.join(TMP, "xdg")
MLP = os.path.join(SAMPLES, "mlp_step.routine")
PROFILE_HEADER = "name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s"


def env_of(env=None):
    e = dict(os.environ, XDG_DATA_HOME=XDG, XDG_CONFIG_HOME=XDG, RS_BUSY_TIMEOUT_MS="5000")
    e.update(env or {})
    return e


def run(*args, db=None, env=None, cwd=None, preexec=None, timeout=120):
    """exit status, stdout and stderr (as str, undecodable bytes kept) of rematscope args."""
    cmd = [BIN, *(["--db", db] if db else []), *args]
    p = subprocess.run([a.encode("utf-8", "surrogateescape") if isinstance(a, str) else a for a in cmd],
                       capture_output=True, env=env_of(env), cwd=cwd, timeout=timeout, preexec_fn=preexec)
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), p.stderr.decode("utf-8", "surrogateescape")


def write(name, data):
    path = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8", "surrogateescape"))
    return path


def no_raw_controls(data, what):
    """data (bytes) holds no C0 control but newline, no DEL, no C1 control
    and no byte that is not UTF-8: nothing a terminal would act on."""
    try:
        text = data.decode("utf-8", "strict")
    except UnicodeDecodeError as ex:
        raise AssertionError(f"{what}: bytes that are not UTF-8 ({ex}) in {data[:300]!r}")
    bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7f <= ord(c) <= 0x9f]
    check(not bad, f"{what}: raw {[hex(ord(c)) for c in bad]} in {text[:300]!r}")


# ---------------------------------------------------------------- items 1, 2

HOSTILE = "xq$(touch${IFS}PWNEDX)"  # what a shell runs when it reaches a command line unquoted
HOSTILE2 = "xq`touch${IFS}PWNEDY`;touch${IFS}PWNEDZ"


def complete(words, cwd, env=None):
    """Drives the generated completion in bash as a TAB would: COMP_WORDS and
    COMP_CWORD set, _rematscope called; then puts each offered word on a
    command line (eval, as Enter would) and prints what it became.  Returns
    (COMPREPLY, the words the command line held)."""
    prog = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _rematscope; '
            '(( ${#COMPREPLY[@]} )) && printf "reply %s\\n" "${COMPREPLY[@]}"; '
            'for w in "${COMPREPLY[@]}"; do eval "set -- $w"; printf "word %s|\\n" "$@"; done')
    p = subprocess.run(["bash", "-c", prog, "bash", COMPLETION, BIN, *words], capture_output=True, env=env_of(env),
                       cwd=cwd, timeout=120)
    out = p.stdout.decode("utf-8", "surrogateescape")
    check(p.returncode == 0, f"bash: {p.stderr!r}")
    reply = [ln[6:] for ln in out.split("\n") if ln.startswith("reply ")]
    said = [ln[5:-1] for ln in out.split("\n") if ln.startswith("word ")]
    return reply, said


def hostile_store(d):
    """A store in d holding a routine and a profile named HOSTILE and
    HOSTILE2, a profile whose name carries an OSC sequence, and a plan."""
    db = os.path.join(d, "s.db")
    for name in (HOSTILE, HOSTILE2):
        rc, out, err = run("import", "--name", name, MLP, db=db)
        check(rc == 0, f"import --name {name}: {err}")
    prof = write(os.path.join(d, "p.csv"), f"{PROFILE_HEADER}\n\"{HOSTILE}\",1,1,1,1,1\n\"{HOSTILE2}\",1,1,1,1,1\n"
                 "\"xo\x1b]0;owned\x07\",1,1,1,1,1\n")
    rc, out, err = run("import", prof, db=db)
    check(rc == 0, err)
    rc, out, err = run("fit", HOSTILE, "--budget", "80%", "--save", db=db)
    check(rc == 0, err)
    return db


@test
def completion_quotes_every_word_of_every_kind():
    """Item 1: names from the store (routines, profiles) and the themes
    folder reach the command line quoted: each COMPREPLY word, evaluated as
    a command line is, is the name itself, and nothing ran (no PWNED file);
    a theme file whose name is no theme name (code, ESC) is not offered;
    plans are their ids; files are quoted too."""
    d = os.path.join(TMP, "comp")
    os.makedirs(d)
    db = hostile_store(d)
    themes = os.path.join(d, "themes")
    os.makedirs(themes)
    for name in ("calm", HOSTILE, "xe\x1b]0;t\x07"):
        write(os.path.join(themes, name + ".theme"), "normal = white black\n")
    os.makedirs(os.path.join(d, "files", "dir x"))
    write(os.path.join(d, "files", "xf$(touch PWNEDF).routine"), "routine r\n")
    env = {"RS_THEMES": themes}
    q = lambda s: subprocess.run(["bash", "-c", 'printf %q "$1"', "bash", s], capture_output=True, text=True).stdout
    cases = [
        # (words, expected COMPREPLY, the words it puts on the command line)
        (["--db", db, "fit", "xq"], [q(HOSTILE), q(HOSTILE2)], [HOSTILE, HOSTILE2]),
        (["--db", db, "score", "x", "--profile", "xq"], [q(HOSTILE), q(HOSTILE2)], [HOSTILE, HOSTILE2]),
        (["--db", db, "score", "x", "--profile=xq"], ["--profile=" + q(HOSTILE), "--profile=" + q(HOSTILE2)],
         ["--profile=" + HOSTILE, "--profile=" + HOSTILE2]),
        (["--db", db, "show", ""], ["1"], ["1"]),
        (["--db", db, "fit", "xq\\$\\(to"], [q(HOSTILE)], [HOSTILE]),  # the quoted form a first TAB put there
        (["--theme", ""], ["calm"], ["calm"]),
        (["--theme", "x"], [], []),
    ]
    for words, want_reply, want_words in cases:
        reply, said = complete(words, d, env)
        check(reply == want_reply, f"{words}: COMPREPLY {reply}, want {want_reply}")
        check(said == want_words, f"{words}: the command line held {said}, want {want_words}")
    reply, said = complete(["--db", db, "fit", "files/"], d, env)
    check(sorted(said) == ["files/dir x/", "files/xf$(touch PWNEDF).routine"], said)
    check(sorted(reply) == ["files/dir\\ x/", "files/xf\\$\\(touch\\ PWNEDF\\).routine"], reply)
    reply, said = complete(["--db", db, "--profile", "xo"], d, env)
    check(said == ["xo\\x1b]0;owned\\x07"], f"the OSC name is offered escaped: {said}")
    ran = [f for f in os.listdir(d) if f.startswith("PWNED")]
    check(not ran, f"completion ran code from a name: {ran}")
    # --names prints no raw control: a double-TAB lists it to the terminal
    for kind in ("routines", "profiles", "themes", "plans"):
        p = subprocess.run([BIN, "--db", db, "--names", kind], capture_output=True, env=env_of(env))
        check(p.returncode == 0, p.stderr)
        no_raw_controls(p.stdout, f"--names {kind}")
    p = subprocess.run([BIN, "--db", db, "--names", "profiles"], capture_output=True, env=env_of(env))
    check(b"xo\\x1b]0;owned\\x07\n" in p.stdout, p.stdout)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


@test
def completion_only_reads_the_store():
    """Item 2: --names opens the store read-only and never migrates it: an
    empty file stays empty (it became a 100 KiB store), a schema-7 store
    stays schema 7 byte for byte (one TAB migrated it to 8) and lists
    nothing, a missing one is not made; a current one lists."""
    d = os.path.join(TMP, "ro")
    os.makedirs(d)
    empty = write("ro/empty.db", b"")
    for kind in ("routines", "plans", "profiles"):
        rc, out, err = run("--names", kind, db=empty)
        check(rc == 0 and not err, (kind, err))
    check(os.path.getsize(empty) == 0, f"--names wrote {os.path.getsize(empty)} bytes into an empty --db")
    old = os.path.join(d, "old.db")
    rc, _, err = run("import", MLP, db=old)
    check(rc == 0, err)
    rc, out, err = run("--names", "routines", db=old)
    check(out == "mlp_step\n", out + err)
    con = sqlite3.connect(old)
    con.execute("CREATE TABLE x(a)")  # something only a migration to 8 would not know; user_version 7
    con.execute("DROP TABLE x")
    con.execute("PRAGMA user_version = 7")
    con.commit()
    con.close()
    before = digest(old)
    reply, said = complete(["--db", old, "fit", "ml"], d)
    check(reply == [], f"schema 7 listed {reply}")
    for kind in ("routines", "plans", "profiles"):
        rc, out, err = run("--names", kind, db=old)
        check(rc == 0 and not err, (kind, err))
    con = sqlite3.connect(old)
    v = con.execute("PRAGMA user_version").fetchone()[0]
    con.close()
    check(v == 7, f"a TAB migrated the store to schema {v}")
    check(digest(old) == before, "--names changed the store's bytes")
    rc, out, err = run("--names", "plans", db=os.path.join(d, "absent.db"))
    check(rc == 0 and not os.path.exists(os.path.join(d, "absent.db")), "--names made a store")


# ---------------------------------------------------------------- item 3

# the schema the first release wrote (tests/test_store_plans.c's, without rows)
SCHEMA_1 = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES('app', 'rematscope');
CREATE TABLE routines(id INTEGER PRIMARY KEY, name TEXT NOT NULL, version INTEGER NOT NULL,
  source TEXT NOT NULL, hash TEXT NOT NULL, path TEXT, steps INTEGER NOT NULL, nodes INTEGER NOT NULL,
  imported_at TEXT NOT NULL, UNIQUE(name, version), UNIQUE(name, hash));
CREATE TABLE profiles(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, memory_bytes INTEGER NOT NULL,
  alignment INTEGER NOT NULL, max_inline_depth INTEGER NOT NULL, flops_per_s INTEGER NOT NULL,
  bytes_per_s INTEGER NOT NULL);
CREATE TABLE contexts(id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES contexts(id),
  routine_id INTEGER NOT NULL REFERENCES routines(id), profile_id INTEGER REFERENCES profiles(id),
  bindings TEXT NOT NULL, config TEXT NOT NULL, prefs TEXT NOT NULL);
CREATE TABLE plans(id INTEGER PRIMARY KEY, context_id INTEGER NOT NULL REFERENCES contexts(id),
  child_context_id INTEGER REFERENCES contexts(id), budget_kind TEXT NOT NULL, budget_bytes INTEGER,
  cap INTEGER NOT NULL, baseline_total INTEGER NOT NULL, baseline_live_peak INTEGER NOT NULL,
  baseline_peak_step INTEGER NOT NULL, baseline_buffers INTEGER NOT NULL, baseline_compute INTEGER NOT NULL,
  final_total INTEGER NOT NULL, final_live_peak INTEGER NOT NULL, final_peak_step INTEGER NOT NULL,
  final_buffers INTEGER NOT NULL, final_compute INTEGER NOT NULL, considered INTEGER NOT NULL,
  dropped INTEGER NOT NULL, within_budget INTEGER NOT NULL, elapsed_us INTEGER NOT NULL,
  reused INTEGER NOT NULL, lowered INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE flips(plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
  node TEXT NOT NULL, relief INTEGER NOT NULL, cost INTEGER NOT NULL, PRIMARY KEY(plan_id, seq));
CREATE TABLE events(plan_id INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE, seq INTEGER NOT NULL,
  round INTEGER NOT NULL, kind TEXT NOT NULL, node TEXT, reason TEXT, alone INTEGER, with_ INTEGER,
  cur INTEGER, relief INTEGER, cost INTEGER, rank INTEGER, members TEXT NOT NULL, text TEXT NOT NULL,
  PRIMARY KEY(plan_id, seq));
INSERT INTO routines VALUES(1, 'old', 1, 'routine old', 'h', NULL, 0, 1, '2026-01-01');
PRAGMA user_version = 1;
"""


def race(make, writers=8, tries=20):
    """tries times: a store made by make(path) (or none), then writers
    imports into it started at one instant; every one must succeed and the
    store hold each routine once.  Returns the failures seen."""
    small = write("race/r.routine", "routine r\ninput x [4]\na = f(x) [4] @output\n")
    bad = []
    for t in range(tries):
        db = os.path.join(TMP, "race", f"{make.__name__}{t}.db")
        make(db)
        start = time.time() + 0.15
        wait = lambda: time.sleep(max(0.0, start - time.time()))
        # what is asserted is that every writer succeeds and the store is whole, not how long the last one
        # waits: under ASan on two busy cores, 8 writers queued behind a migration waited past 5 s (exit 3)
        procs = [subprocess.Popen([BIN, "--db", db, "import", "--name", f"r{k}", small],
                                  env=env_of({"RS_BUSY_TIMEOUT_MS": "60000"}),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=wait)
                 for k in range(writers)]
        for k, p in enumerate(procs):
            out, err = p.communicate(timeout=120)
            if p.returncode != 0:
                bad.append(f"try {t} writer {k}: exit {p.returncode}: {err.decode().strip()}")
        rc, out, err = run("routines", "--json", db=db)
        names = sorted(r["name"] for r in json.loads(out)) if rc == 0 else err
        want = sorted([f"r{k}" for k in range(writers)] + (["old"] if make is schema_1 else []))
        if names != want:
            bad.append(f"try {t}: the store holds {names}")
    return bad


def absent(db):
    pass


def schema_1(db):
    con = sqlite3.connect(db)
    con.executescript(SCHEMA_1)
    con.close()


@test
def writers_racing_on_an_absent_store():
    """Item 3: 8 imports at once into a store that is not there, 20 times:
    every one succeeds ("migrating the store: table meta already exists"
    failed 15 of 20 tries)."""
    bad = race(absent)
    check(not bad, f"{len(bad)} failures:\n  " + "\n  ".join(bad[:8]))


@test
def writers_racing_on_a_schema_1_store():
    """Item 3: the same on a store of schema 1, which each migrates to the
    current schema ("duplicate column name: label")."""
    bad = race(schema_1)
    check(not bad, f"{len(bad)} failures:\n  " + "\n  ".join(bad[:8]))
    con = sqlite3.connect(os.path.join(TMP, "race", "schema_10.db"))
    check(con.execute("PRAGMA user_version").fetchone()[0] == store_schema(), "not migrated to the current schema")
    con.close()


# ---------------------------------------------------------------- item 4

def limit_file_size(n):
    """preexec_fn: files may grow to n bytes; SIGXFSZ ignored, so a write
    past it fails with EFBIG as on a full disk."""
    def pre():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (n, n))
    return pre


@test
def import_reports_only_what_it_committed():
    """Item 4: with a file-size limit the commit fails; stdout says nothing
    (it said "routine transformer_12, version 1 (600 steps)" first), stderr
    the one line, exit 3, and nothing was stored; without the limit the
    report comes after the commit."""
    d = os.path.join(TMP, "full")
    os.makedirs(d)
    db = os.path.join(d, "s.db")
    rc, out, err = run("import", MLP, db=db)
    check(rc == 0, err)
    big = os.path.join(d, "t12.routine")
    rc, out, err = run("gen", "transformer", "--layers", "12", "-o", big)
    check(rc == 0 and os.path.getsize(big) > 30000, err)
    # the store is 100 KiB and its -shm 32 KiB: the -wal's pages for a 34 KB routine pass 40000 bytes
    rc, out, err = run("import", big, db=db, preexec=limit_file_size(40000))
    check(rc == 3 and out == "" and err == f"rematscope: {db}: committing: the disk is full; nothing of it was saved\n",
          f"exit {rc}, stdout {out!r}, stderr {err!r}")
    rc, out, err = run("routines", "--json", db=db)
    check(rc == 0 and [r["name"] for r in json.loads(out)] == ["mlp_step"], out + err)
    rc, out, err = run("import", big, db=db)
    check(rc == 0 and out == f"{big}: routine transformer_12, version 1 (600 steps)\n", out + err)


# ---------------------------------------------------------------- item 5

@test
def stored_numbers_out_of_range_are_a_damaged_store():
    """Item 5: a plan row whose baseline_compute, gap_total or gap_compute
    is INT64_MIN (UBSan: signed overflow in show, compare and Plans) makes
    show, compare and plans fail with exit 3 naming the plan and column;
    a sound store still shows."""
    d = os.path.join(TMP, "dmg")
    os.makedirs(d)
    for col in ("baseline_compute", "gap_total", "gap_compute", "final_total"):
        db = os.path.join(d, f"{col}.db")
        for budget in ("80%", "60%"):
            rc, out, err = run("fit", MLP, "--budget", budget, "--save", db=db)
            check(rc == 0, err)
        rc, out, err = run("show", "1", db=db)
        check(rc == 0, err)
        con = sqlite3.connect(db)
        con.execute(f"UPDATE plans SET gap_kind = 'exact', gap_found = 1, {col} = -9223372036854775808 WHERE id = 1")
        con.commit()
        con.close()
        want = f"rematscope: {db}: plan 1 is damaged: its {col} is -9223372036854775808, out of range\n"
        for args in (["show", "1"], ["compare", "1", "2"], ["compare", "2", "1"], ["plans"], ["plans", "--json"],
                     ["show", "1", "--json"]):
            rc, out, err = run(*args, db=db)
            check(rc == 3 and err == want, f"{col}: {args}: exit {rc}, {err!r}, want {want!r}")
        rc, out, err = run("show", "2", db=db)
        check(rc == 0 and "plan 2" in out, f"{col}: plan 2 is sound: {err}")


# ---------------------------------------------------------------- item 6

C1_NAME = b"c1\xc2\x9b31mX\xff"  # CSI as U+009B, then a byte that is not UTF-8
C1_SHOWN = "c1\\u009b31mX\\xff"


def c1_store():
    """A store whose routine is named C1_NAME (written past --name's rule,
    as an older rematscope or an edit would), with two plans of it."""
    d = os.path.join(TMP, "c1")
    os.makedirs(d, exist_ok=True)
    db = os.path.join(d, "s.db")
    if os.path.exists(db):
        return db
    rc, out, err = run("import", "--name", "plain", MLP, db=db)
    check(rc == 0, err)
    con = sqlite3.connect(db)
    con.execute("UPDATE routines SET name = CAST(? AS TEXT) WHERE name = 'plain'", (C1_NAME,))
    con.commit()
    con.close()
    name = C1_NAME.decode("utf-8", "surrogateescape")
    for budget in ("80%", "60%"):
        rc, out, err = run("fit", name, "--budget", budget, "--save", db=db)
        check(rc == 0, err)
    return db


@test
def the_name_rule_refuses_c1_and_invalid_utf8_and_says_so():
    """Item 6: import --name takes no C1 control and no byte that is not
    UTF-8 (it took $'c1\\xc2\\x9b31mX'), and the one message says what
    it refused and where, for an ESC as for a C1."""
    db = os.path.join(TMP, "rule.db")
    rule = ("a name is 1 to 127 bytes of UTF-8 without blanks, control characters or '/', not ending in .routine "
            "or .hlo (those read as files)")
    for name, shown, why in ((b"c1\xc2\x9b31mX", "c1\\u009b31mX", "has a control character (U+009B) at byte 3"),
                             (b"e\x1bx", "e\\x1bx", "has a control character (0x1b) at byte 2"),
                             (b"b\xffx", "b\\xffx", "has a byte that is not UTF-8 (0xff) at byte 2"),
                             (b"a b", "a b", "has a blank at byte 2"), (b"x/y", "x/y", "has a '/' at byte 2")):
        rc, out, err = run("import", "--name", name, MLP, db=db)
        want = f"rematscope: --name: '{shown}' {why}: {rule}\n"
        check(rc == 2 and err == want, f"{name!r}: exit {rc}: {err!r}, want {want!r}")
    rc, out, err = run("import", "--name", "naïve-é", MLP, db=db)
    check(rc == 0, f"a name in UTF-8 is a name: {err}")


@test
def every_command_prints_a_stored_name_escaped():
    """Item 6: routines, plans, score, fit, sweep and compare print a
    routine's name through the one escaper (they printed the raw CSI and
    the 0xff)."""
    db = c1_store()
    name = C1_NAME.decode("utf-8", "surrogateescape")
    for args, needle in ((["routines"], C1_SHOWN), (["plans"], C1_SHOWN + " v1"),
                         (["score", name], f"routine {C1_SHOWN}:"),
                         (["fit", name, "--budget", "70%"], f"fit {C1_SHOWN}:"),
                         (["sweep", name, "--budgets", "70%,90%"], f"sweep {C1_SHOWN}:"),
                         (["compare", "1", "2"], C1_SHOWN + " v1"), (["show", "1"], C1_SHOWN + " v1")):
        p = subprocess.run([BIN, "--db", db, *[a.encode("utf-8", "surrogateescape") for a in args]],
                           capture_output=True, env=env_of())
        check(p.returncode == 0, (args, p.stderr))
        no_raw_controls(p.stdout, " ".join(args))
        check(needle in p.stdout.decode(), f"{args}: no {needle!r} in {p.stdout[:400]!r}")


# ---------------------------------------------------------------- items 7, 8

NOT_A_FILE = "not a file: rematscope reads regular files only"


def refused_quickly(args, where, what, env=None):
    """args fail at once (exit 2) naming where and what it is, rather than
    spinning, growing or blocking (a timeout of 20 s fails it)."""
    t0 = time.time()
    try:
        rc, out, err = run(*args, env=env, timeout=20)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{args}: still running after 20 s")
    check(rc == 2 and f"{where}: is {what}, {NOT_A_FILE}" in err and time.time() - t0 < 10,
          f"{args}: exit {rc}: {err!r}")
    return err


@test
def every_reader_refuses_what_is_not_a_regular_file():
    """Item 7: a theme that is a symlink to /dev/zero (config spun at 100 %
    CPU), RS_PROFILES=/dev/zero (grew to 3.7 GB), a FIFO as a routine, a
    CSV, a config file or a theme (blocked): each a located refusal naming
    the file and what it is."""
    d = os.path.join(TMP, "readers")
    themes = os.path.join(d, "themes")
    os.makedirs(themes)
    os.symlink("/dev/zero", os.path.join(themes, "zero.theme"))
    os.mkfifo(os.path.join(themes, "fifo.theme"))
    fifo = os.path.join(d, "in.fifo")
    os.mkfifo(fifo)
    env = {"RS_THEMES": themes}
    zt, ft = os.path.join(themes, "zero.theme"), os.path.join(themes, "fifo.theme")
    refused_quickly(["config", "--theme", "zero"], f"--theme: {zt}", "a character device", env)
    refused_quickly(["config", "--theme", "fifo"], f"--theme: {ft}", "a FIFO (a named pipe)", env)
    cfg = os.path.join(d, "cfg", "rematscope")
    os.makedirs(cfg)
    with open(os.path.join(cfg, "config"), "w") as f:
        f.write("theme = zero\n")
    refused_quickly(["config"], f"theme: {zt}", "a character device", dict(env, XDG_CONFIG_HOME=os.path.dirname(cfg)))
    refused_quickly(["score", MLP, "--profile", "jetson-orin-nano-8gb"], "/dev/zero", "a character device",
                    {"RS_PROFILES": "/dev/zero"})
    for args in (["score", fifo], ["layout", fifo], ["import", fifo], ["convert", fifo], ["--config", fifo, "score", MLP]):
        refused_quickly(args, fifo, "a FIFO (a named pipe)")
    refused_quickly(["layout", "/dev/zero"], "/dev/zero", "a character device")
    rc, out, err = run("score", d)
    check(rc == 2 and f"{d}: is a directory, not a file" in err, err)


@test
def a_file_past_the_cap_is_refused_unread():
    """Item 7: a file over the 1 GiB cap (sparse: 2 GiB in no blocks) is
    refused by its size before a byte is read."""
    big = os.path.join(TMP, "readers-big.routine")
    with open(big, "wb") as f:
        f.truncate(2 << 30)
    rc, out, err = run("score", big)
    check(rc == 2 and err == f"rematscope: {big}: is 2147483648 bytes, more than the 1024 MiB rematscope reads of "
          "a file\n", err)


@test
def only_the_one_reader_opens_a_file_to_read():
    """Item 7: outside store/rfile.c (and wfile.c, the writer) no source
    opens a file: fopen or open appears only in store/store.c, for the
    store's lock holder (its -shm and /proc/PID/comm), never for input."""
    src = os.path.dirname(SAMPLES)
    call = re.compile(r"\b(fopen|open|freopen|fdopen)\s*\(")
    bad = []
    for top in ("app", "store", "core"):
        for root, _, files in os.walk(os.path.join(src, top)):
            for fn in files:
                if not fn.endswith((".c", ".h")):
                    continue
                rel = os.path.relpath(os.path.join(root, fn), src)
                with open(os.path.join(root, fn)) as f:
                    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", f.read(), flags=re.S)
                for m in call.finditer(text):
                    if rel not in ("store/rfile.c", "store/wfile.c", "store/store.c"):
                        bad.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    check(not bad, "files opened outside rfile/wfile:\n  " + "\n  ".join(bad))
    with open(os.path.join(src, "store", "store.c")) as f:
        found = call.findall(re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S))
    check(sorted(found) == ["fopen", "open"], f"store/store.c opens {found}: only the lock holder's two")


@test
def themes_read_lines_as_every_format_does():
    """Item 8: a comment line over 511 bytes is a comment (it was "unknown
    slot 'xxx...'"), lone-CR line endings end lines (the file was one line),
    and an error keeps its FILE:LINE:COL through --theme and the config
    file (config.c re-wrapped it without them)."""
    d = os.path.join(TMP, "themes8")
    themes = os.path.join(d, "themes")
    os.makedirs(themes)
    write(os.path.join(themes, "long.theme"), "# " + "x" * 600 + "\nnormal = white black\nheader = red blue bold\n")
    for name, nl in (("lf", "\n"), ("crlf", "\r\n"), ("cr", "\r")):
        write(os.path.join(themes, f"{name}.theme"), nl.join(["# mine", "normal = white black", "header = red blu bold", ""]))
        write(os.path.join(themes, f"ok{name}.theme"), nl.join(["# mine", "normal = white black", "header = red blue", ""]))
    env = {"RS_THEMES": themes}
    for ok in ("long", "oklf", "okcrlf", "okcr"):
        rc, out, err = run("config", "--theme", ok, "--json", env=env)
        check(rc == 0 and json.loads(out)["settings"]["theme"]["value"] == ok, f"{ok}: {err}{out[:200]}")
    cfgdir = os.path.join(d, "cfg")
    os.makedirs(os.path.join(cfgdir, "rematscope"))
    cfg = os.path.join(cfgdir, "rematscope", "config")
    for name in ("lf", "crlf", "cr"):
        path = os.path.join(themes, f"{name}.theme")
        msg = "expected a background colour (default, black, red, green, yellow, blue, magenta, cyan, white, bright-...)"
        rc, out, err = run("config", "--theme", name, env=env)
        check(rc == 2 and err == f"rematscope: --theme: {path}:3:14: {msg}\n", (name, err))
        with open(cfg, "w") as f:
            f.write(f"# mine\ntheme = {name}\n")
        rc, out, err = run("config", env=dict(env, XDG_CONFIG_HOME=cfgdir))
        check(rc == 2 and err == f"rematscope: {cfg}:2:9: theme: {path}:3:14: {msg}\n", (name, err))


if not failed():
    subprocess.run(["rm", "-rf", TMP])
finish()
