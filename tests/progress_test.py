#!/usr/bin/env python3
"""`fit` and `sweep` on the command line with stderr on a terminal: one
progress line on stderr, rewritten in place, never wider than the terminal,
erased before the result; nothing at all when stderr is not a terminal or
with --no-progress; ^C stops the fit with one line and exit status 130.

The terminal is a pseudo-terminal whose size the test sets; stdout stays a
pipe, so what a script reads is compared byte for byte with a run that has
no terminal.

usage: progress_test.py REMATSCOPE SAMPLES_DIR
"""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, test  # noqa: E402

BIN, SAMPLES = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp(prefix="rs_progress_")
ENV = dict(os.environ, XDG_DATA_HOME=TMP, XDG_CONFIG_HOME=TMP)
T12 = os.path.join(SAMPLES, "gen", "transformer_12.routine")  # 427 candidates, a fit of about 0.4 s
T24 = os.path.join(TMP, "transformer_24.routine")             # 847 candidates, about 1.4 s (5 s under ASan)
SMALL = os.path.join(SAMPLES, "gen", "resnet_small.routine")  # 90 candidates: the first scoring is told at once


def default_sigint():
    # a run started in the background may inherit SIGINT ignored, which the
    # binary (rightly) leaves ignored
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def piped(*args):
    """(exit status, stdout, stderr) with neither on a terminal."""
    p = subprocess.run([BIN, "--db", ":memory:", *args], capture_output=True, text=True, env=ENV, timeout=600,
                       stdin=subprocess.DEVNULL, preexec_fn=default_sigint)
    return p.returncode, p.stdout, p.stderr


def on_terminal(*args, cols=80, interrupt_when=None):
    """(exit status, stdout, what the terminal got) with stderr on a
    pseudo-terminal of cols columns; interrupt_when: a pattern that, once
    the terminal shows it, gets the process a SIGINT."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    p = subprocess.Popen([BIN, "--db", ":memory:", *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=slave, env=ENV, preexec_fn=default_sigint)
    os.close(slave)
    out = []
    reader = threading.Thread(target=lambda: out.append(p.stdout.read()))
    reader.start()
    got, sent, deadline = b"", False, time.monotonic() + 600
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the process closed the terminal (it ended)
            break
        if not chunk:
            break
        got += chunk
        if interrupt_when and not sent and re.search(interrupt_when, got.decode("utf-8", "replace")):
            p.send_signal(signal.SIGINT)
            sent = True
    os.close(master)
    rc = p.wait(timeout=600)
    reader.join()
    check(not interrupt_when or sent, f"never saw {interrupt_when!r}: {got!r}")
    return rc, out[0].decode(), got.decode("utf-8", "replace")


def screen(text, cols):
    """The lines a terminal of cols columns shows after text ('\\r' back to
    the first column, '\\n' a new line); fails when a line would wrap."""
    lines, line, col = [], [], 0
    for ch in text:
        if ch == "\r":
            col = 0
        elif ch == "\n":
            lines.append("".join(line).rstrip())
            line, col = [], 0
        else:
            check(col < cols, f"the line wraps past {cols} columns: {''.join(line)!r}")
            if col == len(line):
                line.append(ch)
            else:
                line[col] = ch
            col += 1
    lines.append("".join(line).rstrip())
    return [ln for ln in lines if ln]


def rewrites(text):
    """Each line the terminal was given, as it was written (between '\\r's)."""
    return [s for s in re.split(r"[\r\n]", text) if s.strip()]


def considered(out):
    m = re.search(r"^candidates: (\d+) considered, 0 dropped$", out, re.M)
    check(m, out[-400:])
    return int(m.group(1))


def count(s):
    return int(s.replace(",", ""))


def setup():
    if not os.path.exists(T24):
        p = subprocess.run([BIN, "gen", "transformer", "--layers", "24", "-o", T24], capture_output=True,
                           text=True, env=ENV, timeout=600)
        check(p.returncode == 0, p.stderr)


FIT = ("fit", T24, "--budget", "60%", "--max-candidates", "all")


@test
def fit_shows_its_progress_on_a_terminal_and_erases_it():
    setup()
    rc, plain, err = piped(*FIT)
    check(rc == 0 and err == "", f"without a terminal: exit {rc}, stderr {err!r}")
    k = considered(plain)
    check(k == 847, k)  # every candidate kept: round one scores each, round two tries each
    rc, out, tty = on_terminal(*FIT)
    check(rc == 0, f"exit {rc}: {tty[-400:]!r}")
    check(out == plain, "stdout differs from the run without a terminal")
    lines = rewrites(tty)
    shown = [re.fullmatch(r"fit 60%: round (one|two) ([\d,]+) of ([\d,]+) scorings \((\d+)%\)  (\d+) s *", ln)
             for ln in lines]
    check(lines and all(shown), f"not a progress line: {[ln for ln, m in zip(lines, shown) if not m][:3]}")
    for m in shown:
        done, total = count(m.group(2)), count(m.group(3))
        check(total == 2 * k, f"of {total}, not 2 x {k}: {m.group(0)!r}")
        check(0 < done <= total and int(m.group(4)) == done * 100 // total, m.group(0))
        check((m.group(1) == "one") == (done <= k), f"round one is the first {k}: {m.group(0)!r}")
        check(re.fullmatch(r"\d{1,3}(,\d{3})*", m.group(2)), f"digits not grouped: {m.group(2)!r}")
    check(all(len(ln) <= 80 for ln in lines), max(lines, key=len))
    check(screen(tty, 80) == [], f"the terminal still shows {screen(tty, 80)}")


@test
def a_narrow_terminal_gets_the_line_cut_to_its_width():
    rc, out, tty = on_terminal("fit", SMALL, "--budget", "60%", "--max-candidates", "all", cols=30)
    check(rc == 0, f"exit {rc}: {tty!r}")
    lines = rewrites(tty)
    check(lines and all(len(ln) <= 30 for ln in lines), lines[:3])
    check(all("fit 60%: round ".startswith(ln.rstrip()[:15]) for ln in lines), lines[:3])
    check(screen(tty, 30) == [], screen(tty, 30))


@test
def sweep_says_which_budget_of_how_many():
    args = ("sweep", T12, "--budgets", "80%,60%", "--max-candidates", "all")
    rc, plain, err = piped(*args)
    check(rc == 0 and err == "", f"without a terminal: exit {rc}, stderr {err!r}")
    k = 427  # transformer_12's candidates, every one kept (fit --max-candidates all says "427 considered")
    rc, out, tty = on_terminal(*args)
    check(rc == 0 and out == plain, f"exit {rc}; stdout differs: {out[:200]!r}")
    lines = rewrites(tty)
    shown = [re.fullmatch(r"sweep ([12]) of 2 \((80|60)%\): ([\d,]+) of ([\d,]+) scorings \((\d+)%\)  (\d+) s *", ln)
             for ln in lines]
    check(lines and all(shown), f"not a progress line: {[ln for ln, m in zip(lines, shown) if not m][:3]}")
    for m in shown:
        # the first budget scores every candidate alone and tries each; the
        # second reuses those scores and only tries them
        want = 2 * k if m.group(1) == "1" else k
        check(m.group(2) == ("80" if m.group(1) == "1" else "60"), m.group(0))
        check(count(m.group(4)) == want and 0 < count(m.group(3)) <= want, f"of {m.group(4)}, not {want}: {m.group(0)!r}")
    check(screen(tty, 80) == [], screen(tty, 80))


@test
def no_terminal_or_no_progress_prints_nothing():
    rc, out, err = piped("sweep", SMALL, "--budgets", "60%", "--max-candidates", "all")
    check(rc == 0 and err == "" and out.startswith("sweep "), f"exit {rc}, stderr {err!r}")
    rc, out2, tty = on_terminal("sweep", SMALL, "--budgets", "60%", "--max-candidates", "all", "--no-progress")
    check(rc == 0 and tty == "" and out2 == out, f"exit {rc}, the terminal got {tty[:200]!r}")
    rc, out, tty = on_terminal("fit", SMALL, "--budget", "60%", "--max-candidates", "all", "--no-progress")
    check(rc == 0 and tty == "" and out.startswith("fit "), f"exit {rc}, the terminal got {tty[:200]!r}")


@test
def an_error_is_the_one_line_left():
    # --save to a file that is no store fails after the fit, once the line was shown
    bad = os.path.join(TMP, "not_a_store")
    with open(bad, "w") as f:
        f.write("hello\n")
    args = ("fit", SMALL, "--budget", "60%", "--max-candidates", "all", "--save", "--db", bad)
    rc, out, tty = on_terminal(*args, cols=200)  # the error's own line is long
    rc2, out2, err2 = piped(*args)
    check(rc == rc2 == 3 and out == out2 == "", (rc, rc2, out))
    check(any("scorings" in ln for ln in rewrites(tty)), f"no progress before the error: {tty!r}")
    check(screen(tty, 200) == [err2.rstrip("\n")] and "not a rematscope session store" in err2,
          (screen(tty, 200), err2))


@test
def interrupt_stops_the_fit_with_one_line():
    setup()
    rc, out, tty = on_terminal(*FIT, interrupt_when=r"scorings")
    check(rc == 130, f"exit {rc}: {tty[-300:]!r}")
    check(out == "", f"stdout: {out[:200]!r}")
    check(screen(tty, 80) == ["rematscope: fit stopped (^C)"], screen(tty, 80))
    rc, out, tty = on_terminal("sweep", T24, "--budgets", "80%,60%", "--max-candidates", "all",
                               interrupt_when=r"scorings")
    check(rc == 130 and out == "", f"exit {rc}: {tty[-300:]!r}")
    check(screen(tty, 80) == ["rematscope: sweep stopped (^C)"], screen(tty, 80))



@test
def a_typed_interrupt_leaves_only_the_stopped_line():
    """^C typed on the process's own terminal (stdout there too): the
    terminal echoes '^C' past the line, and the erase takes that too."""
    setup()
    pid, master = pty.fork()
    if pid == 0:
        try:
            default_sigint()
            os.execve(BIN, [BIN, "--db", ":memory:", *FIT], ENV)
        finally:
            os._exit(127)
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    got, sent = b"", False
    while True:
        ready, _, _ = select.select([master], [], [], 1.0)
        if not ready:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        got += chunk
        if not sent and b"scorings" in got:
            os.write(master, b"\x03")  # the terminal's intr character: SIGINT to the process, '^C' echoed
            sent = True
    os.close(master)
    _, st = os.waitpid(pid, 0)
    tty = got.decode("utf-8", "replace")
    check(sent and os.waitstatus_to_exitcode(st) == 130, f"exit {os.waitstatus_to_exitcode(st)}: {tty[-300:]!r}")
    check("^C" in tty.replace("(^C)", ""), f"no echo to erase: {tty[-300:]!r}")
    check(screen(tty, 80) == ["rematscope: fit stopped (^C)"], screen(tty, 80))


finish()
