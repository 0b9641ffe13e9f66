"""An independent plain scorer of DESIGN §14 (remat flips: recompute once),
written from DESIGN's text alone, on top of tests/refmodel.py's §1-§3
(parse, lower, virtualize, the §3 greedy).  It simulates the schedule as a
Python list of steps and finds every read by expanding each running step's
arguments through inline nodes, quadratically; nothing of core/lower/remat.c
is shared or mirrored.

    sc = score(low, inline_prefs, remat_nodes, alignment=1, max_inline_depth=8, aliasing=True)
    sc["footprint"]  # the five keys
    sc["copies"]     # {node name: (start, end)}
    sc["skipped"]    # {node name: reason} for the remat flips that did not apply
"""
import refmodel as ref


def _expand(low, inline, node, out):
    """The materialized nodes a step reading `node` reads (§2: an inline
    argument is replaced by its arguments, transitively), with multiplicity."""
    if inline[node]:
        for b in low.steps[low.defs[node][0]][1]:
            _expand(low, inline, b, out)
    else:
        out.append(node)


def _inline_runs(low, inline, node, out):
    """The inline nodes whose definitions run when a step reads `node`."""
    if inline[node]:
        out.append(node)
        for b in low.steps[low.defs[node][0]][1]:
            _inline_runs(low, inline, b, out)


def score(low, prefs, remat, alignment=1, max_inline_depth=8, aliasing=True):
    # the default policy (@inline) plus the preferences (§2)
    base = {i for i in range(len(low.names)) if low.inline_flag[i]}
    inline, rejected = ref.virtualize(low, base | set(prefs), max_inline_depth)
    n = len(low.names)
    # a step: ("orig", s) for step s of the routine, ("rec", N) for N's recompute step
    seq = [("orig", s) for s in range(len(low.steps))]

    def owner(st):
        return low.steps[st[1]][0] if st[0] == "orig" else st[1]

    def args(st):
        return low.steps[st[1]][1] if st[0] == "orig" else low.steps[low.defs[st[1]][0]][1]

    def runs(st):
        # an inline node's own step does not run by itself
        return st[0] == "rec" or not inline[owner(st)]

    def reads_at(p):
        out = []
        if runs(seq[p]):
            for a in args(seq[p]):
                _expand(low, inline, a, out)
        return out

    skipped, applied = {}, {}
    for x in sorted(set(remat), reverse=True):
        name = low.names[x]
        if low.resident[x] or inline[x]:
            skipped[name] = "not materialized"
            continue
        if low.output[x] or low.pinned[x] or low.into[x] or len(low.defs[x]) != 1:
            skipped[name] = "not a candidate"
            continue
        u = [p for p in range(len(seq)) if x in reads_at(p)]
        if not u:
            skipped[name] = "no read"
            continue
        d = seq.index(("orig", low.defs[x][0]))
        points = [d] + u
        gaps = [points[j + 1] - points[j] for j in range(len(u))]
        j = gaps.index(max(gaps))  # the first of the largest
        if j == 0:
            skipped[name] = "first gap"
            continue
        seq.insert(u[j], ("rec", x))
        applied[x] = True
    S2 = len(seq)
    last = max(S2 - 1, 0)
    pos_of = {st: p for p, st in enumerate(seq)}
    # every read, served by a remat node's copy once its recompute step has run
    end_buf = [-1] * n
    end_copy = {}
    for p in range(S2):
        for a in reads_at(p):
            if a in applied and p > pos_of[("rec", a)]:
                end_copy[a] = max(end_copy.get(a, -1), p)
            else:
                end_buf[a] = max(end_buf[a], p)
    bufs = []  # (sort key, aligned size, start, end)
    spans = {}
    for i in range(n):
        if inline[i]:
            continue
        if low.resident[i]:
            st, en = 0, last
        else:
            st = pos_of[("orig", low.defs[i][0])]
            en = max(pos_of[("orig", low.defs[i][-1])], end_buf[i])
            if low.output[i]:
                en = last
        spans[low.names[i]] = (st, en)
        bufs.append((2 * i, ref._align(low.bytes[i], alignment), st, en))
        if i in applied:
            bufs.append((2 * i + 1, ref._align(low.bytes[i], alignment), pos_of[("rec", i)], end_copy[i]))
    laid = bufs if aliasing else [(k, sz, 0, last) for (k, sz, st, en) in bufs]
    off = ref.greedy(laid)
    total = max([off[k] + sz for (k, sz, st, en) in laid], default=0)
    live = [0] * max(S2, 1)
    for (k, sz, st, en) in laid:
        for s in range(st, en + 1):
            live[s] += sz
    peak = max(live)
    compute = 0
    for st in seq:
        if not runs(st):
            continue
        compute += low.steps[st[1]][2] if st[0] == "orig" else low.cost[st[1]]
        ran = []
        for a in args(st):
            _inline_runs(low, inline, a, ran)
        compute += sum(low.cost[r] for r in ran)
    return {
        "footprint": {"total": total, "live_peak": peak, "peak_step": live.index(peak),
                      "buffers": len(laid), "compute": compute},
        "steps": S2,
        "spans": spans,
        "copies": {low.names[i]: (pos_of[("rec", i)], end_copy[i]) for i in applied},
        "skipped": skipped,
        "offsets": {k: off[k] for (k, _, _, _) in laid},
    }
