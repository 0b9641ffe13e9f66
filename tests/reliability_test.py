#!/usr/bin/env python3
"""Reliability end-to-end tests (issue 24): every file the tool writes goes
through one door that keeps off the session store, and hostile bytes,
numbers and names are located errors or shown escaped.

usage: reliability_test.py REMATSCOPE SAMPLES_DIR SOURCE_DIR
"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, test  # noqa: E402

BIN, SAMPLES, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
TMP = tempfile.mkdtemp(prefix="rs_rel_")
XDG = os.path.join(TMP, "xdg")


def run(*args, db=None, cwd=None, env=None, stdin=None):
    e = dict(os.environ, XDG_DATA_HOME=XDG, XDG_CONFIG_HOME=XDG, RS_BUSY_TIMEOUT_MS="300")
    e.update(env or {})
    cmd = [BIN, *(["--db", db] if db else []), *args]
    p = subprocess.run(cmd, capture_output=True, env=e, cwd=cwd, timeout=600, input=stdin)
    return p.returncode, p.stdout.decode("utf-8", "surrogateescape"), p.stderr.decode("utf-8", "surrogateescape")


def run_bytes(*args, db=None):
    """The same, stdout and stderr as bytes (to see what reaches a terminal)."""
    e = dict(os.environ, XDG_DATA_HOME=XDG, XDG_CONFIG_HOME=XDG)
    p = subprocess.run([BIN, *(["--db", db] if db else []), *args], capture_output=True, env=e, timeout=600)
    return p.returncode, p.stdout, p.stderr


def write(name, data):
    path = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


def expect_error(args, where, needle, db=None, status=2):
    """args fail with status and one line `rematscope: WHERE: ...needle...`."""
    rc, out, err = run(*args, db=db)
    check(rc == status, f"{args}: exit {rc}, want {status}: {err}{out[:300]}")
    lines = err.strip().split("\n")
    check(len(lines) == 1 and lines[0].startswith(f"rematscope: {where}") and needle in lines[0],
          f"{args}: want 'rematscope: {where}...{needle}', got {err!r}")
    return err


# ---------------------------------------------------------------- items 1, 2

HLO = os.path.join(SAMPLES, "hlo", "fused_mlp.hlo")
MM = write("mm.csv", "id,lower,upper,size\n0,0,4,5\n1,1,3,7\n")


def writers(out):
    """Every command that writes a file by name, writing to out."""
    return {
        "export plans": ["export", "1", "--what", "plans", "--output", out],
        "export flips": ["export", "1", "--what", "flips", "--output", out],
        "export events": ["export", "1", "--what", "events", "--output", out],
        "export layout": ["export", "1", "--what", "layout", "--output", out],
        "export svg": ["export", "1", "--what", "svg", "--output", out],
        "layout --output": ["layout", MM, "--output", out],
        "layout --svg": ["layout", MM, "--svg", out],
        "gen -o": ["gen", "chain", "--layers", "2", "-o", out],
        "convert -o": ["convert", HLO, "-o", out],
    }


def make_store(db):
    os.makedirs(os.path.dirname(db), exist_ok=True)
    rc, _, err = run("import", os.path.join(SAMPLES, "mlp_step.routine"), db=db)
    check(rc == 0, err)
    rc, _, err = run("fit", "mlp_step", "--budget", "60%", "--save", db=db)
    check(rc == 0, err)


def store_is_whole(db, use_db):
    rc, out, err = run("plans", "--json", db=db if use_db else None)
    check(rc == 0 and len(json.loads(out)) == 1, f"the store no longer opens: {err}{out[:200]}")
    with open(db, "rb") as f:
        check(f.read(16) == b"SQLite format 3\0", "the store's header was overwritten")


def spellings(db):
    """(label, path to write, the store file it reaches) for every way to
    name the store or its -wal/-shm; made in the store's folder, which is
    the current one."""
    d, name = os.path.dirname(db), os.path.basename(db)
    os.makedirs(os.path.join(d, "sub"), exist_ok=True)
    up = os.path.join(d, "sub", "up")
    if not os.path.lexists(up):
        os.symlink("..", up)
    links = {"link": name, "link2": "link", "wal-link": name + "-wal", "shm-link": name + "-shm"}
    for ln, to in links.items():
        if not os.path.lexists(os.path.join(d, ln)):
            os.symlink(to, os.path.join(d, ln))
    return [
        ("name", name, ""), ("./name", "./" + name, ""), ("sub/../name", "sub/../" + name, ""),
        ("absolute", db, ""), ("symlink", "link", ""), ("symlink to a symlink", "link2", ""),
        ("-wal absent", name + "-wal", "-wal"), ("symlink to the absent -wal", "wal-link", "-wal"),
        ("symlink to the absent -shm", "shm-link", "-shm"),
        ("-wal through sub/up", os.path.join("sub", "up", name + "-wal"), "-wal"),
        ("/./sub/../-shm", d + "/./sub/../" + name + "-shm", "-shm"),
    ]


def every_writer_refuses(db, use_db):
    make_store(db)
    d = os.path.dirname(db)
    for label, out, suffix in spellings(db):
        for cmd, args in writers(out).items():
            rc, o, err = run(*args, db=db if use_db else None, cwd=d)
            check(rc == 2 and "this is the session store" in err and "would destroy it" in err,
                  f"{cmd} to {label} ({out}): exit {rc}: {err}{o[:200]}")
            check(not os.path.lexists(db + suffix) if suffix else True,
                  f"{cmd} to {label} created {db + suffix}")
            check(not [f for f in os.listdir(d) if ".tmp" in f], f"{cmd} to {label} left a temporary")
        store_is_whole(db, use_db)
    # the -wal and -shm while another connection holds them (they exist)
    con = sqlite3.connect(db)
    con.execute("SELECT count(*) FROM plans").fetchone()
    check(os.path.exists(db + "-wal") and os.path.exists(db + "-shm"), "the -wal is not held")
    with open(db + "-wal", "rb") as f:
        wal = f.read()
    for out in (db + "-wal", db + "-shm", "wal-link", "shm-link"):
        for cmd, args in writers(out).items():
            rc, o, err = run(*args, db=db if use_db else None, cwd=d)
            check(rc == 2 and "this is the session store's" in err, f"{cmd} to the held {out}: exit {rc}: {err}")
    with open(db + "-wal", "rb") as f:
        check(f.read() == wal, "the held -wal was written")
    con.close()
    store_is_whole(db, use_db)
    # and each writer still writes beside the store
    for cmd, args in writers(os.path.join(d, "beside.out")).items():
        rc, o, err = run(*args, db=db if use_db else None, cwd=d)
        check(rc == 0 and os.path.getsize(os.path.join(d, "beside.out")) > 0, f"{cmd} beside the store: {err}")


@test
def every_writer_refuses_the_store_named_by_db():
    """Items 1, 2: export of every kind (svg included), layout --output and
    --svg, gen -o and convert -o refuse the store and its -wal/-shm however
    the path is spelled or linked, existing or not; the store still opens."""
    every_writer_refuses(os.path.join(TMP, "guard", "s.db"), True)


@test
def every_writer_refuses_the_default_store():
    every_writer_refuses(os.path.join(XDG, "rematscope", "session.db"), False)


@test
def a_hard_link_to_the_store_is_refused():
    db = os.path.join(TMP, "hard", "s.db")
    make_store(db)
    hard = os.path.join(TMP, "hard", "other-name.csv")
    os.link(db, hard)
    for cmd, args in writers(hard).items():
        rc, _, err = run(*args, db=db)
        check(rc == 2 and "this is the session store (" in err, f"{cmd} to a hard link: exit {rc}: {err}")
    store_is_whole(db, True)


DOOR = os.path.join("store", "wfile.c")
OPEN_RULES = [
    (re.compile(r"\bfopen\s*\(([^;]*)"), lambda a: re.search(r',\s*"rb?"\s*\)', a) is None, {DOOR}),
    (re.compile(r"\bopen\s*\(([^;]*)"), lambda a: re.search(r",\s*O_RDONLY\s*\)", a) is None, set()),
    (re.compile(r"\b(creat|openat|fdopen|freopen|mkstemp|mkostemp|tmpfile|truncate|ftruncate|link|symlink|"
                r"linkat|symlinkat)\s*\("), None, set()),
    (re.compile(r"\b(rename|renameat|unlink|unlinkat)\s*\("), None, {DOOR}),
    (re.compile(r"\bsqlite3_open"), None, {os.path.join("store", "store.c")}),
]


def writes_in(text, rel):
    """The calls in C source text (of file rel) that open, make or replace a
    file other than to read it, where rel may not; and how many calls the
    rules looked at."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)  # comments say "open" freely
    text = re.sub(r'"(\\.|[^"\\])*"', lambda m: m.group(0) if len(m.group(0)) <= 4 else '""', text)
    bad, seen = [], 0
    for rx, is_write, allowed in OPEN_RULES:
        for m in rx.finditer(text):
            seen += 1
            if (is_write(m.group(1)) if is_write else True) and rel not in allowed:
                bad.append(f"{rel}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)[:60]}")
    return bad, seen


@test
def only_the_one_door_opens_files_for_writing():
    """Items 1, 2: the sources open a file for writing only in store/wfile.c
    (wfile_open, which refuses the store); everywhere else a file is opened
    to be read ("r", "rb", O_RDONLY), and the store itself only through
    sqlite3_open in store/store.c."""
    # the rules catch a writer where one would be added
    for snippet in ('FILE *f = fopen(path, "w");', 'FILE *f = fopen(path, mode);', "int fd = open(p, O_WRONLY | O_CREAT, 0644);",
                    'f = freopen(p, "a", stdout);', "rename(a, b);", "int fd = creat(p, 0644);"):
        check(writes_in(snippet, os.path.join("app", "svg.c"))[0], f"the scan misses {snippet}")
    check(not writes_in('FILE *f = fopen(path, "rb"); int fd = open(p, O_RDONLY);', "app/x.c")[0], "readers flagged")
    bad, seen = [], 0
    for top in ("app", "store", "core"):
        for root, _, files in os.walk(os.path.join(SRC, top)):
            for fn in files:
                if fn.endswith((".c", ".h")):
                    with open(os.path.join(root, fn)) as f:
                        b, n = writes_in(f.read(), os.path.relpath(os.path.join(root, fn), SRC))
                    bad += b
                    seen += n
    check(seen >= 6, f"the scan found only {seen} calls: is it reading the sources?")
    check(not bad, "files opened for writing outside wfile_open:\n  " + "\n  ".join(bad))


if not failed():
    subprocess.run(["rm", "-rf", TMP])
finish()
