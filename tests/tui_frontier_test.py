#!/usr/bin/env python3
"""DESIGN §14's frontier planner in the TUI (issue 45): the real binary in
tmux.  F on the Fit screen runs it at the fit's budget, seeded with the
two-round plan, and lists its plan; the Arena then draws its §14 schedule.
Each test asserts the drawn cells against figures worked by hand (the
routine of remat_test's frontier_by_hand) and against what the CLI says of
the same data (`fit --planner frontier --json`, `score --remat --json`).

usage: tui_frontier_test.py REMATSCOPE SAMPLES_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, failed, finish, test  # noqa: E402
import tuilib  # noqa: E402

tuilib.init(sys.argv[1], sys.argv[2], prefix="rs_tui_frontier_")
from tuilib import BIN, DB, SAMPLES, TMP, Tui, fit_on, flops, recompute_text, tmux, units  # noqa: E402


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# remat_test's frontier_by_hand: a (8 B, cost 5) is read at steps 1, 4 and 5;
# b..e are pinned.  Baseline: compute 49, total 46.  At 40 B, §5 can only
# inline a, run at each of its three reads: compute 49 + 2 x 5 = 59, total
# 38.  The frontier remat-flips a instead, recomputed once before step 4:
# compute 49 + 5 = 54, total 38; a lives [0, 1], its copy [4, 6] at offset 0;
# the new schedule has 7 steps, step 4 the recompute step.
HAND = write("frontier_hand.routine",
             "routine frontier_hand\ninput x [4] u8\na = f(x) [8] u8 cost=5\nb = g(a) [2] u8 @pinned\n"
             "c = h(b) [32] u8 @pinned\nd = k(c) [2] u8 @pinned\ne = m(d, a) [2] u8 @pinned\n"
             "g = n(e, a) [2] u8 @output\n")
MLP = os.path.join(SAMPLES, "mlp_step.routine")
BIG = os.path.join(SAMPLES, "gen", "transformer_12.routine")  # routine transformer_12: a search of seconds
for path in (HAND, MLP, BIG):
    subprocess.run([BIN, "import", path, "--db", DB], check=True, capture_output=True)


def jrun(*args):
    p = subprocess.run([BIN, *args, "--json"], capture_output=True, text=True,
                       env=dict(os.environ, XDG_DATA_HOME=TMP, XDG_CONFIG_HOME=TMP))
    check(p.returncode == 0, (args, p.stderr))
    return json.loads(p.stdout)


def frontier_shown(t):
    """F on Fit: waits for the frontier plan's table."""
    t.keys("F")
    return t.wait(re.compile(r"frontier plan \(DESIGN (§|section )14\) at"), timeout=60)


def table(s, lw=61):
    """The Fit table's columns (61 at 120 columns: the frontier plan's answer there) as one line, its wrapped
    rows joined."""
    return re.sub(r"\s+", " ", "\n".join(r[:lw + 1] for r in s.split("\n")))


def arena_grid(s, tick="╵", rule="──"):
    """The Arena's grid as drawn: the rows between the peak marker's row and
    the step axis (each the text right of the offset axis), and the column
    of the grid where each step's label starts (tick, rule: "'" and "--" in
    ASCII)."""
    rows = s.split("\n")
    axis = next(i for i, r in enumerate(rows) if re.match(r"^ +" + re.escape(tick) + "0 ", r))
    top = next(i for i, r in enumerate(rows) if "peak @ step" in r) + 1
    x0 = rows[axis].index(tick + "0")
    # the picture's width: the budget's label ends its header row
    head = next(r for r in rows if r.startswith("steps "))
    w = head.index(rule + " budget") + len(rule + " budget 40 B")
    starts = {int(m.group(1)): m.start() - x0 for m in re.finditer(re.escape(tick) + r"([0-9]+)", rows[axis][:w])}
    grid = [r[x0:w] for r in rows[top:axis]]
    return grid, starts


def step_of(starts, col):
    return max(s for s, c in starts.items() if c <= col)


@test
def frontier_plan_by_hand():
    """F at 40 B on frontier_hand: the plan's total, added compute beside the two-round plan's, its one remat flip"""
    cli = jrun("fit", HAND, "--budget", "40", "--planner", "frontier")
    f = cli["frontier"]
    # the CLI agrees with the figures worked by hand
    check(cli["baseline"]["compute"] == 49 and cli["final"]["compute"] == 59 and cli["final"]["total"] == 38, cli)
    check(f["final"]["compute"] == 54 and f["final"]["total"] == 38 and f["within_budget"] and not f["stopped"], f)
    check(f["flips"] == [{"node": "a", "kind": "remat", "relief": 8, "recompute": 5}], f["flips"])
    t = Tui("fhand")
    try:
        fit_on(t, "frontier_hand", "40")
        t.wait("event 0/")
        s = frontier_shown(t)
        check("frontier plan (DESIGN §14) at 40 B" in s, s)
        check("total 38 B, within budget; two-round's 38 B" in s, s)
        # added compute: +5 of 49 for the frontier, +10 of 49 for the two-round plan
        added = f"added compute {recompute_text(54 - 49, 49)}; two-round's {recompute_text(59 - 49, 49)}"
        check(added == "added compute +5 FLOPs (+10.204%); two-round's +10 FLOPs (+20.408%)", added)
        flat = table(s)
        check(added in flat, s)
        check("1 flip, 1 remat; not the two-round plan; the search finished" in flat, s)
        # its flip: kind, node, relief, recompute, origin (no source: the op, f)
        check(re.search(r"^ +1 remat +a +8 B +\+5 FLOPs +f +", s, re.M), s)
        # beside it, its schedule: 7 steps (6 and the recompute step), one copy
        check("frontier plan's schedule: 38 B, 7 steps, 1 copy" in s, s)
        # g shows the flips by origin in its place (F shows it again)
        t.keys("g")
        s = t.wait("origin (g: candidates)")
        check("frontier plan (DESIGN" not in s, s)
        t.keys("F")
        s = t.wait("frontier plan (DESIGN §14) at 40 B")
        t.keys("g")
        t.wait("origin (g: candidates)")
        t.keys("g", "F")
        t.wait("frontier plan (DESIGN §14) at 40 B")
        # F again: the candidates back, the two-round plan's table
        t.keys("F")
        s = t.wait("the two-round plan's candidates")
        check("frontier plan (DESIGN" not in s and re.search(r"^ +1 a ", s, re.M), s)
    finally:
        t.close()


@test
def arena_draws_the_frontier_schedule():
    """the Arena with the frontier plan shown: 7 steps, the copy of a its own rectangle over exactly steps 4-6 at
    offset 0, step 4 a recompute step, the footprint line the frontier plan's"""
    sc = jrun("score", HAND, "--remat", "a")
    check(sc["steps"] == 7 and sc["footprint"]["total"] == 38, sc)
    copy = next(b for b in sc["buffers"] if b.get("copy"))
    orig = next(b for b in sc["buffers"] if b["node"] == "a" and not b.get("copy"))
    check((copy["start"], copy["end"], copy["offset"], copy["bytes"]) == (4, 6, 0, 8), copy)
    check((orig["start"], orig["end"]) == (0, 1), orig)
    check([st.get("recompute", False) for st in sc["schedule"]].index(True) == 4, sc["schedule"])
    t = Tui("farena", w=120, h=40)
    try:
        fit_on(t, "frontier_hand", "40")
        t.wait("event 0/")
        frontier_shown(t)
        # Enter on the remat flip: its copy selected on the Arena, its details in the pane
        t.keys("Enter")
        s = t.wait("a′: steps 4-6 of the frontier plan's 7")
        check(re.search(r"^steps 0-6 ", s, re.M) and "copy    recomputed once at step 4" in s, s)
        t.keys("3")
        t.wait("event 0/")
        t.keys("2")
        s = t.wait(re.compile(r"^steps 0-6 ", re.M))  # the Arena's header (Fit's pane has it further right)
        check("frontier plan: max live 38 B │ arena 38 B" in s, s)
        grid, starts = arena_grid(s)
        check(sorted(starts) == list(range(7)), starts)
        # the copy's cells: every column of steps 4-6 on the bottom row (offset 0), no other column anywhere
        cols = {c for row in grid for c, ch in enumerate(row) if ch == "▚"}
        check(cols, "no copy drawn:\n" + s)
        check({step_of(starts, c) for c in cols} == {4, 5, 6}, (sorted(cols), starts))
        bottom = grid[-1]
        want = [c for c in range(len(bottom)) if c >= starts[4]]
        check(all(bottom[c] == "▚" for c in want), (bottom, starts))
        # a itself (a candidate, █) over steps 0-1 only
        acols = {c for row in grid for c, ch in enumerate(row) if ch == "█"}
        check({step_of(starts, c) for c in acols} == {0, 1}, (sorted(acols), starts))
        # rows: the copy is 8 B at offset 0 of a 43 B picture (the budget 40 + 1/16 + 1): no row whose bottom
        # is at 8 B or above shows it
        h = len(grid)
        for r, row in enumerate(grid):
            bottom_off = 43 * (h - 1 - r) // h
            check("▚" not in row or bottom_off < 8, (r, bottom_off, row))
        # the step list at the recompute step names what it recomputes, and the copy with its mark
        t.keys("p")  # the peak, step 2
        t.keys("Right", "Right")
        s = t.wait("step 4 recomputes a")
        # live there, by hand: x (4 B, resident), d (2 B, pinned, steps 3-5), the copy a′ (8 B): 14 B; c ended
        # at step 3, e starts at 5
        check("live 14 B of max live 38 B" in s, s)
        check("resident 4 B, output 0 B, pinned 2 B" in s and re.search(r"^.* candidate 8 B *$", s, re.M), s)
        check(re.search(r"a′ +8 B cand +0", s), s)
        # its details: the copy's span and offset, where it is recomputed, a's own span, the flip
        t.keys("Enter")
        s = t.wait("copy    recomputed once at step 4")
        check(re.search(r" a′ *$", s, re.M) and "span    steps 4-6" in s and "offset  0" in s, s)
        check("a itself: steps 0-1" in s and "remat   8 B for +5 FLOPs" in s, s)
        check("copy (name′), recomputed once" in s, s)
        # F on Fit hides it: the Arena draws the open routine again (6 steps, 46 B)
        t.keys("3")
        t.wait("event 0/")
        t.keys("F")
        t.wait("the two-round plan's candidates")
        t.keys("2")
        s = t.wait(re.compile(r"^steps 0-5 ", re.M))
        check("frontier plan:" not in s and "steps 0-5" in s and "▚" not in s, s)
    finally:
        t.close()


@test
def ascii_copy_glyph_and_mark():
    """LANG=C: the copy drawn with '%' over steps 4-6 and named a' in the step list and the legend"""
    t = Tui("fascii", env={"LANG": "C", "LC_ALL": "C"})
    try:
        fit_on(t, "frontier_hand", "40")
        t.wait("event 0/")
        frontier_shown(t)
        t.keys("2")
        s = t.wait(re.compile(r"^steps 0-6 ", re.M))
        check("frontier plan: max live 38 B | arena 38 B" in s, s)
        grid, starts = arena_grid(s, "'", "--")
        bottom = grid[-1]
        check({step_of(starts, c) for c, ch in enumerate(bottom) if ch == "%"} == {4, 5, 6}, (bottom, starts))
        t.keys("p", "Right", "Right")
        s = t.wait("step 4 recomputes a")
        check(re.search(r"a' +8 B cand +0", s), s)
        t.keys("Enter")
        s = t.wait("copy    recomputed once at step 4")
        check("% copy (name'), recomputed once" in s, s)
    finally:
        t.close()


@test
def s_saves_the_frontier_plan_beside_the_fit():
    """S on Fit after F stores the frontier plan beside the two-round plan, as fit --planner frontier --save
    does: show --json gives frontier_hand's remat a (relief 8, recompute 5, final 38 B / 54 FLOPs) and verify
    re-scores it ok"""
    db = os.path.join(TMP, "fsave.db")
    subprocess.run([BIN, "import", HAND, "--db", db], check=True, capture_output=True)
    t = Tui("fsave", db=db)
    try:
        fit_on(t, "frontier_hand", "40")
        t.wait("event 0/")
        frontier_shown(t)
        t.keys("S")
        t.wait("label (optional)")
        t.keys("Enter")
        s = t.wait("with its frontier plan")
        pid = re.search(r"saved as plan (\d+) with its frontier plan", s).group(1)
        shown = jrun("show", pid, "--db", db)
        check(shown["frontier"]["final"]["total"] == 38 and shown["frontier"]["final"]["compute"] == 54
              and shown["frontier"]["flips"] == [{"node": "a", "kind": "remat", "relief": 8, "recompute": 5}],
              shown.get("frontier"))
        p = subprocess.run([BIN, "verify", pid, "--db", db], capture_output=True, text=True)
        check(p.returncode == 0 and p.stdout == f"plan {pid}: ok\n", (p.stdout, p.stderr))
    finally:
        t.close()


@test
def frontier_equal_to_two_round_says_so():
    """mlp_step at 80 %: the frontier plan is the two-round plan (inline gw1); the screen says so, with the CLI's
    numbers"""
    cli = jrun("fit", MLP, "--budget", "80%", "--planner", "frontier")
    f = cli["frontier"]
    check(f["flips"] == [{"node": "gw1", "kind": "inline", "relief": 2949120, "recompute": 0}], f["flips"])
    check(f["final"] == cli["final"], (f["final"], cli["final"]))
    t = Tui("fmlp")
    try:
        fit_on(t, "mlp_step", "80%")
        t.wait("event 0/")
        s = frontier_shown(t)
        flat = table(s)
        tot = f"{units(f['final']['total'])} ({f['final']['total']} B)"
        check(f"total {tot}, within budget; two-round's {tot}" in flat, s)
        check("added compute +0 FLOPs (+0.000%); two-round's +0 FLOPs (+0.000%)" in flat, s)
        check("1 flip, 0 remat; the same plan as two-round's" in flat, s)
        check(re.search(r"^ +1 inline +gw1 +2\.81 MiB +\+0 FLOPs +matmul", s, re.M), s)
        # Enter on the inline flip: it has no buffer to show
        t.keys("Enter")
        t.wait("gw1 is inline in the frontier plan: it has no buffer (its readers recompute it)")
        t.keys("2")
        s = t.wait(re.compile(r"^steps 0-14 ", re.M))
        check("frontier plan: max live" in s and f"arena {units(f['final']['total'])}" in s and "▚" not in s, s)
    finally:
        t.close()


@test
def frontier_without_a_fit_says_so():
    """F on an empty Fit screen: nothing to seed the search with, said"""
    t = Tui("fnone")
    try:
        t.wait("Routines")
        tuilib.open_routine(t, "mlp_step")
        t.keys("3")
        t.wait("No fit yet.")
        t.keys("F")
        t.wait("F: no fit to start from (b fits; the frontier plan is searched at its budget)")
    finally:
        t.close()


@test
def ctrl_c_stops_the_frontier_search_with_the_best_found():
    """^C during F's search (transformer_12 at 60 %, seconds of search): the plan found so far, said stopped"""
    t = Tui("fstop")
    try:
        fit_on(t, "transformer_12", "60%")
        t.wait("event 0/", timeout=30)
        t.keys("F")
        t.wait("^C stops", timeout=10)
        t.keys("C-c")
        s = t.wait("(stopped: the best found)", timeout=30)
        flat = table(s)
        check("frontier plan (DESIGN §14) at 60%" in flat, s)
        # ^C may land in the search or in its policy-like seeds (frontier.h): either is said stopped
        check(re.search(r"; stopped (\(the best found\)|in the policy-like seeds \(the search before them "
                        r"finished\))", flat), s)
        check(re.search(r"total .*, (within budget|NOT within budget); two-round's", flat), s)
    finally:
        t.close()


shutil.rmtree(TMP, ignore_errors=True) if not failed() else None
tmux("kill-server", check=False)
finish()
