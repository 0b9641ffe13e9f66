#!/usr/bin/env python3
"""TUI end-to-end tests: the real binary inside tmux, driven with send-keys
and read with capture-pane, on a temporary store loaded with the samples.

usage: tui_test.py REMATSCOPE SAMPLES_DIR
"""
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, test  # noqa: E402
import time

BIN, SAMPLES = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TMP = tempfile.mkdtemp(prefix="rs_tui_")
SOCK = os.path.join(TMP, "tmux.sock")
DB = os.path.join(TMP, "session.db")


def tmux(*args, check=True):
    p = subprocess.run(["tmux", "-S", SOCK, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"tmux {' '.join(args[:4])}: {p.stderr.strip()}")
    return p


class Tui:
    def __init__(self, name, w=120, h=40, env=None, args=None, db=DB):
        self.name = name
        e = {"LANG": "C.UTF-8", "LC_ALL": "", "TERM": "xterm-256color", "XDG_DATA_HOME": TMP}
        e.update(env or {})
        envs = " ".join(f"{k}='{v}'" for k, v in e.items())
        argv = " ".join(args if args is not None else ["--db", db])
        self.marker = os.path.join(TMP, f"{name}.exit")
        cmd = (f"env -u NO_COLOR {envs} {BIN} {argv}; echo $? > {self.marker}; "
               f"stty -a > {self.marker}.stty; sleep 60")
        for attempt in range(5):  # a server still exiting from the last session refuses for a moment
            if tmux("new-session", "-d", "-s", name, "-x", str(w), "-y", str(h), cmd, check=False).returncode == 0:
                break
            time.sleep(0.3)
        else:
            raise AssertionError(f"tmux new-session {name} failed")
        tmux("set-option", "-t", name, "window-size", "manual")

    def keys(self, *keys):
        for k in keys:
            tmux("send-keys", "-t", self.name, k)
            time.sleep(0.08)

    def type(self, text):
        tmux("send-keys", "-t", self.name, "-l", text)
        time.sleep(0.1)

    def screen(self, escapes=False):
        return tmux("capture-pane", "-p", *(["-e"] if escapes else []), "-t", self.name).stdout

    def wait(self, text, timeout=8.0):
        end = time.time() + timeout
        while time.time() < end:
            s = self.screen()
            if (text.search(s) if isinstance(text, re.Pattern) else text in s):
                return s
            time.sleep(0.1)
        raise AssertionError(f"{text!r} not on screen:\n{self.screen()}")

    def exit_status(self, timeout=5.0):
        end = time.time() + timeout
        while time.time() < end:
            if os.path.exists(self.marker) and os.path.exists(self.marker + ".stty"):
                time.sleep(0.1)
                with open(self.marker) as f:
                    status = f.read().strip()
                with open(self.marker + ".stty") as f:
                    stty = f.read()
                return status, stty
            time.sleep(0.1)
        raise AssertionError("the app did not exit")

    def close(self):
        tmux("kill-session", "-t", self.name, check=False)






def cooked(stty):
    return re.search(r"(?<!-)\bicanon\b", stty) and re.search(r"(?<!-)\becho\b", stty)


def open_routine(t, name):
    """Selects name in the session list (by search) and opens it."""
    t.keys("/")
    t.type(name)
    t.keys("Enter", "Enter")
    t.wait("peak @ step")


subprocess.run([BIN, "import", SAMPLES, "--db", DB], check=True, capture_output=True)
BIG = os.path.join(TMP, "big.routine")  # a fit long enough to cancel
subprocess.run([BIN, "gen", "transformer", "--layers", "32", "-o", BIG], check=True, capture_output=True)
subprocess.run([BIN, "import", BIG, "--db", DB], check=True, capture_output=True)


@test
def session_list_and_help():
    t = Tui("session")
    try:
        s = t.wait("Routines (17)")
        check(re.search(r"mlp_step\s+15\s+19\s+9\.47 MiB", s), s)
        check(re.search(r"pair_peak\s+4\s+5\s+104 MiB", s), s)
        check("a100-80gb" in s and "80.0 GiB" in s, s)
        t.keys("?")
        s = t.wait("Help: Session")
        check("import a file by path" in s and "edit bindings" in s, s)
        t.keys("Escape")
        t.keys("q")
        status, stty = t.exit_status()
        check(status == "0" and cooked(stty), (status, stty))
    finally:
        t.close()


@test
def bindings_change_the_footprint():
    t = Tui("binds")
    try:
        t.wait("Routines")
        open_routine(t, "mlp_step")
        t.keys("1", "b")
        t.type("B=512")
        t.keys("Enter")
        s = t.wait("bindings: B=512")
        # x [512, 784] f32 alone is 1.5 MiB; the arena grows from 9.47 MiB
        check(re.search(r"open: mlp_step\s+arena (2[0-9]\.[0-9]|1[0-9]\.[0-9]) MiB", s), s)
    finally:
        t.close()


@test
def arena_with_peak_marker():
    t = Tui("arena")
    try:
        t.wait("Routines")
        open_routine(t, "mlp_step")
        s = t.screen()
        check("▼" in s and "peak @ step 12" in s, s)
        check("max live 9.47 MiB (lower bound)" in s and "arena 9.47 MiB" in s, s)
        check("resident" in s and "candidate" in s, s)
        check(re.search("[\u2801-\u28ff]", s), "the live-bytes curve in braille")
        t.keys("c")
        s = t.wait("curve: blocks")
        check(not re.search("[\u2801-\u28ff]", s) and re.search("[▁▂▃▄▅▆▇]", s), s)
        t.keys("/")
        t.type("gw1")
        t.keys("Enter")
        s = t.wait("span    steps 10-12")
        check("op      matmul" in s and "readers w1n" in s, s)
    finally:
        t.close()


@test
def layout_strategy_toggle():
    t = Tui("layout")
    try:
        t.wait("Routines")
        open_routine(t, "resnet_4")
        s = t.screen()
        # the greedy leaves 8,365,604 B where max live is 8,064,548 B
        check("max live 7.69 MiB (lower bound)" in s and "arena 7.98 MiB (+3.73%, greedy)" in s, s)
        t.keys("L")  # greedy -> timeline -> tight -> greedy
        s = t.wait("layout timeline: arena 8.11 MiB")  # 8,507,684 B
        check("(7.98 MiB with greedy, +1.70%)" in s, s)
        check("arena 8.11 MiB (+5.49%, timeline)" in s, s)
        t.keys("L")
        s = t.wait("layout tight: arena 7.69 MiB")
        check("(8.11 MiB with timeline, -5.21%), at max live: optimal" in s, s)
        check("arena 7.69 MiB (+0.00%, tight)" in s, s)
        t.keys("L")
        s = t.wait("layout greedy: arena 7.98 MiB")
        check("arena 7.98 MiB (+3.73%, greedy)" in s, s)
    finally:
        t.close()


@test
def fit_held_event_and_why():
    t = Tui("fit")
    try:
        t.wait("Routines")
        open_routine(t, "pair_peak")
        t.keys("f")
        t.type("minimize")
        t.keys("Enter")
        t.wait("event 1/")
        t.keys("r")  # round two
        t.wait("round two: try X")
        t.keys("n")
        s = t.wait("X held: alone it relieves nothing (104 MiB = current); held group now {X}")
        check(re.search(r"X\s.*held", s), s)
        t.keys("n", "n")
        s = t.wait("load-bearing group {X} committed with Y")
        check("arena with 2 accepted flips: 4.00 MiB" in s, s)
        t.keys("j", "Enter")  # why of Y (the second candidate)
        s = t.wait("Why: Y")
        check("Y committed in round two, closing the load-bearing group {X}" in s, s)
        t.keys("Escape")
    finally:
        t.close()


@test
def cancel_a_running_fit():
    t = Tui("cancel")
    try:
        t.wait("Routines")
        open_routine(t, "transformer_32")
        t.keys("f")
        t.type("minimize")
        t.keys("Enter")
        t.wait("^C cancels the fit")
        t.keys("C-c")
        s = t.wait("fit cancelled")
        check("peak @ step" in s, "still in the app, on the arena")
        t.keys("3")
        t.wait("No fit yet.")
    finally:
        t.close()


@test
def why_on_an_accepted_flip():
    t = Tui("why")
    try:
        t.wait("Routines")
        open_routine(t, "mlp_step")
        t.keys("f")
        t.type("7MiB")
        t.keys("Enter")
        t.wait("event 1/")
        t.keys("a")
        t.wait("gw1 accepted: relieved 2.81 MiB")
        t.keys("Enter")
        s = t.wait("Why: gw1")
        check("gw1 accepted in round two: relieved 2.81 MiB on top of the baseline; ranked 1st" in s, s)
    finally:
        t.close()


@test
def compare_two_budgets():
    t = Tui("compare")
    try:
        t.wait("Routines")
        open_routine(t, "pair_peak")
        t.keys("4", "a")
        t.type("50MiB")
        t.keys("Enter", "a")
        t.type("minimize")
        t.keys("Enter")
        s = t.wait(re.compile(r"2 minimize\s+4\.00 MiB"))
        check(re.search(r"1 50MiB\s+4\.00 MiB\s+4194304\s+2", s), s)
        check("2 budgets on pair_peak, one search: reuse" in s, s)
        check("row 2 vs the row above: the same flips" in s, s)
    finally:
        t.close()


@test
def save_and_export_a_plan():
    t = Tui("export")
    out = os.path.join(TMP, "exported.csv")
    try:
        t.wait("Routines")
        open_routine(t, "harmful_hold")
        t.keys("f")
        t.type("minimize")
        t.keys("Enter")
        t.wait("event 1/")
        t.keys("S")
        t.type("from, the TUI")
        t.keys("Enter")
        t.wait("saved as plan")
        t.keys("5")
        t.wait("from, the TUI")
        t.keys("e", "C-u")
        t.type(out)
        t.keys("Enter", "C-u")
        t.type("flips")
        t.keys("Enter")
        t.wait("wrote 1 plan (flips)")
        with open(out, newline="") as f:
            rows = list(csv.DictReader(f))
        check([(r["node"], r["relief"]) for r in rows] == [("P", str(10 << 20)), ("Y", str(46 << 20))], rows)
    finally:
        t.close()


@test
def resize_small_and_back():
    t = Tui("resize")
    try:
        t.wait("Routines")
        tmux("resize-window", "-t", "resize", "-x", "50", "-y", "15")
        s = t.wait("terminal too small: 50x15")
        check("needs 60x18" in s, s)
        tmux("resize-window", "-t", "resize", "-x", "120", "-y", "40")
        s = t.wait("Routines (17)")
        check("terminal too small" not in s, s)
    finally:
        t.close()


@test
def no_color():
    t = Tui("nocolor", env={"NO_COLOR": "1"})
    try:
        t.wait("Routines")
        s = t.screen(escapes=True)
        check(not re.search(r"\x1b\[[0-9;]*(3[0-7]|4[0-7]|38;5|48;5)", s), repr(s[:400]))
        check("\x1b[7m" in s or "\x1b[1m" in s or "\x1b[1;7m" in s, "reverse or bold still marks things")
        open_routine(t, "mlp_step")
        s = t.screen()
        check("▒" in s and "█" in s, "roles differ by glyph without colour")
    finally:
        t.close()


@test
def ascii_under_lang_c():
    t = Tui("langc", env={"LANG": "C", "LC_ALL": "C"})
    try:
        t.wait("Routines")
        open_routine(t, "mlp_step")
        s = t.screen()
        check("v" in s and "peak @ step 12" in s and "▼" not in s, s)
        check(":" in s and "#" in s and "█" not in s and "▒" not in s, s)
    finally:
        t.close()


@test
def terminal_restored_on_signals():
    for sig, env, keys in (("TERM", {}, None), ("INT", {}, None), ("SEGV", {"RS_TEST_CRASH": "1"}, "Z"),
                           ("ABRT", {"RS_TEST_CRASH": "1"}, "Y")):
        t = Tui("sig" + sig, env=env)
        try:
            t.wait("Routines")
            if keys:
                t.keys(keys)
            else:
                pid = subprocess.run(["pgrep", "-f", f"{BIN} --db {DB}", "-n"], capture_output=True,
                                     text=True).stdout.split()
                check(pid, "the app's pid")
                subprocess.run(["kill", f"-{sig}", pid[0]])
            status, stty = t.exit_status()
            check(cooked(stty), f"{sig}: terminal not back in cooked mode: {stty}")
            check(status != "0", f"{sig}: exit status {status}")
        finally:
            t.close()


@test
def extreme_sizes_and_a_resize_storm():
    t = Tui("sizes")
    try:
        t.wait("Routines")
        open_routine(t, "transformer_2")
        for w, h in ((1, 1), (400, 200), (2, 100), (300, 3)):
            tmux("resize-window", "-t", "sizes", "-x", str(w), "-y", str(h))
            time.sleep(0.3)
            s = t.screen()
            if w >= 60 and h >= 18:
                check("peak @ step" in s, f"{w}x{h}:\n{s[:500]}")
        for i in range(100):
            tmux("resize-window", "-t", "sizes", "-x", str(40 + (i * 37) % 200), "-y", str(10 + (i * 13) % 60))
        tmux("resize-window", "-t", "sizes", "-x", "120", "-y", "40")
        s = t.wait("peak @ step")
        check("rematscope" in s and "terminal too small" not in s, s)
        t.keys("q", "q")
        status, stty = t.exit_status()
        check(status == "0" and cooked(stty), (status, stty))
    finally:
        t.close()


shutil.rmtree(TMP, ignore_errors=True) if not failed() else None
tmux("kill-server", check=False)
finish()
