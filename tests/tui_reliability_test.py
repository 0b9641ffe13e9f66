#!/usr/bin/env python3
"""TUI reliability tests (issue 42): ^Z suspends the TUI to the shell with
the terminal restored and fg draws it again (item 10); a name with a C1
control or a byte that is not UTF-8 takes its escaped width in the Session
and Plans rows (item 6).

usage: tui_reliability_test.py REMATSCOPE SAMPLES_DIR
"""
import os
import re
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, test  # noqa: E402

import tuilib  # noqa: E402
tuilib.init(sys.argv[1], sys.argv[2], prefix="rs_tui_rel_")
from tuilib import BIN, DB, SAMPLES, TMP, Tui, cooked, tmux  # noqa: E402

MLP = os.path.join(SAMPLES, "mlp_step.routine")


def shell_screen(name):
    return tmux("capture-pane", "-p", "-t", name).stdout


def wait_shell(name, text, timeout=10.0):
    end = time.time() + timeout
    while time.time() < end:
        s = shell_screen(name)
        if (text.search(s) if isinstance(text, re.Pattern) else text in s):
            return s
        time.sleep(0.1)
    raise AssertionError(f"{text!r} not on screen:\n{shell_screen(name)}")


@test
def ctrl_z_suspends_to_the_shell_and_fg_redraws():
    """Item 10: in an interactive bash, ^Z on the Session screen stops the
    TUI (bash says Stopped, its prompt is back on the shell's own screen,
    the terminal cooked: icanon and echo); fg draws the TUI again whole, and
    q then quits with the terminal restored.  ^Z was read as a key."""
    subprocess.run([BIN, "import", MLP, "--db", DB], check=True, capture_output=True)
    name = "suspend"
    tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30",
         "env -i PATH=/usr/bin:/bin HOME=$HOME TERM=xterm-256color LANG=C.UTF-8 PS1='READY$ ' bash --norc --noprofile -i")
    try:
        wait_shell(name, "READY$")
        tmux("send-keys", "-t", name, "-l", "echo before-the-tui")
        tmux("send-keys", "-t", name, "Enter")
        wait_shell(name, "\nbefore-the-tui")
        tmux("send-keys", "-t", name, "-l",
             f"XDG_DATA_HOME={TMP} XDG_CONFIG_HOME={TMP} {BIN} --db {DB}")
        tmux("send-keys", "-t", name, "Enter")
        s = wait_shell(name, "Routines (1)")
        check("before-the-tui" not in s, f"the TUI is not on its own screen:\n{s}")
        tmux("send-keys", "-t", name, "C-z")
        s = wait_shell(name, re.compile(r"Stopped.*rematscope", re.S))
        check("Routines (" not in s and "before-the-tui" in s and s.rstrip().endswith("READY$"),
              f"the shell's screen and prompt are not back:\n{s}")
        stty = os.path.join(TMP, "stty.txt")
        tmux("send-keys", "-t", name, "-l", f"stty -a > {stty}")
        tmux("send-keys", "-t", name, "Enter")
        end = time.time() + 5
        while not (os.path.exists(stty) and os.path.getsize(stty) > 0) and time.time() < end:
            time.sleep(0.1)
        with open(stty) as f:
            check(cooked(f.read()), "the terminal was left raw")
        tmux("send-keys", "-t", name, "-l", "fg")
        tmux("send-keys", "-t", name, "Enter")
        s = wait_shell(name, "Routines (1)")
        check("mlp_step" in s and "READY$" not in s, f"fg did not draw the TUI again whole:\n{s}")
        tmux("send-keys", "-t", name, "q")
        s = wait_shell(name, re.compile(r"READY\$ *$", re.M))
        check("Routines (" not in s, s)
        tmux("send-keys", "-t", name, "-l", "echo status=$?")
        tmux("send-keys", "-t", name, "Enter")
        wait_shell(name, "status=0")
    finally:
        tmux("kill-session", "-t", name, check=False)


@test
def an_escaped_name_takes_its_escaped_width():
    """Item 6: a routine named with a C1 control and a byte that is not
    UTF-8 (c1 CSI 31mX 0xff) is drawn escaped in the Session and Plans rows,
    and the columns after it stand where they stand for a plain name (they
    were pushed right: the width was counted on the raw bytes)."""
    db = os.path.join(TMP, "c1.db")
    for n in ("plainname", "c1name"):
        subprocess.run([BIN, "import", "--name", n, MLP, "--db", db], check=True, capture_output=True)
    con = sqlite3.connect(db)
    con.execute("UPDATE routines SET name = CAST(? AS TEXT) WHERE name = 'c1name'", (b"c1\xc2\x9b31mX\xff",))
    con.commit()
    con.close()
    c1 = b"c1\xc2\x9b31mX\xff".decode("utf-8", "surrogateescape").encode("utf-8", "surrogateescape")
    for n in (b"plainname", c1):
        subprocess.run([BIN.encode(), b"fit", n, b"--budget", b"80%", b"--save", b"--no-progress", b"--db",
                        db.encode()], check=True, capture_output=True)
    t = Tui("c1widths", w=120, h=30, db=db)
    try:
        s = t.wait("Routines (2)")
        rows = {m.group(1): m.start(2) - m.start(0) for m in
                re.finditer(r"^ [ *](plainname|c1\\u009b31mX\\xff) +(15) ", s, re.M)}
        check(len(rows) == 2 and rows["plainname"] == rows["c1\\u009b31mX\\xff"],
              f"Session: the steps column at {rows}:\n{s}")
        t.keys("5")
        s = t.wait("2 plans")
        cols = {m.group(1): m.start(2) - m.start(0) for m in
                re.finditer(r"^.*?(plainname v1|c1\\u009b31mX\\xff v1) +(80% = )", s, re.M)}
        check(len(cols) == 2 and cols["plainname v1"] == cols["c1\\u009b31mX\\xff v1"],
              f"Plans: the budget column at {cols}:\n{s}")
        t.keys("q", "q")
    finally:
        t.close()


subprocess.run(["rm", "-rf", TMP]) if not failed() else None
tmux("kill-server", check=False)
finish()
