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


@test
def empty_csv_field_is_named():
    p = path("e.csv", b"id,lower,upper,size\n0,,4,5\n")
    one_line_error(["layout", p], f"{p}:2:3: expected an integer for lower, found an empty field")


@test
def empty_db_path_is_an_error():
    r = path("r5.routine", b"routine r\ninput x [4]\ny = f(x) [4]\n")
    one_line_error(["fit", r, "--budget", "minimize", "--save", "--db", ""], "--db: an empty path")
    one_line_error(["--db=", "plans"], "--db: an empty path")


@test
def a_million_terms_on_one_line():
    # columns were recounted from the line's start per token: 100k terms took
    # a minute, a million never finished; the column far along must be right
    p = path("terms.routine", b"routine t\ninput x [" + b"+".join([b"1"] * 1000000) + b"]\n")
    rc, out, err, _ = run("score", p, "--json")
    check(rc == 0 and '"bytes": 4000000' in out, err[:300])
    q = path("terms_bad.routine", b"routine t\ninput x [" + b"1+" * 1000000 + b"y]\n")
    one_line_error(["score", q], f"{q}:2:{10 + 2 * 1000000}: unbound symbol 'y'")
    a = path("args.routine", b"routine a\ninput x [4]\ny = f(" + b", ".join([b"x"] * 1000000) + b", z) [4]\n")
    one_line_error(["score", a], f"{a}:3:{7 + 3 * 1000000}: unknown name 'z'")


@test
def a_million_profile_rows():
    # the duplicate check was a linear scan per row and each row prepared its
    # own statements: 200k rows took 89 s; now a hash and one statement
    head = b"name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s\n"
    rows = b"".join(b"dev%d,%d,64,4,312e12,2e12\n" % (i, 1 << 30) for i in range(1000000))
    p = path("profiles_1m.csv", head + rows)
    db = os.path.join(TMP, "profiles_1m.db")
    rc, out, err, rss = run("import", p, "--db", db)
    check(rc == 0 and out == f"{p}: 1000000 profiles\n", (rc, out, err[:300]))
    rc, out, err, _ = run("profiles", "--json", "--db", db)
    check(rc == 0 and out.count('"name"') == 1000000 and '"dev999999"' in out, err[:300])
    d = path("profiles_dup.csv", head + rows + b"dev123456,1,1,1,1,1\n")
    one_line_error(["import", d, "--db", db], f"{d}:1000002:1: profile 'dev123456' given twice")


@test
def every_error_is_located():
    # three 4 EiB inputs live together: the arena's height overflows, said
    # where the buffers' bytes pass 2^63 (issue 24: no longer unlocated)
    p = path("huge3.routine", b"routine h\ninput x [1<<60]\ninput y [1<<60]\ninput z [1<<60]\n")
    one_line_error(["score", p], f"{p}:3:7: the buffers' bytes overflow 64 bits at 'y'")
    c = path("pf.csv", b"name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s\na,1,1\n")
    one_line_error(["import", c, "--db", ":memory:"], f"{c}:2:6: expected 6 fields, found 3")
    c = path("f6.csv", b"id,lower,upper,size\na,0,4,5,6,7\n")
    one_line_error(["layout", c], f"{c}:2:9: expected 4 fields, found 6")
    c = path("q.csv", b"id,lower,upper,size\nab,0,4,5\na\"b,0,4,5\n")
    one_line_error(["layout", c], f"{c}:3:2: malformed CSV")
    c = path("hd.csv", b"id\n")
    one_line_error(["layout", c], f"{c}:1:3: expected the header id,lower,upper,size (column 2 should be 'lower')")


@test
def hlo_hundred_megabyte_line():
    """DESIGN §10: a 100 MB line of HLO (an attribute that never closes, then
    one that does): one located error, or a routine, in memory bounded by
    the file."""
    mb = 100 * 1024 * 1024
    p = os.path.join(TMP, "long.hlo")
    with open(p, "wb") as f:
        f.write(b"HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0), metadata={op_name=\"")
        f.write(b"x" * mb)
        f.write(b"\n}\n")
    size_kib = os.path.getsize(p) / 1024
    rc, out, err, rss = run("score", p)
    lines = err.strip().split("\n")
    check(rc == 2 and len(lines) == 1 and f"{p}:3:47: unterminated string" in lines[0], err[:300])
    print(f"  a 100 MB line, rejected: peak RSS {rss / 1024:.0f} MiB ({rss / size_kib:.1f}x the file)")
    check(rss < 3 * size_kib, f"peak RSS {rss} KiB for a {size_kib:.0f} KiB file")
    # the same line closed: a 100 MB op_name, read and scored
    with open(p, "wb") as f:
        f.write(b"HloModule m\nENTRY %e {\n  %a = f32[2] parameter(0), metadata={op_name=\"")
        f.write(b"x" * mb)
        f.write(b"\"}\n  ROOT %b = f32[2] negate(%a)\n}\n")
    rc, out, err, rss = run("score", p, "--json")
    check(rc == 0 and '"compute": 2' in out, err[:300])
    print(f"  a 100 MB op_name, read: peak RSS {rss / 1024:.0f} MiB ({rss / size_kib:.1f}x the file)")
    check(rss < 8 * size_kib, f"peak RSS {rss} KiB for a {size_kib:.0f} KiB file")


@test
def a_donated_tuple_of_200k_leaves():
    """input_output_alias pairs that each follow an index into one wide
    tuple-shaped node (DESIGN §10): its shape is read once, not once a pair,
    so 200,000 pairs over a 200,000-leaf fusion finish (within the run's
    timeout) in memory proportional to the file."""
    n = 200000
    shape = "(" + ", ".join("f32[2]" for _ in range(n)) + ")"
    pairs = ", ".join(f"{{0,{k}}}: (0, {{}})" for k in range(n))
    text = (f"HloModule h, input_output_alias={{ {pairs} }}\n%fc (x: f32[2]) -> {shape} {{\n"
            f"  %x = f32[2] parameter(0)\n  ROOT %t = {shape} tuple(" + ", ".join("%x" for _ in range(n)) + ")\n}\n"
            f"ENTRY %e {{\n  %p = f32[2] parameter(0)\n  %f = {shape} fusion(%p), kind=kLoop, calls=%fc\n"
            f"  ROOT %o = ({shape}) tuple(%f)\n}}\n")
    p = path("wide_alias.hlo", text.encode())
    size_kib = os.path.getsize(p) / 1024
    rc, out, err, rss = run("score", p)
    check(rc == 0 and "donated    200000 of 200000 aliased outputs, 1.53 MiB (1600000 B)" in out, err[:300] + out[:300])
    print(f"  200,000 pairs into one tuple: peak RSS {rss / 1024:.0f} MiB ({rss / size_kib:.1f}x the file)")
    # each leaf is a node and a step of its own (§10's leaves): about 10x
    check(rss < 14 * size_kib, f"peak RSS {rss} KiB for a {size_kib:.0f} KiB file")


@test
def cli_output_escapes_names_and_paths():
    evil = "x\x1b[2J\x07\ny"  # clear screen, bell, newline
    shown = "x\\x1b[2J\\x07\\ny"
    folder = os.path.join(TMP, evil)
    os.makedirs(folder, exist_ok=True)
    prof = os.path.join(folder, "p.csv")
    with open(prof, "w") as f:
        f.write("name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s\n")
        f.write(f'"{evil}",1000000,8,4,1000,1000\n')
    rout = os.path.join(folder, "r.routine")
    with open(rout, "w") as f:
        f.write("routine r\ninput x [64]\na = f(x) [64]\nb = g(a) [64]\nc = h(b) [64] @output\n")
    mm = os.path.join(folder, "m.csv")
    with open(mm, "w") as f:
        f.write("id,lower,upper,size\n0,0,4,5\n")
    db = os.path.join(folder, "s.db")
    out_csv = os.path.join(folder, "o.csv")
    runs = [("import", prof, rout, mm, "--db", db), ("routines", "--db", db),
            ("score", rout, "--profile", evil, "--db", db),
            ("fit", rout, "--budget", "minimize", "--profile", evil, "--save", "--db", db),
            ("show", "1", "--db", db), ("export", "1", "--what", "plans", "--output", out_csv, "--db", db),
            ("layout", mm, "--output", out_csv)]
    for args in runs:
        rc, out, err, _ = run(*args)
        check(rc == 0 and "\x1b" not in out and "\x07" not in out and shown in out, (args, rc, err, out[:400]))


finish()
