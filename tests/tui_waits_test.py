#!/usr/bin/env python3
"""No silent re-runs (issue 27, goal 3), the real binary in tmux: a stored
plan opened in the stepper is replayed from its events (no fit: the reuse
counters do not move) and shows what a fresh fit of its budget shows;
Compare keeps its rows across screens and fits again only when what they
were fitted on changes; a long wait (a fit, Compare's search, x) shows a
progress bar saying what is done over a status bar that stays drawn, and
^C stops it with the app still usable; D after x's (or I's) wait shows
the answer `fit --exact --improve --json` gives.  Also the Fit table's round-one
order (issue 28, item 12).

usage: tui_waits_test.py REMATSCOPE SAMPLES_DIR
"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, test  # noqa: E402
import tuilib  # noqa: E402

tuilib.init(sys.argv[1], sys.argv[2], prefix="rs_tui_waits_")
from tuilib import BIN, DB, SAMPLES, TMP, Tui, add_budgets, fit_on, open_routine, recompute_text, units  # noqa: E402

subprocess.run([BIN, "import", SAMPLES, "--db", DB], check=True, capture_output=True)
BIG = os.path.join(TMP, "t48.routine")  # waits long enough to see the bar and stop it
subprocess.run([BIN, "gen", "transformer", "--layers", "48", "-o", BIG], check=True, capture_output=True)
subprocess.run([BIN, "import", BIG, "--db", DB], check=True, capture_output=True)
BIG_NAME = "transformer_48"
HUGE = os.path.join(TMP, "t96.routine")  # every candidate of it: a fit of seconds even unloaded
subprocess.run([BIN, "gen", "transformer", "--layers", "96", "-o", HUGE], check=True, capture_output=True)
subprocess.run([BIN, "import", HUGE, "--db", DB], check=True, capture_output=True)


def reuse(s):
    """The status bar's reuse counters (the process's scorings: reused/lowered)."""
    m = re.findall(r"reuse ([0-9]+/[0-9]+)", s.rstrip().split("\n")[-1])
    check(m, "the status bar shows the reuse counters: " + s.rstrip().split("\n")[-1])
    return m[-1]


def body(s):
    """The screen without its last two rows (the status line and bar)."""
    return s.split("\n")[1:-3]


@test
def stored_plan_replays_without_a_fit():
    db = os.path.join(TMP, "replay.db")
    subprocess.run([BIN, "import", SAMPLES, "--db", db], check=True, capture_output=True)
    t = Tui("replay", db=db)
    try:
        fit_on(t, "harmful_hold", "minimize")
        t.wait("event 0/")
        fresh = [t.screen()]
        t.keys("e")
        fresh.append(t.wait(re.compile(r"event ([0-9]+)/\1")))
        t.keys("S")
        t.type("kept")
        t.keys("Enter")
        t.wait("saved as plan 1")
        before = reuse(t.screen())
        t.keys("5")
        t.wait("kept")
        t.keys("Enter")
        s = t.wait("plan 1 replayed from the store (no fit)")
        check(reuse(s) == before, f"no scoring ran: reuse {before} -> {reuse(s)}")
        check(s.split("\n")[:-3][1:] == body(fresh[0]), "the same table and events as the fresh fit:\n" + s)
        t.keys("e")
        s = t.wait(re.compile(r"event ([0-9]+)/\1"))
        check(body(s) == body(fresh[1]), "the same last event and verdicts:\n" + s + "\n---\n" + fresh[1])
        check(reuse(t.screen()) == before, "stepping scores no fit")
    finally:
        t.close()


def rows(s):
    """Compare's table rows: "1 7MiB ..." lines."""
    return [ln for ln in s.split("\n") if re.match(r"^ +[0-9]+[ *](7MiB|minimize) ", ln)]


@test
def compare_keeps_its_rows():
    t = Tui("cmpkeep")
    try:
        t.wait("Routines")
        open_routine(t, "mlp_step")
        add_budgets(t, "7MiB", "minimize")
        s = t.wait(re.compile(r"2 minimize +[0-9.]+ MiB"))
        table, before = rows(s), reuse(s)
        check(len(table) == 2, s)
        t.keys("g", "Enter")  # row 1 in the stepper, then back
        t.wait("row 1 (7MiB):")
        t.keys("4")
        s = t.wait("2 budgets on mlp_step")
        check(rows(s) == table, "the rows, at once:\n" + s)
        check(reuse(s) == before, f"nothing fitted again: reuse {before} -> {reuse(s)}")
        t.keys("2")
        t.wait("peak @ step")
        t.keys("5", "4")
        s = t.wait("2 budgets on mlp_step")
        check(rows(s) == table and reuse(s) == before, "from the Arena and Plans too:\n" + s)
        # the cap changes what they were fitted on: fitted again
        t.keys("C", "C-u")
        t.type("2")
        t.keys("Enter")
        s = t.wait(re.compile(r"1 7MiB .* 2 +[0-9]+ +(yes|no)"))
        check(reuse(s) != before, f"a new cap fits again: reuse {before} -> {reuse(s)}")
        check(all(re.search(r" 2 +[0-9]+ +(yes|no)", r) for r in rows(s)), "every row under cap 2:\n" + s)
    finally:
        t.close()


def bar_over_status(s, words, routine=BIG_NAME):
    """The progress bar's row (words, a bar, seconds in 5 columns, ^C
    stops) over the status bar of routine, still drawn; the bar's row."""
    lines = s.rstrip("\n").split("\n")
    check(words in lines[-2] and re.search(r"[█░]{10,} +[0-9]+\.[0-9]( of [0-9]+)? s  \^C stops", lines[-2]), lines[-2])
    # the seconds take 5 columns from the first (a wider number took a column from the words)
    secs = re.search(r"[█░] ( *[0-9]+\.[0-9])( of [0-9]+)? s  \^C", lines[-2])
    check(secs and len(secs.group(1)) >= 5, ("the seconds unpadded", lines[-2]))
    check(lines[-1].startswith(f" routine {routine} │") and "reuse " in lines[-1], "the status bar: " + lines[-1])
    return lines[-2]


def start_compare(t, budgets):
    """Opens the big routine and adds budgets (one line, "90%,minimize") on
    Compare, without waiting for their rows: the search starts."""
    t.wait("Routines")
    open_routine(t, BIG_NAME)
    t.keys("4", "a")
    t.type(budgets)
    t.keys("Enter")


@test
def compare_search_shows_its_bar_and_stops():
    t = Tui("cmpbar", w=140)
    try:
        start_compare(t, "90%,minimize")
        s = t.wait(re.compile(r"Compare: 2 budgets on transformer_48: (round one, shared +[0-9]+/[0-9]+ scorings|"
                              r"budget [12] of 2: [0-9a-z%]+: round two +[0-9]+/[0-9]+ tries at most)"), timeout=20)
        bar_over_status(s, "Compare: 2 budgets on transformer_48")
        t.keys("C-c")
        s = t.wait("Compare stopped", timeout=20)
        # a budget the stop found finished stays (90% is quick under the default cap)
        if "Enter on a row fits them all" in s:
            check(s.count("(stopped: Enter fits)") == 2, s)
        else:
            check("Compare stopped with 1 of 2 budgets fitted" in s and s.count("(stopped: Enter fits)") == 1, s)
        t.keys("2")  # the app goes on
        t.wait("peak @ step")
    finally:
        t.close()


@test
def compare_refit_stopped_shows_no_old_numbers():
    """A refit Compare starts when the cap changes, stopped with ^C: the
    rows say "(stopped: Enter fits)" and nothing of the plans before (the
    wait drew them under its bar; the screen is drawn again whole)."""
    t = Tui("cmpstale", w=140)
    try:
        t.wait("Routines")
        open_routine(t, BIG_NAME)
        add_budgets(t, "90%")
        s = t.wait(re.compile(r"1 90%( = [0-9.]+ GiB)? +[0-9.]+ GiB"), timeout=60)
        t.keys("C", "C-u")
        t.type("all")
        t.keys("Enter")
        t.wait(re.compile(r"Compare: 1 budget on transformer_48: budget 1 of 1: 90%: round (one +[0-9]+/[0-9]+ scorings|"
                          r"two +[0-9]+/[0-9]+ tries at most)"), timeout=20)
        t.keys("C-c")
        s = t.wait("Compare stopped", timeout=20)
        row = [ln for ln in s.split("\n") if re.match(r"^ +1 90% ", ln)]
        check(len(row) == 1 and re.match(r"^ +1 90% +\(stopped: Enter fits\) *$", row[0]), "the stopped row alone:\n" + s)
        check("GiB" not in "\n".join(body(s)[3:]), "no footprint of the plans before:\n" + s)
    finally:
        t.close()


@test
def fit_below_the_floor_blames_the_floor():
    """A budget below the floor is missed whatever the cap: the status says
    the floor first, not only "the cap kept 32 of 1687" (walkthrough, the
    13.5k dump), then the cap, which is why the fit made so few flips (a
    second walk read the floor alone as the whole story)."""
    t = Tui("floorwhy", w=140)
    try:
        fit_on(t, BIG_NAME, "1MiB")
        s = t.wait("budget missed", timeout=60)
        check(re.search(r"fit 1MiB: budget missed: below the floor, [0-9.]+ [KMG]iB, no plan reaches it; "
                        r"the cap kept 32 of 1687 \(C sets it\)", s), s)
    finally:
        t.close()


@test
def compare_row_saved_counts_as_saved():
    """A Compare row saved with S and opened on Fit is the stored plan:
    opening another plan asks nothing (walkthrough: it asked "replaces the
    fit you did not save").  A question that does ask wraps at 80 columns
    and keeps its "(y/n)" whole."""
    db = os.path.join(TMP, "cmpsave.db")
    subprocess.run([BIN, "import", SAMPLES, "--db", db], check=True, capture_output=True)
    t = Tui("cmpsave", db=db, w=80, h=24)
    try:
        t.wait("Routines")
        open_routine(t, "mlp_step")
        add_budgets(t, "minimize")
        t.wait(re.compile(r"1 minimize +[0-9.]+ MiB"))
        t.keys("S")
        t.type("rowkept")
        t.keys("Enter")
        t.wait("saved as plan 1")
        t.keys("Enter")  # the row on Fit
        t.wait("row 1 (minimize)")
        t.keys("5")
        t.wait("rowkept")
        t.keys("Enter")
        s = t.wait("plan 1 replayed from the store (no fit)")
        check("did not save" not in s, s)
        # an unsaved fit: the question asks, wrapped, its end whole
        t.keys("f")
        t.type("minimize")
        t.keys("Enter")
        t.wait("event 0/")
        t.keys("5")
        t.wait("rowkept")
        t.keys("Enter")
        s = t.wait("(y/n)")
        q = [ln for ln in s.split("\n") if "did not save" in ln or "(y/n)" in ln]
        check(q and q[-1].rstrip().endswith("(y/n)") and "…" not in "".join(q), "the question whole:\n" + s)
        t.keys("n")
    finally:
        t.close()


@test
def bar_keeps_how_far_at_80_columns():
    """At 80 columns the bar's words give way from the work's name, then
    what the count counts, not from what it is doing: "budget 2 of 2:
    minimize: round two" stays whole."""
    t = Tui("bar80", w=80, h=24)
    try:
        start_compare(t, "90%,minimize")
        s = t.wait(re.compile(r"budget 2 of 2: minimize: round two +[0-9]+/[0-9]+ [█░]{10,} +[0-9]+\.[0-9] s  \^C stops"),
                   timeout=60)
        bar = s.rstrip("\n").split("\n")[-2]
        # a shorter name whole, not one cut to "Compar…" (it said nothing)
        check(bar.startswith("Compare: budget 2 of 2: minimize: round two") and "…" not in bar,
              "a name that fits, the doing whole: " + bar)
        t.keys("C-c")
        t.wait("Compare stopped", timeout=20)
    finally:
        t.close()


def exact_rows(s):
    """Compare's rows at 140 columns: {budget: (row number, exact final
    bytes, the rest of the line)}; a stopped row's bytes are None."""
    out = {}
    for ln in s.split("\n"):
        m = re.match(r"^ +([0-9]+)[ *]([0-9]+%|minimize)( = [0-9.]+ [KMG]iB)? +(\(stopped: Enter fits\)|"
                     r"[0-9.]+ [KMG]iB +([0-9]+) .*) *$", ln)
        if m:
            out[m.group(2)] = (int(m.group(1)), int(m.group(5)) if m.group(5) else None, m.group(4))
    return out


FIT_TOTALS = {}


def fit_total(budget):
    """The final footprint `fit BIG --budget B --max-candidates all` gives
    (each fitted once, before the TUI starts: not beside its search)."""
    if budget in FIT_TOTALS:
        return FIT_TOTALS[budget]
    p = subprocess.run([BIN, "fit", BIG, "--budget", budget, "--max-candidates", "all", "--json"], check=True,
                       capture_output=True, text=True)
    FIT_TOTALS[budget] = json.loads(p.stdout)["final"]["total"]
    return FIT_TOTALS[budget]


def cap_all(t):
    """Opens the big routine with the candidate cap set to all (slower searches)."""
    t.wait("Routines")
    open_routine(t, BIG_NAME)
    t.keys("4", "C", "C-u")
    t.type("all")
    t.keys("Enter")
    t.wait("candidate cap: all")


@test
def compare_stop_keeps_finished_rows():
    """^C at the last budget of a Compare search keeps the budgets it
    finished, each the plan `fit --budget B` gives (it dropped them all:
    four rows of "(stopped: Enter fits)"); Enter then fits only the row
    left, and the status says that search, not the stop before."""
    for b in ["90%", "80%", "70%", "minimize"]:
        fit_total(b)
    t = Tui("cmpkeepstop", w=140)
    try:
        cap_all(t)
        t.keys("4", "a")
        t.type("90%,80%,70%,minimize")
        t.keys("Enter")
        t.wait(re.compile(r"Compare: 4 budgets on transformer_48: budget 4 of 4: minimize"), timeout=240)
        t.keys("C-c")
        s = t.wait("Compare stopped", timeout=90)
        check("Compare stopped with 3 of 4 budgets fitted: Enter on a row fits the rest" in s, s)
        r = exact_rows(s)
        check(r.get("minimize", (0, 0))[1] is None and s.count("(stopped: Enter fits)") == 1, "minimize stopped:\n" + s)
        for i, b in enumerate(["90%", "80%", "70%"]):
            check(b in r and r[b][0] == i + 1 and r[b][1] == fit_total(b),
                  f"row {b} is what fit gives ({fit_total(b)} B):\n" + s)
        kept = {b: r[b] for b in ["90%", "80%", "70%"] if b in r}
        # Enter on the stopped row fits it alone
        t.keys("G", "Enter")
        s = t.wait(re.compile(r"Compare: 1 budget on transformer_48: (round one|budget 1 of 1: minimize)"), timeout=90)
        check(" of 4" not in s.rstrip("\n").split("\n")[-2], "one budget fitted: " + s.rstrip("\n").split("\n")[-2])
        s = t.wait("Compare fitted 1 budget; 3 rows kept as they were", timeout=240)
        check("Compare stopped" not in s, "no word of the stop before:\n" + s)
        r = exact_rows(s)
        check(all(r.get(b) == kept[b] for b in kept), "the rows fitted before, unchanged:\n" + s)
        check(r.get("minimize", (0, None))[1] == fit_total("minimize"), "minimize as fit gives it:\n" + s)
    finally:
        t.close()


@test
def compare_adds_only_new_rows():
    """Budgets added to fitted rows: the search fits the new ones alone
    ("budget 1 of 2", it fitted all four again), the rows before keep their
    numbers, the new rows go in budget order, and the diff line, the chart
    and S work across rows of the two searches."""
    db = os.path.join(TMP, "cmpadd.db")
    subprocess.run([BIN, "import", BIG, "--db", db], check=True, capture_output=True)
    for b in ["80%", "70%"]:
        fit_total(b)
    t = Tui("cmpadd", w=140, db=db)
    try:
        cap_all(t)
        t.keys("4", "a")
        t.type("90%,minimize")
        t.keys("Enter")
        s = t.wait(re.compile(r"2 minimize +[0-9.]+ GiB"), timeout=240)
        before = exact_rows(s)
        t.keys("a")
        t.type("80%,70%")
        t.keys("Enter")
        s = t.wait(re.compile(r"Compare: 2 budgets on transformer_48: (round one|budget [12] of 2)"), timeout=90)
        check(" of 4" not in s.rstrip("\n").split("\n")[-2], "only the new budgets: " + s.rstrip("\n").split("\n")[-2])
        s = t.wait("Compare fitted 2 budgets; 2 rows kept as they were", timeout=240)
        r = exact_rows(s)
        check([r.get(b, (0,))[0] for b in ["90%", "80%", "70%", "minimize"]] == [1, 2, 3, 4], "budget order:\n" + s)
        check(r["90%"][1:] == before["90%"][1:] and r["minimize"][1:] == before["minimize"][1:],
              "the rows before, unchanged:\n" + s)
        check(r["80%"][1] == fit_total("80%") and r["70%"][1] == fit_total("70%"), "the new rows as fit gives:\n" + s)
        check("final footprint (up) vs recompute overhead" in s, "the chart:\n" + s)
        chart = "\n".join(s.split("\n")[s.split("\n").index(next(ln for ln in s.split("\n") if "final footprint (up)" in ln)):])
        check(all(d in chart for d in "1234"), "every row on the chart:\n" + s)
        t.keys("g", "j")
        s = t.wait("row 2 vs the row above (")
        check(re.search(r"row 2 vs the row above \(\+\d+ -\d+ flips[^)]*\): +\+", s), "row 2's flips against row 1's:\n" + s)
        t.keys("G")
        s = t.wait("row 4 vs the row above (")
        t.keys("g", "S")
        t.type("kept90")
        t.keys("Enter")
        t.wait("saved as plan 1")
        t.keys("j", "S")
        t.type("new80")
        t.keys("Enter")
        t.wait("saved as plan 2")
    finally:
        t.close()


def candidates(budget):
    """How many candidates BIG has (fit --json: considered + dropped)."""
    p = subprocess.run([BIN, "fit", BIG, "--budget", budget, "--json"], check=True, capture_output=True, text=True)
    d = json.loads(p.stdout)
    return d["considered"] + d["dropped"]


def bars_until(t, head, done, timeout=90.0):
    """The progress bar rows beginning with head seen (each once, in
    order) until done (a string or pattern) is on the screen; the screen
    then."""
    seen, end = [], time.time() + timeout
    while time.time() < end:
        s = t.screen()
        bar = s.rstrip("\n").split("\n")[-2] if s.count("\n") > 2 else ""
        if bar.startswith(head) and (not seen or seen[-1] != bar):
            seen.append(bar)
        if done.search(s) if isinstance(done, re.Pattern) else done in s:
            return seen, s
        time.sleep(0.05)
    raise AssertionError(f"{done!r} not on screen:\n{t.screen()}")


STAGES = ["baseline", "one", "two", "met"]


@test
def fit_bar_says_its_stage():
    """The Fit bar names the stage and counts within it (the walkthrough:
    "round two 9331/18648" from the start, past half 5 s into a 95 s fit):
    round one's solo scorings of every candidate, round two's tries of at
    most as many (it ends at the budget), where the budget was met; the
    stages in order, each count within its stage's total."""
    total = candidates("90%")
    bar = re.compile(r"^fit 90% on transformer_48: (?:(scoring the baseline)|round one ([0-9]+)/([0-9]+) scorings|"
                     r"round two ([0-9]+)/([0-9]+) tries at most|round two: (budget met) after ([0-9]+) tr(?:y|ies)) "
                     r"[█░]{10,} +[0-9]+\.[0-9] s  \^C stops")
    t = Tui("fitstage", w=160)
    try:
        t.wait("Routines")
        open_routine(t, BIG_NAME)
        t.keys("3", "C", "C-u")  # every candidate: round one and two long enough to be seen
        t.type("all")
        t.keys("Enter")
        t.wait("candidate cap: all")
        t.keys("f", "C-u")
        t.type("90%")
        t.keys("Enter")
        bars, s = bars_until(t, "fit 90% on ", "event 0/")
        check(bars, "a bar was seen:\n" + s)
        order = []
        for b in bars:
            m = bar.match(b)
            check(m, b)
            if not m:
                continue
            if m.group(2):
                check(int(m.group(3)) == total and int(m.group(2)) <= total, f"round one of {total}: {b}")
            if m.group(4):
                check(int(m.group(5)) == total and int(m.group(4)) <= total, f"round two of {total}: {b}")
            if m.group(7):
                check(0 < int(m.group(7)) <= total, b)
            stage = "baseline" if m.group(1) else "one" if m.group(2) else "two" if m.group(4) else "met"
            if not order or order[-1] != stage:
                order.append(stage)
        check(order == sorted(order, key=STAGES.index), f"the stages in order: {order}")
    finally:
        t.close()


def thread_ticks(pid):
    """{tid: utime + stime in clock ticks} of every thread of pid."""
    ticks = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ticks[int(tid)] = int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
        except (FileNotFoundError, ProcessLookupError):
            pass
    return ticks


def app_pid(t):
    """The pid of the binary running in t's pane (the pane's shell's child)."""
    shell = tuilib.tmux("display-message", "-p", "-t", t.name, "#{pane_pid}").stdout.strip()
    kids = subprocess.run(["pgrep", "-P", shell], capture_output=True, text=True).stdout.split()
    check(len(kids) == 1, f"one child of the pane's shell: {kids}")
    return int(kids[0])


@test
def fit_works_on_the_main_thread():
    """A fit's work runs on the TUI's main thread, the bar on a second one
    (a fit on a second thread took 1.5x the CPU: glibc gave that thread its
    own malloc arena, mapped and unmapped as the scorings filled and emptied
    it).  While round two runs (one thread's work), the main thread takes
    nearly all the CPU the process uses."""
    t = Tui("mainthread", w=160)
    try:
        t.wait("Routines")
        pid = app_pid(t)
        open_routine(t, BIG_NAME)
        t.keys("3", "C", "C-u")
        t.type("all")
        t.keys("Enter")
        t.wait("candidate cap: all")
        t.keys("f", "C-u")
        t.type("minimize")
        t.keys("Enter")
        two = re.compile(r"fit minimize on transformer_48: round two +[0-9]+/[0-9]+ tries at most")
        samples, end = [], time.time() + 120
        while len(samples) < 3 and time.time() < end:
            s = t.screen()
            if "event 0/" in s:
                break
            if not two.search(s):
                time.sleep(0.05)
                continue
            a = thread_ticks(pid)
            time.sleep(0.5)
            b = thread_ticks(pid)
            if two.search(t.screen()) and len(a) >= 2:
                samples.append({tid: b[tid] - a[tid] for tid in a if tid in b})
        check(samples, "round two was seen running:\n" + t.screen())
        main = sum(d.get(pid, 0) for d in samples)
        others = sum(v for d in samples for tid, v in d.items() if tid != pid)
        check(main > 0 and others * 5 <= main, f"ticks of the main thread {main}, of the others {others}: {samples}")
        t.keys("C-c")
    finally:
        t.close()


@test
def compare_bar_says_each_budgets_stage():
    """Compare's bar: round one scored once for every budget ("shared",
    every candidate: minimize keeps them all), then each budget's round
    two, its budget named, its count within its own candidates (90%: the
    32 cheapest)."""
    total = candidates("90%")
    bar = re.compile(r"^Compare: 2 budgets on transformer_48: (?:(scoring the baseline)|round one, shared ([0-9]+)/([0-9]+) "
                     r"scorings|budget ([12]) of 2: ([0-9a-z%]+): (?:round two ([0-9]+)/([0-9]+) tries at most|"
                     r"round two: budget met after ([0-9]+) tr(?:y|ies)|the baseline meets the budget)) "
                     r"[█░]{10,} +[0-9]+\.[0-9] s  \^C stops")
    t = Tui("cmpstage", w=160)
    try:
        start_compare(t, "90%,minimize")
        bars, s = bars_until(t, "Compare: ", "budget 2 of 2: minimize: round two")
        t.keys("C-c")
        t.wait("Compare stopped", timeout=20)
        check(bars, "a bar was seen:\n" + s)
        for b in bars:
            m = bar.match(b)
            check(m, b)
            if not m:
                continue
            if m.group(2):
                check(int(m.group(3)) == total and int(m.group(2)) <= total, f"round one of {total}: {b}")
            if m.group(4):
                want = {"1": ("90%", 32), "2": ("minimize", total)}[m.group(4)]
                check(m.group(5) == want[0], f"budget {m.group(4)} is {want[0]}: {b}")
                if m.group(6):
                    check(int(m.group(7)) == want[1] and int(m.group(6)) <= want[1], f"round two of {want[1]}: {b}")
        check(re.match(r"budget 2 of 2: minimize: round two [0-9]+/%d tries at most" % total,
                       bars[-1].split("transformer_48: ", 1)[-1]), bars[-1])
    finally:
        t.close()


@test
def fit_and_best_show_their_bars():
    t = Tui("fitbar", w=140)
    try:
        # a fit of every candidate of transformer_96 (4 s unloaded): its bar, then ^C
        t.wait("Routines")
        open_routine(t, "transformer_96")
        t.keys("C", "C-u")
        t.type("all")
        t.keys("Enter")
        t.wait("candidate cap: all")
        t.keys("f")
        t.type("90%")
        t.keys("Enter")
        s = t.wait(re.compile(r"fit 90% on transformer_96: round (one +[0-9]+/[0-9]+ scorings|two +[0-9]+/[0-9]+ tries at most)"),
                   timeout=20)
        bar_over_status(s, "fit 90% on transformer_96", "transformer_96")
        t.keys("C-c")
        t.wait("fit cancelled", timeout=20)
        t.keys("C", "C-u", "Enter")  # the default cap again: x searches 32 candidates
        t.wait("candidate cap: the default")
        t.keys("1")
        fit_on(t, BIG_NAME, "90%")
        t.wait("event 0/", timeout=60)
        t.keys("x")
        # no count, a time limit: the bar fills from its left with the time of the 10 s spent
        # (seen from 2 s on, 8 of its 40 cells)
        timed = re.compile(r"the best plan: every subset of 32 candidates (█+░*) +([2-9]\.[0-9]) of 10 s  \^C stops")
        s = t.wait(timed, timeout=20)
        bar_over_status(s, "the best plan")
        cells, secs = timed.search(s).group(1), float(timed.search(s).group(2))
        check(len(cells) >= 10 and abs(cells.count("█") - secs / 10 * len(cells)) <= 2, (cells, secs))
        t.keys("C-c")
        s = t.wait("(stopped: not proved); x again hides it", timeout=20)
        t.keys("n")  # the stepper goes on
        t.wait("event 1/")
        # Compare's x: the best row of each budget, its own bar
        t.keys("4", "a")
        t.type("90%")
        t.keys("Enter")
        t.wait(re.compile(r"1 90%( = [0-9.]+ GiB)? +[0-9.]+ GiB"), timeout=60)
        t.keys("x")
        s = t.wait("the best plan of every budget: budget 90% (up to 3 s)", timeout=20)
        bar_over_status(s, "the best plan of every budget")
        # what 3 s find depends on the machine (an ASan build finds none): a row either way
        t.wait(re.compile(r"best\?? +([0-9.]+ GiB|none found in the time limit \(not proved\))"), timeout=30)
    finally:
        t.close()


def popup(s, title):
    """The lines of the popup titled title on screen s (inside its box,
    right spaces dropped) and its footer's "1-N of N"."""
    rows = s.split("\n")
    top = next((i for i, ln in enumerate(rows) if f"┌─ {title} " in ln), None)
    check(top is not None, f"no popup {title!r}:\n{s}")
    if top is None:
        return [], ""
    left = rows[top].index("┌")
    lines, foot = [], ""
    for ln in rows[top + 1:]:
        if ln[left:left + 1] == "└":
            foot = re.search(r"[0-9]+-[0-9]+ of [0-9]+", ln)
            foot = foot.group(0) if foot else ""
            break
        inside = ln[left + 1:].split("│")[0]
        lines.append(inside.strip())
    while lines and not lines[-1]:
        lines.pop()
    return [ln for ln in lines if ln], foot


def best_answer(j, kind):
    """D's lines for `fit --exact --improve --json`'s j: the two-round
    plan's sentence, the best (kind "exact") or improved plan's, then the
    flips that differ (+ only in it, - only in the two-round plan)."""
    base, fin, b = j["baseline"], j["final"], j[kind]
    two_round = [f["node"] for f in j["flips"]]
    def sentence(what, total, compute, n):
        return "%s %s, recompute %s, %d flip%s" % (what, units(total), recompute_text(
            compute - base["compute"], base["compute"]), n, "" if n == 1 else "s")
    lines = [sentence("two-round", fin["total"], fin["compute"], len(two_round))]
    what = ("best (proved)" if b["proved"] else "best found (not proved)") if kind == "exact" else \
        ("improved (local optimum)" if b["local_optimum"] else "improved (stopped)")
    if not b["final"]:
        return lines + ["%s: no subset of the %d candidates fits" % (what, b["candidates"])]
    lines.append(sentence(what, b["final"]["total"], b["final"]["compute"], len(b["flips"])))
    differ = ["+" + n for n in b["flips"] if n not in two_round] + ["-" + n for n in two_round if n not in b["flips"]]
    if not differ:
        return lines + ["no flip differs"]
    head = "%d flip%s differ%s (+ only in it, - only in the two-round plan):" % (
        len(differ), "" if len(differ) == 1 else "s", "s" if len(differ) == 1 else "")
    return lines + [head] + differ


@test
def best_popup_after_its_wait():
    """D on the Fit screen after x's (and I's) wait: the popup holds the
    answer the CLI gives for the same routine and budget (`fit --exact
    --improve --json`): mlp_step at 80%, whose best plan (6978052 B, proved)
    keeps gw1 and adds y and da; its improved plan, which flips what the
    two-round one does; at 60% (below the floor), no subset fits.  Before
    x, and with x's pane hidden again, D says there is nothing to show."""
    def cli(budget):
        p = subprocess.run([BIN, "--db", ":memory:", "fit", os.path.join(SAMPLES, "mlp_step.routine"), "--budget",
                            budget, "--exact", "--improve", "--json"], capture_output=True, text=True)
        check(p.returncode == 0, p.stderr)
        return json.loads(p.stdout)
    j80, j60 = cli("80%"), cli("60%")
    check(j80["exact"]["proved"] and j80["exact"]["final"] and j60["exact"]["final"] is None, (j80, j60))
    nothing = "D: no best plan shown (x finds the best plan, I an improved one)"
    t = Tui("bestpopup")
    try:
        fit_on(t, "mlp_step", "80%")
        t.wait("event 0/")
        t.keys("D")
        s = t.wait(nothing)
        check("┌─ The best plan" not in s, s)
        t.keys("x")  # D waits for x's search: its status says what it scored, as the CLI's explored
        s = t.wait(re.compile(r"exact in [0-9.]+ s, [0-9]+ subsets scored; x again hides it"))
        n = int(re.search(r"([0-9]+) subsets scored", s).group(1))
        check(n == j80["exact"]["explored"], (n, j80["exact"]["explored"]))
        t.keys("D")
        want = best_answer(j80, "exact")
        check(want[2:] == ["2 flips differ (+ only in it, - only in the two-round plan):", "+y", "+da"], want)
        lines, foot = popup(t.wait("┌─ The best plan"), "The best plan")
        check(lines == want, (lines, want))
        check(foot == "1-%d of %d" % (len(want), len(want)), foot)
        t.keys("Escape", "x")  # hidden: D has nothing to show
        t.wait("arena with 0 accepted flips")
        t.keys("D")
        s = t.wait(nothing)
        check("┌─ The best plan" not in s, s)
        t.keys("I")
        s = t.wait(re.compile(r"improved in [0-9.]+ s, [0-9]+ subsets scored; I again hides it"))
        n = int(re.search(r"([0-9]+) subsets scored", s).group(1))
        check(n == j80["improved"]["scored"], (n, j80["improved"]["scored"]))
        t.keys("D")
        want = best_answer(j80, "improved")
        check(want[2:] == ["no flip differs"], want)
        lines, foot = popup(t.wait("┌─ The improved plan"), "The improved plan")
        check(lines == want, (lines, want))
        t.keys("Escape", "f", "C-u")
        t.type("60%")
        t.keys("Enter")
        tuilib.fit_anyway(t)
        t.wait("event 0/")
        t.keys("x")
        s = t.wait(re.compile(r"exact in [0-9.]+ s, %d subsets? scored; x again hides it" % j60["exact"]["explored"]))
        t.keys("D")
        want = best_answer(j60, "exact")
        check(want[1] == "best (proved): no subset of the 10 candidates fits", want)
        lines, foot = popup(t.wait("┌─ The best plan"), "The best plan")
        check(lines == want, (lines, want))
    finally:
        t.close()


@test
def fit_header_says_its_cap():
    """The Fit header says the candidate cap the fit used and what it
    dropped (DESIGN §5: the 32 cheapest for a byte budget), so a fit that
    differs from `fit --max-candidates all` shows why (the walkthrough:
    "253 MiB -> 223 MiB missed, 3878 flips", no cap); shorter when narrow;
    after C all, "cap all"."""
    total = candidates("90%")
    t = Tui("fitcap", w=160)
    try:
        fit_on(t, BIG_NAME, "90%")
        s = t.wait("event 0/", timeout=60)
        head = s.split("\n")[2]
        check(f"NOT within budget, 0 flips, cap 32 of {total}, {total - 32} dropped, layout greedy" in head, head)
        tuilib.tmux("resize-window", "-t", "fitcap", "-x", "80", "-y", "24")
        s = t.wait(re.compile(r"missed, 0 flips, cap 32 of %d" % total))
        check(re.search(r"^ event 0/[0-9]+ baseline │ [0-9.]+ GiB -> [0-9.]+ GiB missed, 0 flips, cap 32 of %d *$" % total,
                        s.split("\n")[2]), s.split("\n")[2])
        tuilib.tmux("resize-window", "-t", "fitcap", "-x", "160", "-y", "40")
        t.keys("C", "C-u")
        t.type("all")
        t.keys("Enter")
        t.wait("candidate cap: all")
        t.keys("f", "C-u")
        t.type("90%")
        t.keys("Enter")
        t.wait("a fit to 90% replaces the fit to 90% you did not save")  # with another cap: another plan
        t.keys("y")
        s = t.wait(re.compile(r"within budget, [0-9]+ flips, cap all, layout greedy"), timeout=90)
        check("dropped" not in s.split("\n")[2], s.split("\n")[2])
    finally:
        t.close()


@test
def fit_table_says_round_ones_order():
    """Round one ranks a candidate that makes memory worse above a neutral
    one (DESIGN §5): a marker row opens each class after the first, at 80
    columns too.  mlp_step's order (fit --events): gw1 +2949120 B, gw2
    -223744 B, gb1 -258048 B, p 0 B, dy 0 B."""
    t = Tui("order", w=80, h=24)
    try:
        fit_on(t, "mlp_step", "minimize")
        s = t.wait("event 0/")
        table = [ln[:56].rstrip() for ln in s.split("\n")[4:12]]
        want = [r"^ +1 gw1 +2\.81 MiB", r"^ +── worse alone: ranked after every relief$", r"^ +2 gw2 +-218 KiB",
                r"^ +3 gb1 +-252 KiB", r"^ +── neutral alone: ranked last$", r"^ +4 p +0 B", r"^ +5 dy +0 B"]
        for w, ln in zip(want, table):
            check(re.match(w, ln), f"{w!r}: {ln!r}\n" + s)
        t.keys("Down", "Down")  # the selection skips the marker rows: gb1
        s = t.wait(re.compile(r"gb1"))
        t.keys("Enter")
        t.wait("Why: gb1")
    finally:
        t.close()


class StoreLock:
    """Another process's write transaction on db (as a second rematscope
    saving would hold): the TUI's writes wait for it, readers do not."""

    def __init__(self, db):
        self.con = sqlite3.connect(db, isolation_level=None)
        self.con.execute("BEGIN IMMEDIATE")

    def release(self):
        self.con.execute("ROLLBACK")
        self.con.close()


def count(db, sql):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchone()[0]
    finally:
        con.close()


def waiting_bar(s, words, stop, routine):
    """The bar's row (words, a running block or a count, seconds, stop:
    '^C stops', 'stopping...' or 'cannot be stopped') over the status bar,
    still drawn."""
    lines = s.rstrip("\n").split("\n")
    check(words in lines[-2] and re.search(r"[█░]{10,} +[0-9]+\.[0-9] s  " + re.escape(stop), lines[-2]), lines[-2])
    check(lines[-1].startswith(f" routine {routine} │") and "reuse " in lines[-1], "the status bar: " + lines[-1])
    return lines[-2]


@test
def save_shows_its_bar_and_stops():
    """S on Fit saves on a worker: while the store is busy (another
    process writing) the bar says what is saved over the status bar; ^C
    stops it at once, the lock still held (not after the busy timeout),
    and nothing of the plan is stored (one transaction); S again saves it
    whole."""
    db = os.path.join(TMP, "save.db")
    subprocess.run([BIN, "import", SAMPLES, "--db", db], check=True, capture_output=True)
    t = Tui("savebar", db=db, env={"RS_BUSY_TIMEOUT_MS": "60000"})
    lock = None
    try:
        fit_on(t, "mlp_step", "minimize")
        s = t.wait(re.compile(r"event 0/([0-9]+)"))
        events = int(re.search(r"event 0/([0-9]+)", s).group(1)) + 1
        lock = StoreLock(db)
        t.keys("S")
        t.type("kept")
        t.keys("Enter")
        s = t.wait("saving the plan of 1 flip: events")
        waiting_bar(s, "saving the plan of 1 flip: events", "^C stops", "mlp_step")
        t.keys("C-c")
        # the lock still held (for 60 s of busy timeout): ^C ends the wait for it at once
        s = t.wait("save stopped: nothing saved (S saves it)", timeout=5)
        lock.release()
        lock = None
        check(count(db, "SELECT count(*) FROM plans") == 0 and count(db, "SELECT count(*) FROM events") == 0,
              "nothing of the plan stored")
        t.keys("S")
        t.type("kept")
        t.keys("Enter")
        t.wait("saved as plan 1")
        check(count(db, "SELECT count(*) FROM events WHERE plan_id = 1") == events, f"its {events} events")
        t.keys("5")
        t.wait("kept")
    finally:
        if lock:
            lock.release()
        t.close()


@test
def import_shows_its_bar_and_cannot_be_stopped():
    """i on Session imports on a worker: the bar names the file being
    written and says the import cannot be stopped; ^C does nothing to it
    (and is no key for after it), and the routine comes in whole."""
    db = os.path.join(TMP, "import.db")
    t = Tui("importbar", db=db, env={"RS_BUSY_TIMEOUT_MS": "60000"})
    lock = None
    try:
        t.wait("no routines yet")
        lock = StoreLock(db)
        path = os.path.join(SAMPLES, "mlp_step.routine")
        t.keys("i")
        t.type(path)
        t.keys("Enter")
        s = t.wait("importing mlp_step.routine: writing mlp_step.routine 0/1")
        lines = s.rstrip("\n").split("\n")
        check(re.search(r"[█░]{10,} +[0-9]+\.[0-9] s  cannot be stopped", lines[-2]) and "^C" not in lines[-2],
              lines[-2])
        check(lines[-1].startswith(" routine - │") and "reuse " in lines[-1], "the status bar: " + lines[-1])
        t.keys("C-c")
        s = t.wait("cannot be stopped")
        check("stopping" not in s, s)
        lock.release()
        lock = None
        s = t.wait(f"imported {path}: routine mlp_step, version 1")
        check(re.search(r"^ +mlp_step ", s, re.M), "listed:\n" + s)
        check(count(db, "SELECT count(*) FROM routines WHERE name = 'mlp_step'") == 1, "stored")
        t.keys("Enter")  # the app goes on: ^C left nothing behind
        t.wait("opened mlp_step")
    finally:
        if lock:
            lock.release()
        t.close()


@test
def stored_plan_opens_under_its_config_in_one_wait():
    """A plan saved with a context preference and another layout opens in
    the stepper laid out as it was saved (the open's own wait applies its
    config and preferences; no scoring after it on the UI thread): the
    Arena's total is `score`'s under the same flags."""
    db = os.path.join(TMP, "planconf.db")
    subprocess.run([BIN, "import", SAMPLES, "--db", db], check=True, capture_output=True)
    flags = ["--inline", "gw2", "--layout", "timeline"]
    subprocess.run([BIN, "fit", "mlp_step", "--budget", "minimize", *flags, "--save", "--label", "conf", "--db", db],
                   check=True, capture_output=True)
    out = subprocess.run([BIN, "score", os.path.join(SAMPLES, "mlp_step.routine"), *flags, "--json"], check=True,
                         capture_output=True, text=True).stdout
    total = json.loads(out)["footprint"]["total"]
    t = Tui("planconf", db=db)
    try:
        t.wait("Routines")
        t.keys("5")
        t.wait("conf")
        t.keys("Enter")
        s = t.wait("plan 1 replayed from the store (no fit)")
        check("layout timeline" in s.rstrip("\n").split("\n")[-1], "the plan's layout: " + s)
        t.keys("2")
        s = t.wait("peak @ step")
        check(f"arena {units(total)}" in s, f"arena {units(total)} ({total} B):\n" + s)
    finally:
        t.close()


@test
def export_shows_its_bar_until_written():
    """e on Plans exports on a worker: to a FIFO (written in place) the
    export waits for its reader, with the bar saying what it writes over the
    status bar; the reader gets the CSV `export` writes."""
    db = os.path.join(TMP, "export.db")
    subprocess.run([BIN, "import", SAMPLES, "--db", db], check=True, capture_output=True)
    subprocess.run([BIN, "fit", "mlp_step", "--budget", "minimize", "--save", "--db", db], check=True,
                   capture_output=True)
    want = os.path.join(TMP, "want_events.csv")
    subprocess.run([BIN, "export", "1", "--what", "events", "--output", want, "--db", db], check=True,
                   capture_output=True)
    fifo = os.path.join(TMP, "events.fifo")
    os.mkfifo(fifo)
    t = Tui("exportbar", db=db)
    try:
        t.wait("Routines")
        t.keys("5")
        t.wait("mlp_step")
        t.keys("e", "C-u")
        t.type(fifo)
        t.keys("Enter")
        t.wait("what (plans, flips, events, layout, origins, frontier, svg): events")
        t.keys("Enter")
        t.wait("exists: overwrite?")
        t.keys("y")
        s = t.wait(f"exporting 1 plan (events): {fifo} 0/1")
        lines = s.rstrip("\n").split("\n")
        check(re.search(r"[█░]{10,} +[0-9]+\.[0-9]( of [0-9]+)? s  \^C stops", lines[-2]), lines[-2])
        check(lines[-1].startswith(" routine - │") and "reuse " in lines[-1], "the status bar: " + lines[-1])
        with open(fifo) as f, open(want) as g:
            got, expected = f.read(), g.read()
        check(got == expected and got.count("\n") > 2, f"the events CSV through the FIFO:\n{got[:400]}")
        t.wait(f"wrote 1 plan (events) to {fifo}")
    finally:
        t.close()


@test
def screens_keep_off_the_store_while_a_wait_uses_it():
    """Session's baseline column reads each routine from the store the first
    time its row shows: a row that first shows during an import (the
    window grown under the bar) says '...' instead of reading the store the
    import is writing, and gets its bytes after."""
    db = os.path.join(TMP, "rows.db")
    subprocess.run([BIN, "import", SAMPLES, "--db", db], check=True, capture_output=True)
    t = Tui("rowswait", db=db, h=18, env={"RS_BUSY_TIMEOUT_MS": "60000"})
    lock = None
    try:
        t.wait("Routines")
        names = [r[0] for r in sqlite3.connect(db).execute("SELECT DISTINCT name FROM routines ORDER BY name")]
        check(len(names) > 8, names)
        lock = StoreLock(db)
        t.keys("i")
        t.type(BIG)
        t.keys("Enter")
        t.wait("importing t48.routine: writing t48.routine 0/1")
        tuilib.tmux("resize-window", "-t", "rowswait", "-y", "40")
        s = t.wait(re.compile(r"^ +\S+ .* \.\.\. ", re.M))
        check("cannot be stopped" in s.rstrip("\n").split("\n")[-2], "under the bar:\n" + s)
        lock.release()
        lock = None
        s = t.wait("imported " + BIG)
        t.keys("C-l")
        s = t.wait(re.compile(r"Routines"))
        check(not re.search(r"^ +\S+ .* \.\.\. ", s, re.M), "every row's bytes after it:\n" + s)
    finally:
        if lock:
            lock.release()
        t.close()


if __name__ == "__main__":
    finish()
