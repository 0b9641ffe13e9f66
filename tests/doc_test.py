#!/usr/bin/env python3
"""What rematscope says about itself: --version, the manual page and the bash
completion generated at build time from the command, option and key tables
(app/cli/manpage.c, app/cli/completion.c), checked against those tables as
the source spells them and against what the binary accepts; and the written
documentation, README.md and docs/*.md: the README short (under 250 lines)
with its two commands as CI runs them, its links resolved, every command,
option and key documented there as in the page, every CSV column the
exports write named in docs/formats.md, the XLA lines `score` prints quoted
in docs/hlo.md.

usage: doc_test.py REMATSCOPE DOCGEN MANPAGE COMPLETION SOURCE_DIR
"""
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, test  # noqa: E402

BIN, DOCGEN, MAN, COMPLETION, SRC = (os.path.abspath(a) for a in sys.argv[1:6])
TMP = tempfile.mkdtemp(prefix="rs_doc_")
SAMPLES = os.path.join(SRC, "samples")


def run(*args, env=None, cwd=None):
    e = dict(os.environ, XDG_DATA_HOME=TMP, XDG_CONFIG_HOME=TMP)
    e.update(env or {})
    p = subprocess.run([BIN, *args], capture_output=True, text=True, env=e, cwd=cwd, timeout=600)
    return p.returncode, p.stdout, p.stderr


def source(path):
    with open(os.path.join(SRC, path), encoding="utf-8") as f:
        return f.read()


def rendered():
    """The page as man shows it, as plain text (no overstrike, no hyphenation)."""
    env = dict(os.environ, MANWIDTH="100", MANPAGER="cat", PAGER="cat", LANG="C.UTF-8")
    p = subprocess.run(["man", "-l", MAN], capture_output=True, text=True, env=env)
    check(p.returncode == 0 and not p.stderr.strip(), f"man -l: exit {p.returncode}: {p.stderr}")
    text = re.sub(r".\x08", "", p.stdout)
    return text


def section(text, name):
    m = re.search(r"^%s\n(.*?)(?=^[A-Z][A-Z ]+\n|\Z)" % re.escape(name), text, re.M | re.S)
    check(m, f"no {name} section")
    return m.group(1)


def flat(text):
    return " ".join(text.split())


def project_version():
    m = re.search(r"project\(rematscope VERSION (\d+\.\d+\.\d+)", source("CMakeLists.txt"))
    check(m, "no project(... VERSION ...) in CMakeLists.txt")
    return m.group(1)


def help_options():
    """{option: [commands] or None for any command} from --help, the tables' own listing."""
    rc, out, _ = run("--help")
    check(rc == 0, "--help failed")
    opts = {}
    for line in out.split("\n"):
        m = re.match(r"  (?:(-\w), )?(--[\w-]+)\s.*\[([^\]]+)\]$", line)
        if m:
            opts[m.group(2)] = None if m.group(3) == "any command" else m.group(3).split(",")
            if m.group(1):
                opts[m.group(1)] = opts[m.group(2)]
    return opts


def help_commands():
    rc, out, _ = run("--help")
    return re.findall(r"^  rematscope (\w+)\s", out, re.M)


# ---- --version -------------------------------------------------------------


@test
def version_says_the_project_version_and_the_libraries():
    for flag in ("--version", "-V"):
        rc, out, err = run(flag)
        check(rc == 0 and not err, f"{flag}: exit {rc}: {err}")
        lines = out.split("\n")
        check(lines[0] == f"rematscope {project_version()}" and lines[2:] == [""],
              f"{flag}: {out!r}")
        m = re.fullmatch(r"SQLite (\S+), ncurses (\S+), libcsv (\S+)", lines[1])
        check(m, f"second line: {lines[1]!r}")
        import sqlite3  # the same system library the binary links
        check(m.group(1) == sqlite3.sqlite_version, f"SQLite {m.group(1)} != {sqlite3.sqlite_version}")
        with open("/usr/include/curses.h") as f:
            nc = re.search(r'#define NCURSES_VERSION "([\d.]+)"', f.read()).group(1)
        check(m.group(2).startswith(nc + "."), f"ncurses {m.group(2)} is not {nc}.*")
        with open("/usr/include/csv.h") as f:
            h = f.read()
        csv_v = ".".join(re.search(r"#define CSV_%s (\d+)" % k, h).group(1) for k in ("MAJOR", "MINOR", "RELEASE"))
        check(m.group(3) == csv_v, f"libcsv {m.group(3)} != {csv_v}")


@test
def version_needs_no_configuration_file():
    d = os.path.join(TMP, "badconf")
    os.makedirs(os.path.join(d, "rematscope"), exist_ok=True)
    with open(os.path.join(d, "rematscope", "config"), "w") as f:
        f.write("no_such_key = 1\n")
    rc, out, err = run("--version", env={"XDG_CONFIG_HOME": d})
    check(rc == 0 and out.startswith("rematscope "), f"exit {rc}: {err}")
    rc, _, err = run("routines", env={"XDG_CONFIG_HOME": d})
    check(rc == 2 and "no_such_key" in err, f"the bad file is still read by a command: {rc} {err}")


# ---- the manual page ---------------------------------------------------------


@test
def man_page_renders_without_warnings():
    p = subprocess.run(["groff", "-man", "-ww", "-z", MAN], capture_output=True, text=True)
    check(p.returncode == 0 and not p.stderr, f"groff -ww: {p.stderr}")
    with open(MAN, "rb") as f:
        raw = f.read()
    check(all(b < 0x80 for b in raw), "the page holds non-ASCII bytes (groff wants \\[u....])")
    text = rendered()
    for name in ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "BUDGETS", "THE TUI",
                 "CONFIGURATION FILE", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"):
        check(re.search(r"^%s$" % name, text, re.M), f"no {name} section")
    check(f"rematscope {project_version()}" in text, "the footer has no version")
    # what whatis and apropos will index: NAME's one line
    p = subprocess.run(["lexgrog", MAN], capture_output=True, text=True)
    check(p.returncode == 0 and p.stdout.strip().endswith(
        '"rematscope - plan what a tensor compiler recomputes instead of storing, to fit a memory budget"'), p.stdout)


@test
def man_page_lists_every_option_the_parser_accepts():
    """Every "-x"/"--xyz" string in cli.c (the table rows, --help) is an entry
    of OPTIONS; each entry says which commands take it, as --help does."""
    cli = source("app/cli/cli.c")
    accepted = set(re.findall(r'"(--[a-z][a-z-]*|-[a-zA-Z])"', cli))
    check({"--db", "--output", "-o", "--version", "-V", "--help", "-h", "--names"} <= accepted, accepted)
    opts = section(rendered(), "OPTIONS")
    entries = re.findall(r"^       (?:(-\w), )?(--[\w-]+)", opts, re.M)
    listed = {o for pair in entries for o in pair if o}
    check(accepted <= listed, f"not in OPTIONS: {sorted(accepted - listed)}")
    check(listed <= accepted, f"in OPTIONS but not parsed: {sorted(listed - accepted)}")
    where = help_options()
    check(set(where) | {"--help", "-h"} == accepted, f"--help and cli.c differ: {sorted(set(where) ^ accepted)}")
    blocks = re.split(r"\n(?=       -)", opts)
    for name, cmds in where.items():
        if not name.startswith("--"):
            continue
        block = flat(next(b for b in blocks if re.match(r"\s*(-\w, )?%s\b" % re.escape(name), b)))
        if cmds is None:
            check("Any command." in block, f"{name}: {block}")
        else:
            said = re.search(r"Accepted by (.*?)\.$", block)
            check(said, f"{name}: no 'Accepted by' in {block}")
            got = re.split(r", | and ", said.group(1))
            check(got == cmds, f"{name}: the page says {got}, --help {cmds}")


@test
def man_page_lists_every_command_with_its_usage():
    text = rendered()
    cmds = flat(section(text, "COMMANDS"))
    rc, out, _ = run("--help")
    for name, args, summary in re.findall(r"^  rematscope (\w+)\s+(.*)\n      (.*)$", out, re.M):
        check(flat(f"rematscope {name} {args}") in cmds, f"COMMANDS lacks `{name} {args}`")
        check(summary + "." in cmds, f"COMMANDS lacks {name}'s summary {summary!r}")
        check(f"rematscope {name} " in section(text, "SYNOPSIS"), f"SYNOPSIS lacks {name}")
    check(len(help_commands()) == 17, help_commands())


def unroff(text):
    return re.sub(r"\\\[u([0-9A-F]{4,})\]", lambda m: chr(int(m.group(1), 16)),
                  text.replace("\\-", "-").replace("\\e", "\\").replace("\\&", ""))


def key_entries(body):
    """{tag: help} of the page's `.TP` / `.B KEYS` / help entries, from the roff."""
    return {unroff(k): unroff(h) for k, h in re.findall(r"^\.TP\n\.B (.*)\n(.*)$", body, re.M)}


SCREENS = ["Session", "Arena", "Fit", "Compare", "Plans"]


def keymap_rows():
    """The rows of app/tui/keymap.c's key table (screens, key, action,
    help), the screens in their bit order, and mask(screens) -> the bits
    of the screens a row's first field names (0x1f: every screen)."""
    keys = source("app/tui/keymap.c").split("_COLUMNS[] = {")[0]  # the key table; the columns' follow
    rows = re.findall(r'\{ ([^{}]*?), [^,{}]+, "((?:[^"\\]|\\.)*)", (ACT_\w+), "((?:[^"\\]|\\.)*)" \}', keys)
    check(len(rows) == keys.count("\n    { ") and len(rows) > 50, f"{len(rows)} key rows read")
    bits = {f"S(SCR_{n.upper()})": str(1 << i) for i, n in enumerate(SCREENS)}

    def mask(text):
        for k, v in bits.items():
            text = text.replace(k, v)
        return eval(text.replace("KEYS_ALL", "0x1f")) & 0x1f  # noqa: S307 (the table's own C)
    return rows, SCREENS, mask


@test
def man_page_lists_every_key_of_every_screen():
    """Each row of app/tui/keymap.c, its key under its screen's heading (or
    under the keys of every screen) with the help of its action's first row
    there, as the help overlay joins them."""
    rows, screens, mask = keymap_rows()

    with open(MAN) as f:
        roff = f.read()
    tui = roff[roff.index(".SH THE TUI"):roff.index(".SH CONFIGURATION FILE")]
    parts = dict(re.findall(r"^\.SS ([^\n]*)\n(.*?)(?=^\.SS|\Z)", tui, re.M | re.S))
    check(set(parts) == {"Keys on every screen", *screens}, sorted(parts))
    for name, body in parts.items():
        entries = key_entries(body.split("The table's columns:")[0])
        everywhere = name == "Keys on every screen"
        bit = 1 if everywhere else 1 << screens.index(name)
        mine = [r for r in rows if mask(r[0]) & bit and (mask(r[0]) == 0x1f) == everywhere]
        check(mine, name)
        for m, key, action, _ in mine:
            first = next(r for r in mine if r[2] == action)
            tag = [t for t in entries if key.replace('\\"', '"') in t.split(", ")]
            check(len(tag) == 1, f"{name}: key {key} ({action}) in {tag}")
            # a key a screen's own row takes there is said so ("first (not on Fit: there g is its own key)")
            own = "".join(f" (not on {sc}: there {first[1]} is its own key)" for sc in screens
                          if everywhere and any(r[1] == first[1] and mask(r[0]) & (1 << screens.index(sc)) and
                                                mask(r[0]) != 0x1f for r in rows))
            check(entries[tag[0]] == flat(first[3]) + own, f"{name}: {tag[0]}: {entries[tag[0]]!r} != {first[3]!r}")
        check(len(entries) == len({r[2] for r in mine}), f"{name}: {len(entries)} entries for "
              f"{len({r[2] for r in mine})} actions")


@test
def man_page_says_what_each_table_column_holds():
    """The columns of Fit's and Plans' tables, as keymap.c lists them for
    the help overlay, under their screens' headings; at 80 columns Fit
    heads two of them "bound" and "added", which the page names."""
    src = source("app/tui/keymap.c")
    with open(MAN) as f:
        roff = f.read()
    tui = roff[roff.index(".SH THE TUI"):roff.index(".SH CONFIGURATION FILE")]
    parts = dict(re.findall(r"^\.SS ([^\n]*)\n(.*?)(?=^\.SS|\Z)", tui, re.M | re.S))
    for screen in ("Fit", "Plans"):
        table = src.split(f"{screen.upper()}_COLUMNS[] = {{")[1].split("};")[0]
        cols = re.findall(r'\{ "((?:[^"\\]|\\.)*)",\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\}', table)
        check(len(cols) >= 3, (screen, cols))
        body = parts[screen].split("The table's columns:")
        check(len(body) == 2, screen)
        entries = key_entries(body[1]) if len(body) == 2 else {}
        check(len(entries) == len(cols), (screen, entries))
        for heading, meaning in cols:
            text = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', meaning)).replace('\\"', '"')
            check(entries.get(heading) == flat(text), (screen, heading, entries.get(heading), text))
    fit = rendered()
    check('("bound" when narrow)' in " ".join(fit.split()) and '("added" when narrow)' in " ".join(fit.split()), "")


@test
def man_page_describes_every_configuration_key():
    keys = re.findall(r'\[CONFIG_\w+\] = "(\w+)"', source("app/config.c"))
    check(len(keys) == 8, keys)
    conf = section(rendered(), "CONFIGURATION FILE")
    for k in keys:
        check(re.search(r"^       %s\b" % k, conf, re.M), f"{k} has no entry")


@test
def man_page_has_the_bert_example_and_the_environment():
    text = rendered()
    ex = flat(section(text, "EXAMPLES"))
    check("rematscope fit SyncTensorsGraph.1724 --budget 60% \\ --max-candidates 1000 --events" in ex, ex[:400])
    check("9 flips (83.0 → 45.6 MiB" in ex and "multiply.446" in ex, "the BERT numbers")
    env = section(text, "ENVIRONMENT")
    for v in ("RS_THEMES", "RS_PROFILES", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "NO_COLOR"):
        check(v in env, f"{v} not in ENVIRONMENT")
    status = flat(section(text, "EXIT STATUS"))
    for code in ("0 Success", "2 Bad usage", "3 A store failure"):
        check(code in status, f"{code!r} not in EXIT STATUS")


@test
def docgen_refuses_a_template_that_leaves_something_out():
    tmpl = source("app/doc/rematscope.1.in")
    out = os.path.join(TMP, "page.1")
    for cut, needle in (("@KEYS Fit@\n", "no @KEYS Fit@"), ("@KEYS everywhere@\n", "no @KEYS everywhere@"),
                        (".B max_inline_depth\n", "max_inline_depth is not described")):
        check(cut in tmpl, cut)
        path = os.path.join(TMP, "cut.1.in")
        with open(path, "w") as f:
            f.write(tmpl.replace(cut, "").replace("max_inline_depth", "depth") if "depth" in cut
                    else tmpl.replace(cut, ""))
        p = subprocess.run([DOCGEN, "man", path, out], capture_output=True, text=True)
        check(p.returncode == 2 and needle in p.stderr, f"{needle}: exit {p.returncode}: {p.stderr}")
        check(not os.path.exists(out), "a refused page was left behind")
    path = os.path.join(TMP, "bad.1.in")
    with open(path, "w") as f:
        f.write(tmpl.replace("@OPTIONS@", "@OPTONS@"))
    p = subprocess.run([DOCGEN, "man", path, out], capture_output=True, text=True)
    line = tmpl[:tmpl.index("@OPTIONS@")].count("\n") + 1
    check(p.returncode == 2 and f"bad.1.in:{line}:1: unknown placeholder @OPTONS@" in p.stderr, p.stderr)


# ---- README.md and docs/ ------------------------------------------------------------

DOCS = os.path.join(SRC, "docs")


def doc_files():
    """{relative path: text} of README.md and docs/*.md."""
    out = {"README.md": source("README.md")}
    for name in sorted(os.listdir(DOCS)):
        if name.endswith(".md"):
            out["docs/" + name] = source("docs/" + name)
    return out


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, blanks to '-'."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def md_section(text, heading):
    """The body under a Markdown heading, its subsections included."""
    m = re.search(r"^(#+) %s\n" % re.escape(heading), text, re.M)
    check(m, f"no heading {heading!r}")
    rest = text[m.end():]
    end = re.search(r"^#{1,%d} " % len(m.group(1)), rest, re.M)
    return rest[:end.start()] if end else rest


@test
def readme_is_short_and_keeps_the_two_commands():
    text = source("README.md")
    n = text.count("\n")
    check(n < 250, f"README.md has {n} lines (under 250 wanted: the rest goes to docs/)")
    two = md_section(text, "Two commands")
    blocks = re.findall(r"^```sh\n(.*?)^```$", two, re.M | re.S)
    # .ci/run runs tests/run; the first is what a newcomer pastes: both stay as they are
    check(blocks == ["tests/install-deps && cmake -S . -B build && cmake --build build -j && "
                     "./build/rematscope --db build/samples.db samples\n", "tests/run\n"], blocks)
    check(os.access(os.path.join(SRC, "tests", "run"), os.X_OK) and
          os.access(os.path.join(SRC, "tests", "install-deps"), os.X_OK), "tests/run, tests/install-deps")
    check(re.search(r"^tests/run$", source(".ci/run"), re.M), ".ci/run no longer runs tests/run")
    for heading in ("A five-minute tour", "Where things are"):
        md_section(text, heading)


@test
def every_link_from_the_readme_and_docs_resolves():
    files = doc_files()
    to_docs = 0
    for path, text in files.items():
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # https: and mailto: are not checked here
            file, _, anchor = target.partition("#")
            where = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            full = os.path.join(SRC, where)
            check(os.path.exists(full), f"{path}: link {target}: no {where}")
            if path == "README.md" and where.startswith("docs" + os.sep):
                to_docs += 1
            if anchor:
                with open(full, encoding="utf-8") as f:
                    heads = {slug(h) for h in re.findall(r"^#+ (.*)$", f.read(), re.M)}
                check(anchor in heads, f"{path}: link {target}: no heading #{anchor} in {where}")
    check(to_docs >= 7, f"the README links {to_docs} times to docs/")
    linked = set(re.findall(r"\]\((docs/[\w.-]+\.md)", files["README.md"]))
    check(linked == {p for p in files if p.startswith("docs/")},
          f"docs/ files the README does not link: {sorted({p for p in files if p.startswith('docs/')} - linked)}")


@test
def every_command_and_option_is_in_the_docs():
    """As in the page: every command --help lists in docs/commands.md's
    usage block, every option cli.c parses somewhere in README.md or docs/."""
    text = source("docs/commands.md")
    usage = re.search(r"^```\n(rematscope .*?)^```$", text, re.M | re.S)
    check(usage, "docs/commands.md has no usage block")
    cmds = help_commands()
    check(len(cmds) == 17, cmds)
    for name in cmds:
        check(re.search(r"(?<![\w-])%s(?![\w-])" % name, usage.group(1)), f"docs/commands.md's usage lacks {name}")
    everything = "\n".join(doc_files().values())
    accepted = set(re.findall(r'"(--[a-z][a-z-]*|-[a-zA-Z])"', source("app/cli/cli.c")))
    missing = sorted(o for o in accepted if not re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(o), everything))
    check(not missing, f"options no doc names: {missing}")
    keys = re.findall(r'\[CONFIG_\w+\] = "(\w+)"', source("app/config.c"))
    conf = md_section(text, "Configuration file")
    for k in keys:
        check(re.search(r"^%s\s+=" % k, conf, re.M), f"configuration key {k} not in docs/commands.md")


@test
def every_key_of_the_keymap_is_in_docs_tui():
    """Each row of app/tui/keymap.c: its key in the table of its screen in
    docs/tui.md ("Every key"), on the row of its action's help text."""
    rows, screens, mask = keymap_rows()

    tui = source("docs/tui.md")
    every = md_section(tui, "Every key")
    for name in ["Keys on every screen"] + screens:
        heading = name if name.startswith("Keys") else f"{name} keys"
        table = md_section(every, heading)
        trows = re.findall(r"^\| (.*?) \| (.*?) \|$", table, re.M)
        everywhere = name.startswith("Keys")
        bit = 0x1f if everywhere else 1 << screens.index(name)
        mine = [r for r in rows if (mask(r[0]) == 0x1f) == everywhere and mask(r[0]) & bit]
        check(mine, name)
        for _, key, action, helptext in mine:
            key = key.replace('\\"', '"')
            first = next(r[3] for r in mine if r[2] == action).replace('\\"', '"')
            hit = [h for k, h in trows if f"`{key}`" in k.split(" ")]
            check(hit, f"docs/tui.md, {heading}: no row for `{key}` ({action})")
            check(first.replace("|", "\\|") in hit, f"docs/tui.md, {heading}: `{key}`: {hit} is not {first!r}")
        listed = {k.strip("`") for ks, _ in trows[1:] for k in ks.split(" ")}
        extra = listed - {r[1].replace('\\"', '"') for r in mine}
        check(not extra, f"docs/tui.md, {heading}: keys the keymap lacks: {sorted(extra)}")
    # and the prose names every screen
    for name in screens:
        check(f"- **{name}**" in tui, f"docs/tui.md does not describe the {name} screen")


def csv_header(path):
    with open(path, encoding="utf-8", newline="") as f:
        return next(csv.reader(f))


@test
def every_csv_column_the_exports_write_is_in_docs_formats():
    """The headers come from real exports of a plan of the bundled JAX step
    (with an exact search's gap) and a `layout --output` solution; each
    column must be a row of its export's table in docs/formats.md."""
    db = os.path.join(TMP, "formats.db")
    cnn = os.path.join(SAMPLES, "jax", "cnn", "after.hlo")
    rc, _, err = run("--db", db, "fit", cnn, "--budget", "60%", "--exact", "--iterations", "50", "--save")
    check(rc == 0, err)
    fmt = source("docs/formats.md")
    tables = {}
    for heading, body in re.findall(r"^## ([^\n]*)\n(.*?)(?=^## |\Z)", fmt, re.M | re.S):
        cols = set()
        for cell in re.findall(r"^\| (.*?) \|", body, re.M):
            cols |= set(re.findall(r"`([\w]+)`", cell))
        tables[heading] = (cols, body)
    named = {n for cols, _ in tables.values() for n in cols}
    check(len(named) > 40, f"docs/formats.md's tables name {len(named)} columns")
    for kind in ("plans", "flips", "events", "layout", "origins"):
        out = os.path.join(TMP, f"formats.{kind}.csv")
        rc, _, err = run("--db", db, "export", "1", "--what", kind, "--output", out)
        check(rc == 0, err)
        header = csv_header(out)
        sec = [h for h in tables if f"`export --what {kind}`" in h]
        check(len(sec) == 1, f"docs/formats.md: no section headed with `export --what {kind}`")
        missing = [c for c in header if c not in tables[sec[0]][0]]
        check(not missing, f"docs/formats.md, {sec[0]}: columns not described: {missing}")
    mm = os.path.join(TMP, "problem.csv")
    with open(mm, "w") as f:
        f.write("id,lower,upper,size\na,0,2,4\nb,1,3,8\n")
    sol = os.path.join(TMP, "solution.csv")
    rc, _, err = run("layout", mm, "--output", sol)
    check(rc == 0, err)
    sec = [h for h in tables if "layout BUFFERS.csv --output" in h]
    check(len(sec) == 1, "docs/formats.md: no section for the layout solution")
    body = tables[sec[0]][1]
    missing = [c for c in csv_header(sol) if f"`{c}`" not in body]
    check(not missing, f"docs/formats.md, {sec[0]}: {missing}")
    with open(os.path.join(SAMPLES, "profiles.csv"), encoding="utf-8") as f:
        prof = next(csv.reader(f))
    check(all(f"`{c}`" in fmt for c in prof), f"profile columns: {prof}")


@test
def every_json_key_of_score_fit_and_sweep_is_in_docs_formats():
    cnn = os.path.join(SAMPLES, "jax", "cnn", "after.hlo")
    fmt = source("docs/formats.md")
    docs = {}

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                docs[k] = True
                walk(v)
        elif isinstance(o, list):
            for v in o[:20]:
                walk(v)

    for args in (("score", cnn), ("score", os.path.join(SAMPLES, "mlp_step.routine"), "--remat", "a"),
                 ("fit", cnn, "--budget", "60%", "--events", "--exact", "--improve", "--iterations", "30",
                  "--planner", "frontier"), ("sweep", cnn, "--budgets", "80%,60%")):
        rc, out, err = run("--db", ":memory:", *args, "--json")
        check(rc == 0, err)
        walk(json.loads(out))
    missing = sorted(k for k in docs if f"`{k}`" not in fmt)
    check(not missing, f"--json keys docs/formats.md does not name: {missing}")


@test
def the_xla_lines_score_prints_are_in_docs_hlo():
    """score on the bundled JAX step (scheduled, with XLA's memory report
    beside it), and on a copy not scheduled: each XLA line as docs/hlo.md
    quotes it, numbers aside; the stage line word for word."""
    hlo = source("docs/hlo.md")
    quoted = [ln for b in re.findall(r"^```\n(.*?)^```$", hlo, re.M | re.S) for ln in b.split("\n")]

    def shape(line):
        line = re.sub(r"\d+(\.\d+)? (B|KiB|MiB|GiB|TiB|PiB)\b", "N U", line.rstrip())
        return re.sub(r"\d+(\.\d+)?", "N", line)

    shapes = {shape(ln) for ln in quoted}
    cnn_dir = os.path.join(SAMPLES, "jax", "cnn")
    rc, out, err = run("--db", ":memory:", "score", os.path.join(cnn_dir, "after.hlo"))
    check(rc == 0, err)
    lines = out.split("\n")
    i = next((k for k, ln in enumerate(lines) if ln.startswith("xla ")), None)
    check(i is not None, f"score printed no xla line:\n{out[:600]}")
    for ln in lines[i:i + 2]:
        check(shape(ln) in shapes, f"docs/hlo.md does not quote {ln!r}")
    unsched = os.path.join(TMP, "unscheduled")
    os.makedirs(unsched, exist_ok=True)
    with open(os.path.join(cnn_dir, "after.hlo"), encoding="utf-8") as f:
        text = f.read()
    check("is_scheduled=true" in text, "the sample is not scheduled")
    with open(os.path.join(unsched, "step.hlo"), "w", encoding="utf-8") as f:
        f.write(text.replace("is_scheduled=true", "is_scheduled=false", 1))
    rc, out, err = run("--db", ":memory:", "score", os.path.join(unsched, "step.hlo"))
    check(rc == 0, err)
    stage = [ln for ln in out.split("\n") if ln.startswith("stage ")]
    check(len(stage) == 1 and stage[0] in quoted, f"docs/hlo.md does not quote {stage}")
    rc, out, _ = run("--db", ":memory:", "score", os.path.join(unsched, "step.hlo"), "--json")
    check(rc == 0 and json.loads(out)["after_xla_passes"] is False and '`"after_xla_passes"`' in hlo, "after_xla_passes")


# ---- bash completion -----------------------------------------------------------

DB = os.path.join(TMP, "comp.db")
WORK = os.path.join(TMP, "work")


def complete(*words, script=COMPLETION, binary=BIN, cwd=None):
    """COMPREPLY for the command line words (the last one being completed)."""
    prog = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); '
            '_rematscope; printf "%s\\n" "${COMPREPLY[@]}"')
    e = dict(os.environ, XDG_DATA_HOME=TMP, XDG_CONFIG_HOME=TMP)
    p = subprocess.run(["bash", "-c", prog, "bash", script, binary, *words], capture_output=True, text=True,
                       env=e, cwd=cwd or WORK)
    check(p.returncode == 0 and not p.stderr, f"bash: {p.stderr}")
    return [w for w in p.stdout.split("\n") if w]


def setup_store():
    os.makedirs(os.path.join(WORK, "outdir"), exist_ok=True)
    for name in ("a.csv", "apple.routine"):
        open(os.path.join(WORK, name), "w").close()
    if os.path.exists(DB):
        return
    rc, _, err = run("--db", DB, "import", SAMPLES)
    check(rc == 0, err)
    for budget in ("60%", "50%"):
        rc, _, err = run("--db", DB, "fit", "mlp_step", "--budget", budget, "--save")
        check(rc == 0, err)


@test
def completes_commands_and_each_commands_options():
    setup_store()
    check(complete("sc") == ["score"], complete("sc"))
    check(sorted(complete("s")) == ["score", "show", "sweep"], complete("s"))
    check("apple.routine" in complete("a"), "no command yet: files open the TUI")
    check(complete("fit", "x", "--bu") == ["--budget"], complete("fit", "x", "--bu"))
    check(complete("sweep", "x", "--bu") == ["--budgets"], complete("sweep", "x", "--bu"))
    where = help_options()
    for cmd in help_commands():
        want = {o for o, cmds in where.items() if cmds is None or cmd in cmds} | {"--help"}
        got = set(complete(cmd, "--db", DB, "-"))
        check(got == want, f"{cmd}: offers {sorted(got ^ want)} unlike --help")
    before = set(complete("--"))
    check(before == {o for o, c in where.items() if c is None and o.startswith("--")} | {"--help"}, before)


@test
def completes_the_words_an_option_takes():
    setup_store()
    what = complete("export", "1", "--what", "")
    check(what == ["plans", "flips", "events", "layout", "origins", "frontier", "svg"], what)
    check(complete("export", "1", "--what=fl") == ["--what=flips"], complete("export", "1", "--what=fl"))
    check(complete("export", "1", "--what", "=", "fl") == ["flips"], "bash's split --what = fl")
    for kind in what:  # each is an export the binary makes
        out = os.path.join(TMP, f"export.{kind}")
        rc, _, err = run("--db", DB, "export", "1", "--what", kind, "--output", out)
        check(rc == 0 and os.path.getsize(out) > 0, f"--what {kind}: {err}")
    layouts = complete("score", "x", "--layout", "")
    check(sorted(layouts) == ["greedy", "tight", "timeline"], layouts)
    check(sorted(complete("layout", "x", "--strategy", "t")) == ["tight", "timeline"], "strategy")
    for s in layouts:
        rc, _, err = run("score", os.path.join(SAMPLES, "mlp_step.routine"), "--layout", s)
        check(rc == 0, f"--layout {s}: {err}")
    kinds = complete("gen", "")
    check(kinds == ["transformer", "resnet", "unet", "chain", "mlp"], kinds)
    check(len(complete("gen", "mlp", "--dtype", "")) == 29 and complete("gen", "mlp", "--dtype", "bf") == ["bf16"],
          "dtypes")
    check(complete("fit", "x", "--budget", "m") == ["minimize"], "budget words")
    check(complete("--completion", "") == ["bash"], "shells")
    check(complete("fit", "x", "--layers", "") == [], "a number: nothing offered")
    check(complete("fit", "x", "--budgets", "") == [], "a list of budgets: nothing offered")


@test
def completes_files_for_file_arguments():
    setup_store()
    check(sorted(complete("export", "1", "--output", "")) == ["a.csv", "apple.routine", "outdir/"], "--output")
    check(complete("layout", "a") == ["a.csv", "apple.routine"], complete("layout", "a"))
    check(complete("import", "o") == ["outdir/"], complete("import", "o"))
    check(complete("--db", "ou") == ["outdir/"], "--db takes a path")
    check(complete("-o", "a.") == ["a.csv"], "-o too")


@test
def completes_theme_profile_routine_and_plan_names():
    setup_store()
    themes = sorted(f[:-6] for f in os.listdir(os.path.join(SRC, "themes")) if f.endswith(".theme"))
    check(complete("--theme", "") == themes, complete("--theme", ""))
    with open(os.path.join(SAMPLES, "profiles.csv")) as f:
        bundled = [r["name"] for r in csv.DictReader(f)]
    check(complete("score", "x", "--profile", "") == bundled, "bundled profiles, no store")
    mine = os.path.join(TMP, "mine.csv")
    with open(mine, "w") as f:
        f.write("name,memory_bytes,alignment,max_inline_depth,flops_per_s,bytes_per_s\n"
                "my-board,1000000,64,4,1000000000,1000000000\n")
    db2 = os.path.join(TMP, "profiles.db")
    rc, _, err = run("--db", db2, "import", mine)
    check(rc == 0, err)
    check(complete("--db", db2, "score", "x", "--profile", "") == ["my-board"] + bundled, "store's first")
    check(complete("--db", db2, "score", "x", "--profile", "my") == ["my-board"], "by prefix")
    rc, out, _ = run("--db", DB, "plans", "--json")
    ids = [str(p["id"]) for p in json.loads(out)]
    check(len(ids) == 2, ids)
    check(complete("--db", DB, "show", "") == ids, complete("--db", DB, "show", ""))
    check(complete("show", "--db=" + DB, "") == ids, "--db=PATH after the command")
    check(complete("show", "--db", "=", DB, "") == ids, "--db = PATH as bash splits it")
    check(complete("--db", DB, "compare", ids[0], "") == ids, "compare's second plan")
    check("--json" in complete("--db", DB, "compare", ids[0], ids[1], ""), "compare takes two: options next")
    rc, out, _ = run("--db", DB, "routines", "--json")
    names = sorted({r["name"] for r in json.loads(out)})
    got = complete("--db", DB, "fit", "")
    check(sorted(set(got) - {"a.csv", "apple.routine", "outdir/"}) == names, f"routines: {got}")
    check(complete("--db", DB, "fit", "mlp_s") == ["mlp_step"], complete("--db", DB, "fit", "mlp_s"))


@test
def names_never_create_a_store():
    missing = os.path.join(TMP, "never.db")
    for kind in ("plans", "routines", "profiles"):
        rc, out, err = run("--db", missing, "--names", kind)
        check(rc == 0 and not err, f"{kind}: {err}")
    check(not os.path.exists(missing), "--names created a store")
    check(complete("--db", missing, "show", "") == [], "no store, no plans")
    fresh = tempfile.mkdtemp(prefix="rs_doc_home_")
    rc, _, _ = run("--names", "plans", env={"XDG_DATA_HOME": fresh})
    check(rc == 0 and os.listdir(fresh) == [], "the default store was created")
    rc, _, err = run("--names", "colours")
    check(rc == 2 and err == "rematscope: --names: expected themes, profiles, routines or plans, found 'colours'\n",
          err)
    rc, _, err = run("--completion", "zsh")
    check(rc == 2 and "no completion for 'zsh'" in err, err)


@test
def the_built_script_is_the_binarys():
    rc, out, _ = run("--completion", "bash")
    with open(COMPLETION) as f:
        check(rc == 0 and out == f.read(), "rematscope --completion bash differs from the built file")
    p = subprocess.run(["bash", "-n", COMPLETION], capture_output=True, text=True)
    check(p.returncode == 0, p.stderr)
    p = subprocess.run(["bash", "-c", f'source "{COMPLETION}"; complete -p rematscope'], capture_output=True,
                       text=True)
    check(p.stdout.strip() == "complete -F _rematscope rematscope", p.stdout)


try:
    finish()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
