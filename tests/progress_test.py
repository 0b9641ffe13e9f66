#!/usr/bin/env python3
"""`fit` and `sweep` on the command line with stderr on a terminal: one
progress line on stderr naming the stretch of work (the baseline, round one
shared by a sweep's budgets, each budget's round two and where it met the
budget, --exact, --improve, the save, under --audit), rewritten in place,
never wider than the terminal, erased before the result; nothing at all
when stderr is not a terminal or with --no-progress; ^C stops the fit (also
in --improve) with one line and exit status 130.

Runs given EVERY (RS_TEST_PROGRESS_EVERY) draw every change as it happens,
so which lines they see does not depend on timing.

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


EVERY = {"RS_TEST_PROGRESS_EVERY": "1"}


def on_terminal(*args, cols=80, interrupt_when=None, env=None, db=":memory:"):
    """(exit status, stdout, what the terminal got) with stderr on a
    pseudo-terminal of cols columns; interrupt_when: a pattern that, once
    the terminal shows it, gets the process a SIGINT."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    p = subprocess.Popen([BIN, "--db", db, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=slave, env=dict(ENV, **(env or {})), preexec_fn=default_sigint)
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
    check(lines and lines[0].startswith("fit 60%: scoring the baseline  "), lines[:1])
    shown = [re.fullmatch(r"fit 60%: (?:scoring the baseline|round (one|two) ([\d,]+) of ([\d,]+) (scorings|tries) "
                          r"\((\d+)%\)|round two: budget met after ([\d,]+) tries)  (\d+) s *", ln) for ln in lines]
    check(lines and all(shown), f"not a progress line: {[ln for ln, m in zip(lines, shown) if not m][:3]}")
    for m in shown:
        if not m.group(2):
            continue
        done, total = count(m.group(2)), count(m.group(3))
        # each round its own count: round one scores every candidate alone,
        # round two tries each at most
        check(total == k and m.group(4) == ("scorings" if m.group(1) == "one" else "tries"), m.group(0))
        check(0 <= done <= total and int(m.group(5)) == done * 100 // total, m.group(0))
        check(re.fullmatch(r"\d{1,3}(,\d{3})*", m.group(2)), f"digits not grouped: {m.group(2)!r}")
    check(all(len(ln) <= 80 for ln in lines), max(lines, key=len))
    check(screen(tty, 80) == [], f"the terminal still shows {screen(tty, 80)}")


@test
def a_narrow_terminal_gets_the_line_cut_to_its_width():
    rc, out, tty = on_terminal("fit", SMALL, "--budget", "60%", "--max-candidates", "all", cols=30)
    check(rc == 0, f"exit {rc}: {tty!r}")
    lines = rewrites(tty)
    check(lines and all(len(ln) <= 30 for ln in lines), lines[:3])
    check(all("fit 60%: ".startswith(ln.rstrip()[:9]) for ln in lines), lines[:3])
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
    shown = [re.fullmatch(r"(?:sweep of 2 budgets: (?:scoring the baseline|round one, shared: ([\d,]+) of ([\d,]+) "
                          r"scorings \(\d+%\))|sweep ([12]) of 2 \((80|60)%\): round two (?:([\d,]+) of ([\d,]+) tries "
                          r"\(\d+%\)|: budget met after ([\d,]+) tries))  \d+ s *", ln) for ln in lines]
    check(lines and all(shown), f"not a progress line: {[ln for ln, m in zip(lines, shown) if not m][:3]}")
    for m in shown:
        if m.group(1):  # round one is scored once, for both budgets
            check(count(m.group(2)) == k and 0 <= count(m.group(1)) <= k, m.group(0))
        elif m.group(3):  # each budget's round two tries the candidates in turn, each at most once
            check(m.group(4) == ("80" if m.group(3) == "1" else "60"), m.group(0))
            check(m.group(7) or (count(m.group(6)) == k and 0 <= count(m.group(5)) <= k), m.group(0))
    check(screen(tty, 80) == [], screen(tty, 80))


def tries(args):
    """How many tries round two made in fit args (its --events)."""
    import json
    rc, out, err = piped(*args, "--json", "--events")
    check(rc == 0, err)
    return sum(e["kind"] == "try" for e in json.loads(out)["events"])


@test
def a_round_two_that_meets_the_budget_says_so():
    # every change drawn: the line says where round two ended, not a count
    # left short of its total
    args = ("sweep", T12, "--budgets", "80%,60%", "--max-candidates", "all")
    rc, plain, _ = piped(*args)
    rc, out, tty = on_terminal(*args, env=EVERY)
    check(rc == 0 and out == plain, f"exit {rc}; stdout differs: {out[:200]!r}")
    lines = rewrites(tty)
    for i, budget in ((1, "80%"), (2, "60%")):
        n = tries(("fit", T12, "--budget", budget, "--max-candidates", "all"))
        check(0 < n < 427, n)
        head = f"sweep {i} of 2 ({budget}): round two"
        mine = [ln for ln in lines if ln.startswith(head)]
        check(mine and re.fullmatch(rf"{re.escape(head)}: budget met after {n} tries  \d+ s *", mine[-1]),
              f"{n} tries: {mine[-3:]}")
        check(re.match(rf"{re.escape(head)} {n} of 427 tries ", mine[-2]), mine[-3:])
    check(any(ln.startswith("sweep of 2 budgets: round one, shared: 427 of 427 scorings (100%)") for ln in lines),
          [ln for ln in lines if "round one" in ln][-2:])
    rc, out, tty = on_terminal("fit", T12, "--budget", "60%", "--max-candidates", "all", env=EVERY)
    n = tries(("fit", T12, "--budget", "60%", "--max-candidates", "all"))
    check(rc == 0 and re.fullmatch(rf"fit 60%: round two: budget met after {n} tries  \d+ s *", rewrites(tty)[-1]),
          rewrites(tty)[-3:])


@test
def the_baseline_exact_improve_save_and_audit_are_named():
    db = os.path.join(TMP, "phases.db")
    args = ("fit", SMALL, "--budget", "60%", "--max-candidates", "all", "--audit", "--exact", "--improve",
            "--iterations", "40", "--save", "--db", db)
    if os.path.exists(db):
        os.remove(db)
    rc, plain, err = piped(*args)
    check(rc == 0 and "audit: " in err, f"exit {rc}, stderr {err!r}")
    os.remove(db)
    rc, out, tty = on_terminal(*args, env=EVERY, cols=200)

    def timeless(text):  # the searches say how long they took
        return re.sub(r"\d+\.\d{3} s\)", "T s)", text)
    check(rc == 0 and timeless(out) == timeless(plain), f"exit {rc}; stdout differs: {out[:300]!r}")
    lines = rewrites(tty)
    check(all(ln.startswith("fit 60%, auditing: ") for ln in lines[:-1]), lines[:3])
    phases = []
    for ln in lines[:-1]:  # the last is the audit's summary, after the line went
        body = ln[len("fit 60%, auditing: "):]
        phase = re.match(r"scoring the baseline|round one|round two|exact|improving|saving the plan", body)
        check(phase, ln)
        if not phases or phases[-1] != phase.group(0):
            phases.append(phase.group(0))
    check(phases == ["scoring the baseline", "round one", "round two", "exact", "improving", "saving the plan"], phases)
    exact = [ln for ln in lines if ": exact: " in ln]
    check(re.search(r": exact: 40 subsets scored, \d+ s, 40 of 40 scorings *$", exact[-1]), exact[-1])
    improving = [ln for ln in lines if ": improving: " in ln]
    check(all(re.search(r": improving: \d+ moves?, [\d,]+ scored, \d+ s, [\d,]+ of 40 scorings *$", ln)
              for ln in improving), improving[:2])
    saving = [ln for ln in lines if ": saving the plan: " in ln]
    m = re.search(r": saving the plan: ([\d,]+) of ([\d,]+) events \((\d+)%\)", saving[-1])
    n_events = len(__import__("json").loads(piped("fit", SMALL, "--budget", "60%", "--max-candidates", "all",
                                                   "--json", "--events")[1])["events"])
    check(m and count(m.group(1)) == count(m.group(2)) == n_events, (saving[-1], n_events))
    check(screen(tty, 200) == err.rstrip("\n").split("\n"), (screen(tty, 200), err))


@test
def a_floor_warning_is_said_without_the_line():
    args = ("fit", SMALL, "--budget", "1KiB", "--max-candidates", "all")
    rc, plain, err = piped(*args)
    check(rc == 0 and err.startswith("rematscope: floor: "), err)
    rc, out, tty = on_terminal(*args, env=EVERY, cols=400)
    check(rc == 0 and out == plain, rc)
    check(rewrites(tty)[0].startswith("fit 1KiB: scoring the baseline"), rewrites(tty)[:2])
    check(screen(tty, 400) == [err.rstrip("\n")], screen(tty, 400))


@test
def interrupt_stops_improve_too():
    setup()
    args = ("fit", T24, "--budget", "60%", "--improve", "--time-limit", "600")
    warned = piped("fit", T24, "--budget", "60%")[2].rstrip("\n")  # the cap's floor is above 60%
    check(warned.startswith("rematscope: floor: "), warned)
    rc, out, tty = on_terminal(*args, interrupt_when=r"improving: ", cols=400)
    check(rc == 130 and out == "", f"exit {rc}: {tty[-300:]!r}")
    check(screen(tty, 400) == [warned, "rematscope: fit stopped (^C)"], screen(tty, 400))


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
    check(any(ln.startswith("fit 60%: ") for ln in rewrites(tty)), f"no progress before the error: {tty!r}")
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
def verify_says_where_it_is_and_stops_on_interrupt():
    """verify of two saved plans of transformer_24: the line names the plan
    of how many and its stage (the plain path took 7 minutes on a real step
    with nothing said), is erased before each plan's result, which stdout
    gets as without a terminal; ^C stops it with one line, status 130."""
    setup()
    db = os.path.join(TMP, "verify.db")
    for b in ("60%", "minimize"):
        p = subprocess.run([BIN, "--db", db, "fit", T24, "--budget", b, "--save", "--no-progress"],
                           capture_output=True, text=True, env=ENV, timeout=600)
        check(p.returncode == 0, p.stderr)
    rc, out, tty = on_terminal("verify", db=db, env=EVERY)
    check(rc == 0 and out == "plan 1: ok\nplan 2: ok\n", (rc, out, tty[-300:]))
    said = rewrites(tty)
    for want in ("verify plan 1 (1 of 2): scoring the baseline", "verify plan 1 (1 of 2): scoring the final plan",
                 "verify plan 2 (2 of 2): checking the layout"):
        check(any(ln.startswith(want + "  ") for ln in said), (want, said[:12]))
    check(any(re.match(r"verify plan 2 \(2 of 2\): replaying the flips [0-9,]+ of [0-9,]+ flips \([0-9]+%\)  "
                       r"[0-9]+ s$", ln) for ln in said), said[:12])
    check(screen(tty, 80) == [], screen(tty, 80))  # erased: nothing stays on the terminal
    rc, out, _ = on_terminal("verify", "--no-progress", db=db)
    check(rc == 0 and out == "plan 1: ok\nplan 2: ok\n", out)
    rc, out, tty = on_terminal("verify", db=db, env=EVERY, interrupt_when=r"replaying the flips")
    check(rc == 130 and screen(tty, 80) == ["rematscope: verify stopped (^C)"], (rc, screen(tty, 80)))


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
