"""What the tmux-driven TUI tests share (tests/tui_test.py,
tests/tui_scale_test.py): a temporary folder and tmux socket, the Tui
class that runs the real binary in a tmux session of a given size and
reads its screen, and the few key sequences most tests start with.

init(BIN, SAMPLES) sets the module's BIN, SAMPLES, TMP, SOCK and DB."""
import os
import re
import subprocess
import tempfile
import time

BIN = SAMPLES = TMP = SOCK = DB = None


def init(bin_path, samples, prefix="rs_tui_"):
    """Sets the binary and the samples folder, makes the temporary folder
    (TMP), the tmux socket (SOCK) and the default store's path (DB)."""
    global BIN, SAMPLES, TMP, SOCK, DB
    BIN, SAMPLES = os.path.abspath(bin_path), os.path.abspath(samples)
    TMP = tempfile.mkdtemp(prefix=prefix)
    SOCK = os.path.join(TMP, "tmux.sock")
    DB = os.path.join(TMP, "session.db")


def flops(v):
    """units_format_flops: "512 FLOPs", "75.3 kFLOPs", "1.31 MFLOPs"."""
    if -1000 < v < 1000:
        return f"{v} FLOPs"
    names = ["FLOPs", "kFLOPs", "MFLOPs", "GFLOPs", "TFLOPs", "PFLOPs", "EFLOPs"]
    k = 0
    while k + 1 < len(names) and abs(v) / 10 ** (3 * k) >= 999.5:
        k += 1
    x = v / 10 ** (3 * k)
    return f"{x:.0f} {names[k]}" if abs(x) >= 99.95 else f"{x:.1f} {names[k]}" if abs(x) >= 9.995 else \
        f"{x:.2f} {names[k]}"


def recompute_text(extra, base):
    """text_recompute without a profile: "+310 MFLOPs (+146.566%)"."""
    return f"{'+' if extra >= 0 else ''}{flops(extra)} ({100.0 * extra / base if base else 0.0:+.3f}%)"


def units(v):
    """units_format_bytes: "512 B", "48.0 MiB", "2.00 TiB"."""
    if -1024 < v < 1024:
        return f"{v} B"
    d, k = float(v), -1
    while abs(d) >= 1024 and k < 5:
        d /= 1024
        k += 1
    unit = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"][k]
    return f"{d:.0f} {unit}" if abs(d) >= 100 else f"{d:.1f} {unit}" if abs(d) >= 10 else f"{d:.2f} {unit}"


def tmux(*args, check=True):
    p = subprocess.run(["tmux", "-S", SOCK, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"tmux {' '.join(args[:4])}: {p.stderr.strip()}")
    return p


class Tui:
    def __init__(self, name, w=120, h=40, env=None, args=None, db=None, wrap=""):
        """wrap: a command line the binary runs under ("valgrind ...")."""
        self.name = name
        e = {"LANG": "C.UTF-8", "LC_ALL": "", "TERM": "xterm-256color", "XDG_DATA_HOME": TMP,
             "XDG_CONFIG_HOME": TMP}  # no config file unless a test writes one
        for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):  # a tmux server may not carry them
            if k in os.environ:
                e[k] = os.environ[k]
        e.update(env or {})
        envs = " ".join(f"{k}='{v}'" for k, v in e.items())
        argv = " ".join(args if args is not None else ["--db", db or DB])
        self.marker = os.path.join(TMP, f"{name}.exit")
        cmd = (f"env -u NO_COLOR {envs} {wrap} {BIN} {argv}; echo $? > {self.marker}; "
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
    """Selects name in the session list (by search) and opens it (y when
    it asks whether that may drop a fit not saved)."""
    t.keys("/")
    t.type(name)
    t.keys("Enter", "Enter")
    asked = re.compile(r"opening \S+ drops the fit to .* you did not save: go on\?")
    s = t.wait(re.compile(r"peak @ step|" + asked.pattern))
    if asked.search(s):
        t.keys("y")
        t.wait(re.compile(r"opened .*: arena"))
    t.wait("peak @ step")


def fit_anyway(t, timeout=10.0):
    """After Enter on the Fit prompt: answers y when the TUI asks whether to
    fit a budget below the floor (DESIGN §13), and y when it asks whether
    the new fit may replace an unsaved one; whether it asked the first."""
    # the question may wrap (a y/n question keeps its end on the rows
    # above), and it comes after the floor is found, a moment after the
    # prompt goes: until the fit shows it has started, it may still come
    started = re.compile(r"round (one|two) +[0-9]+/|event [0-9]+/|budget missed|fit stopped|no flips|error")
    end = time.time() + timeout
    while time.time() < end:
        s = t.screen()
        if re.search(r"anyway\?\s+\(y/n[;)]", s):  # "(y/n; a: with every candidate...)" under the cap
            t.keys("y")
            # the question whether it may replace an unsaved fit comes after
            end2 = time.time() + timeout
            while time.time() < end2:
                s = t.screen()
                if re.search(r"you did not save: go on\?\s+\(S on Fit saves it\)\s+\(y/n\)", s):
                    t.keys("y")
                    return True
                if "anyway?" not in s and started.search(s):
                    return True
                time.sleep(0.05)
            return True
        if re.search(r"you did not save: go on\?\s+\(S on Fit saves it\)\s+\(y/n\)", s):
            t.keys("y")
            return False
        if "fit to budget (" not in s and started.search(s):
            return False
        time.sleep(0.05)
    raise AssertionError(f"the Fit prompt stayed, or neither the question nor the fit came:\n{t.screen()}")


def fit_on(t, routine, budget):
    """Opens routine from the Session screen and starts a fit to budget
    (below the floor too: the question is answered y)."""
    t.wait("Routines")
    open_routine(t, routine)
    t.keys("f")
    t.type(budget)
    t.keys("Enter")
    fit_anyway(t)


def save_and_export(t, routine, label, path, what, typed=True):
    """Fits routine to minimize, saves the plan as label, and exports it
    from the Plans screen to path as what (typed, or the one the prompt
    offers for path); the plan's id."""
    fit_on(t, routine, "minimize")
    t.wait("event 0/")
    t.keys("S")
    t.type(label)
    t.keys("Enter")
    s = t.wait("saved as plan")
    pid = re.search(r"saved as plan ([0-9]+)", s).group(1)
    t.keys("5")
    t.wait(label)
    t.keys("e", "C-u")
    t.type(path)
    t.keys("Enter")
    if typed:
        t.keys("C-u")
        t.type(what)
    else:
        t.wait(f"what (plans, flips, events, layout, origins, frontier, svg): {what}")
    t.keys("Enter")
    t.wait(f"wrote 1 plan ({what})")
    return pid


def add_budgets(t, *budgets):
    """On Compare (4), adds each budget and waits for its row."""
    t.keys("4")
    for b in budgets:
        t.keys("a")
        t.type(b)
        t.keys("Enter")
        t.wait(re.compile(r"[0-9] %s[ =]" % re.escape(b)))  # "90%=35.1M" at 80 columns
