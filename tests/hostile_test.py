#!/usr/bin/env python3
"""Hostile inputs: each gets one clear line on stderr and exit status 2, or
works within memory proportional to its size; names with control bytes and
invalid UTF-8 are shown escaped.

usage: hostile_test.py REMATSCOPE
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, test  # noqa: E402

BIN = sys.argv[1]
TMP = tempfile.mkdtemp(prefix="rs_hostile_")


# a fresh Python runs the command, so its children's peak RSS is this one's
MEASURE = """
import resource, subprocess, sys
p = subprocess.run(sys.argv[1:])
sys.stderr.write("\\nRSS_KIB=%d\\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(p.returncode)
"""


def run(*args, input=None):
    p = subprocess.run([sys.executable, "-c", MEASURE, BIN, *args], capture_output=True, input=input, timeout=900,
                       env=dict(os.environ, XDG_DATA_HOME=TMP))
    err = p.stderr.decode("utf-8", "replace")
    head, _, rss = err.rpartition("\nRSS_KIB=")
    return p.returncode, p.stdout.decode("utf-8", "replace"), head, int(rss.strip() or 0)






def one_line_error(args, needle):
    rc, out, err, _ = run(*args)
    lines = err.strip().split("\n")
    check(rc == 2 and len(lines) == 1 and needle in lines[0] and out == "", (rc, err[:300], out[:100]))


def path(name, data):
    p = os.path.join(TMP, name)
    with open(p, "wb") as f:
        f.write(data)
    return p


@test
def overflowing_dimensions():
    p = path("ovf.routine", b"routine o\nbind B=4611686018427387904\ninput x [B, B, 3]\n")
    one_line_error(["score", p], f"{p}:3:13: the shape's element count overflows 64 bits")
    p = path("ovf2.routine", b"routine o\ninput x [3037000500, 3037000500]\n")
    one_line_error(["score", p], "overflows")
    p = path("ovf3.routine", b"routine o\ninput x [4]\ny = f(x) [4] cost=9223372036854775807*2\n")
    one_line_error(["score", p], f"{p}:3:38: integer overflow")  # the '*'


@test
def a_million_steps():
    p = os.path.join(TMP, "million.routine")
    subprocess.run([BIN, "gen", "chain", "--layers", "499999", "-o", p], check=True)
    size_kib = os.path.getsize(p) / 1024
    rc, out, err, rss = run("score", p, "--json")
    check(rc == 0 and '"peak_step": 500000' in out, err[:300])
    # a 45 MB routine: the parse tree, the lowering, the layout's tree
    print(f"  1,000,002 steps, {size_kib / 1024:.0f} MiB of text: peak RSS {rss / 1024:.0f} MiB "
          f"({rss / size_kib:.1f}x the file)")
    check(rss < 48 * size_kib, f"peak RSS {rss} KiB for a {size_kib:.0f} KiB file")


@test
def ten_million_csv_rows():
    p = os.path.join(TMP, "rows.csv")
    with open(p, "w") as f:
        f.write("id,lower,upper,size\n")
        chunk = "".join(f"{i},{i % 1000},{i % 1000 + 5},64\n" for i in range(100000))
        for _ in range(100):
            f.write(chunk)
        f.write("last,7,3,64\n")  # row 10,000,001 (line 10,000,002) is bad
    size_kib = os.path.getsize(p) / 1024
    rc, out, err, rss = run("layout", p)
    check(rc == 2 and f"{p}:10000002:" in err and "must be greater than lower" in err, err[:300])
    print(f"  10,000,001 rows, {size_kib / 1024:.0f} MiB: peak RSS {rss / 1024:.0f} MiB")
    check(rss < 4 * size_kib, f"peak RSS {rss} KiB for a {size_kib:.0f} KiB CSV")


@test
def names_are_shown_escaped():
    p = path("weird.csv", b"name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s\n"
                          b"\"bad\x01name\xff\",1024,8,2,1000,1000\n")
    db = os.path.join(TMP, "weird.db")
    rc, out, err, _ = run("import", p, "--db", db)
    check(rc == 0, err)
    rc, out, err, _ = run("profiles", "--db", db)
    check(rc == 0 and "bad\\x01name\\xff" in out and "\x01" not in out, repr(out))
    q = path("new\nline\x1b[31m.routine", b"routine r\ninput x [4]\ny = f(nope) [4]\n")
    rc, out, err, _ = run("score", q)
    check(rc == 2 and err.count("\n") == 1 and "\\n" in err and "\x1b" not in err and "\\x1b" in err, repr(err))


@test
def bad_budgets():
    r = path("r.routine", b"routine r\ninput x [4]\ny = f(x) [4]\n")
    for b, needle in (("-1", "a budget cannot be negative"), ("1e400", "unknown unit"),
                      ("abc", "expected a number"), ("", "expected a budget"), ("12%%", "after '%'")):
        one_line_error(["fit", r, "--budget", b], needle)


@test
def binary_and_empty_inputs():
    for name, data, needle in (("junk.routine", os.urandom(4096).replace(b"\n", b"") + b"\x00", "rematscope: "),
                               ("empty.routine", b"", "empty file"),
                               ("bom.routine", b"\xef\xbb\xbfroutine r\n", "expected")):
        p = path(name, data)
        one_line_error(["score", p], needle)


finish()
