#!/usr/bin/env python3
"""The README's five-minute tour, run as written (issue 43 item 6).

The ```sh blocks under "## A five-minute tour" run in order in a temporary
folder (samples/ linked into it), with the built binary in place of
`build/rematscope` and a temporary store (--db): each must exit 0, and every
line of the ```text block that follows a block must be a line of what it
printed. The numbered TUI steps of the tour run in tmux at 100x24: each
item's keys (the backtick spans before its " — ") are sent, a span of one
character or a key name as a key, any other as typed text, and every span
after its "Screen shows:" must then be on the screen. Last, the README's
opening screen of output ("$ build/rematscope ..." in a ```text block)
is run on the same store and each line it shows must be printed.

The expected text is read from the README, so the README and the tool
cannot drift apart.

usage: tour_test.py REMATSCOPE SOURCE_DIR
"""
import os
import re
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tuilib  # noqa: E402
from harness import check, finish, test  # noqa: E402

BIN, SRC = (os.path.abspath(a) for a in sys.argv[1:3])
tuilib.init(BIN, os.path.join(SRC, "samples"), prefix="rs_tour_")
TMP = tuilib.TMP
WORK = os.path.join(TMP, "work")
DB = os.path.join(TMP, "tour.db")
KEY_NAMES = {"Enter", "Esc", "Tab", "Up", "Down", "Left", "Right", "Home", "End", "PgUp", "PgDn", "Space",
             "Del", "F1"}
TMUX_KEYS = {"Esc": "Escape", "PgUp": "PPage", "PgDn": "NPage", "Del": "DC"}


def readme():
    with open(os.path.join(SRC, "README.md"), encoding="utf-8") as f:
        return f.read()


def tour_text():
    text = readme()
    m = re.search(r"^## A five-minute tour\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    check(m, "the README has no '## A five-minute tour' section")
    return m.group(1)


def blocks(text):
    """[(kind, body)] of the fenced blocks, in order."""
    return [(k, b) for k, b in re.findall(r"^```(\w*)\n(.*?)^```$", text, re.M | re.S)]


def sh_steps(text):
    """[(commands, shown lines)]: each ```sh block and the ```text block right after it."""
    out, bs = [], blocks(text)
    for i, (kind, body) in enumerate(bs):
        if kind == "sh":
            shown = bs[i + 1][1] if i + 1 < len(bs) and bs[i + 1][0] == "text" else ""
            out.append((body, [ln.rstrip() for ln in shown.split("\n") if ln.strip()]))
    return out


def with_binary(line):
    """The README's command line with the built binary and the temporary store."""
    words = shlex.split(line)
    if words and words[0] in ("rematscope", "build/rematscope", "./build/rematscope"):
        return shlex.join([BIN, "--db", DB] + words[1:])
    return line


def run_block(body):
    script = "set -e\n" + "\n".join(with_binary(ln) if ln.strip() else ln for ln in body.split("\n"))
    env = dict(os.environ, XDG_DATA_HOME=TMP, XDG_CONFIG_HOME=TMP, LANG="C.UTF-8")
    p = subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=WORK, env=env, timeout=600)
    return p.returncode, p.stdout, p.stderr


def expect_lines(shown, out, what):
    printed = {ln.rstrip() for ln in out.split("\n")}
    missing = [ln for ln in shown if ln not in printed]
    check(not missing, f"{what}: the README shows lines the tool did not print: {missing}\n--- printed:\n{out}")


def tui_items(text):
    """[(keys, expected)] of the tour's numbered TUI steps."""
    items = re.findall(r"^\d+\. (.*?)(?=^\d+\. |^\*\*|\Z)", text, re.M | re.S)
    out = []
    for item in items:
        # a span's own blanks are kept (a table row's columns), the prose's line breaks are not
        parts = re.split(r"\s—\s", item, maxsplit=1)
        check(len(parts) == 2, f"a TUI step without ' — ': {item[:80]}")
        head, rest = parts
        keys = re.findall(r"`([^`\n]+)`", head)
        shows = re.split(r"Screen\s+shows:", rest)
        check(len(shows) <= 2, f"two 'Screen shows:' in a TUI step: {item[:80]}")
        out.append((keys, re.findall(r"`([^`\n]+)`", shows[1]) if len(shows) == 2 else []))
    return out


def send(t, key):
    if key in KEY_NAMES or len(key) == 1:
        t.keys(TMUX_KEYS.get(key, key))
    else:
        t.type(key)


@test
def the_tour_has_its_steps():
    text = tour_text()
    steps = sh_steps(text)
    check(len(steps) >= 2 and all(shown for _, shown in steps), f"sh blocks each with a text block: {steps}")
    items = tui_items(text)
    check(len(items) >= 5 and all(k for k, _ in items), items)
    check(sum(1 for _, e in items if e) >= len(items) - 1, f"TUI steps that show nothing: {items}")
    joined = " ".join(" ".join(k) for k, _ in items)
    for screen_key in ("f", "Enter", "4"):  # fit, Why, Compare
        check(screen_key in joined.split(), f"no `{screen_key}` in the TUI steps")
    cmds = " ".join(b for b, _ in steps)
    for word in ("import", "score", "export"):
        check(re.search(r"rematscope %s\b" % word, cmds), f"the tour does not run {word}")


_RAN = []


def run_the_tour():
    """The tour's ```sh blocks, once, in order (the TUI steps and the
    opening screen read the store they leave)."""
    if _RAN:
        return _RAN[0]
    os.makedirs(WORK, exist_ok=True)
    os.symlink(os.path.join(SRC, "samples"), os.path.join(WORK, "samples"))
    results = []
    for body, shown in sh_steps(tour_text()):
        results.append((body, shown) + run_block(body))
    _RAN.append(results)
    return results


@test
def the_tours_commands_run_as_written():
    for body, shown, rc, out, err in run_the_tour():
        check(rc == 0, f"exit {rc}:\n{body}\n{err}")
        expect_lines(shown, out, body.strip().split("\n")[0])
    # what the export step wrote is there: a CSV and a picture
    with open(os.path.join(WORK, "cnn-flips.csv"), encoding="utf-8") as f:
        check(f.readline().startswith("plan_id,seq,node,"), "cnn-flips.csv")
    with open(os.path.join(WORK, "cnn.svg"), encoding="utf-8") as f:
        check("<svg" in f.read(300), "cnn.svg is no SVG")


@test
def the_opening_screen_is_what_the_tool_prints():
    """The README's first ```text block: `$ COMMAND` and lines of its output."""
    run_the_tour()
    text = readme()
    first = next(b for k, b in blocks(text[:text.index("## Two commands")]) if k == "text")
    lines = first.rstrip("\n").split("\n")
    check(lines[0].startswith("$ "), lines[0])
    rc, out, err = run_block(lines[0][2:])
    check(rc == 0, err)
    shown = [ln.rstrip() for ln in lines[1:] if ln.strip()]
    check(len(shown) >= 8, shown)
    expect_lines(shown, out, lines[0])
    # the numbers the prose beside it quotes are the output's
    prose = text[text.index(first) + len(first):text.index("## Two commands")]
    for num in re.findall(r"\d+\.\d+ MiB", prose):
        check(num in out, f"the prose says {num}, the tool does not")


@test
def the_tours_tui_steps_show_what_the_readme_says():
    run_the_tour()
    items = tui_items(tour_text())
    t = tuilib.Tui("tour", w=100, h=24, args=["--db", DB])
    try:
        t.wait("Routines (")
        for keys, expected in items:
            for k in keys:
                send(t, k)
            for e in expected:
                t.wait(e, timeout=60.0)
        status, stty = t.exit_status(timeout=10.0)
        check(status == "0" and tuilib.cooked(stty), (status, stty))
    finally:
        t.close()


@test
def a_wrong_readme_fails():
    """The checks above fail on a number the tool does not print."""
    shown = ["footprint  total 85.6 MiB (89629968 B)"]
    try:
        expect_lines(shown, "footprint  total 85.5 MiB (89629968 B)\n", "self-check")
    except AssertionError:
        return
    check(False, "a wrong line passed")


try:
    finish()
finally:
    subprocess.run(["tmux", "-S", tuilib.SOCK, "kill-server"], capture_output=True)
    import shutil
    shutil.rmtree(TMP, ignore_errors=True)
