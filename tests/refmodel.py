"""An independent reference of DESIGN.md §1-§5, written from the text alone
(no line of core/ was read): the §1 routine format, lowering, the
virtualizer, liveness, recompute and compute, the §3 greedy layout and
footprint, §4's flip candidates and the relief-ratio order, and §5's
two-round `fit`.  Python 3, standard library only; ratios are compared as
exact rationals (fractions.Fraction), which is what compare_relief_ratio's
continued fraction computes.

    r = parse(text)                          # Routine, or raises RoutineError
    low = lower(r, binds={})                 # evaluated bytes, costs, steps (binds: --bind K=V)
    sc = score(low, prefs, alignment=1, max_inline_depth=8)
    plan = fit(low, budget, max_candidates=None, alignment=1, max_inline_depth=8)

`max_candidates` is None (the default cap), an int, or "all".
`budget` is ("minimize",) or ("bytes", n) or ("percent", p) (p% of the
baseline total, rounded down, as docs/design-notes.md's Choices say).
"""
import re
from fractions import Fraction

DTYPES = {"u8": 1, "i8": 1, "f16": 2, "bf16": 2, "f32": 4, "i32": 4, "f64": 8, "i64": 8}
INT64_MAX = (1 << 63) - 1
INT64_MIN = -(1 << 63)


class RoutineError(Exception):
    """A routine DESIGN §1 calls invalid; the message says what."""


# ---------------------------------------------------------------- parsing

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_.]*)|(<<|[-+*/()]))")


def _check64(v):
    if v > INT64_MAX or v < INT64_MIN:
        raise RoutineError("overflow")
    return v


class _Expr:
    """Integer expressions of §1: + - * / (floor division), parentheses,
    literals, bound names, and docs/design-notes.md's `<<` (lowest precedence)."""

    def __init__(self, text):
        self.toks = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise RoutineError(f"bad expression {text!r}")
            self.toks.append(m.group(1) and ("num", int(m.group(1))) or m.group(2) and ("name", m.group(2))
                             or ("op", m.group(3)))
            pos = m.end()
        self.i = 0

    def names(self):
        return {v for k, v in self.toks if k == "name"}

    def eval(self, env):
        self.i = 0
        v = self._shift(env)
        if self.i != len(self.toks):
            raise RoutineError("trailing tokens in expression")
        return v

    def _peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None)

    def _shift(self, env):
        v = self._sum(env)
        while self._peek() == ("op", "<<"):
            self.i += 1
            r = self._sum(env)
            if r < 0 or r > 63:
                raise RoutineError("bad shift")
            v = _check64(v << r)
        return v

    def _sum(self, env):
        v = self._prod(env)
        while self._peek() in (("op", "+"), ("op", "-")):
            op = self._peek()[1]
            self.i += 1
            r = self._prod(env)
            v = _check64(v + r if op == "+" else v - r)
        return v

    def _prod(self, env):
        v = self._atom(env)
        while self._peek() in (("op", "*"), ("op", "/")):
            op = self._peek()[1]
            self.i += 1
            r = self._atom(env)
            if op == "*":
                v = _check64(v * r)
            else:
                if r == 0:
                    raise RoutineError("division by zero")
                v = _check64(v // r)
        return v

    def _atom(self, env):
        k, v = self._peek()
        self.i += 1
        if k == "num":
            return _check64(v)
        if k == "name":
            if v not in env:
                raise RoutineError(f"unbound symbol {v}")
            return env[v]
        if (k, v) == ("op", "("):
            r = self._shift(env)
            if self._peek() != ("op", ")"):
                raise RoutineError("expected )")
            self.i += 1
            return r
        if (k, v) == ("op", "-"):
            return _check64(-self._atom(env))
        raise RoutineError("expected an expression")


class Node:
    def __init__(self, name, kind, index):
        self.name, self.kind, self.index = name, kind, index  # kind: input|param|def
        self.dims = []          # expression texts
        self.dtype = "f32"
        self.flags = set()      # output pinned inline
        self.into = None        # name of the input it is written into
        self.defs = []          # step numbers

    @property
    def resident(self):
        return self.kind in ("input", "param")


class Step:
    def __init__(self, owner, op, args, cost_expr):
        self.owner, self.op, self.args, self.cost_expr = owner, op, args, cost_expr


class Routine:
    def __init__(self):
        self.name = None
        self.binds = {}         # name -> value (in file order)
        self.nodes = []         # by index
        self.by_name = {}
        self.steps = []


def _strip_comment(line):
    out, q = [], False
    for ch in line:
        if ch == '"':
            q = not q
        if ch == "#" and not q:
            break
        out.append(ch)
    return "".join(out).strip()


_DIMS = re.compile(r"\[([^\]]*)\]")
_DEF = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)\s*(\+?=)\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(([^)]*)\)\s*(.*)$")
_DECL = re.compile(r"^(input|param)\s+([A-Za-z_][A-Za-z0-9_.]*)\s*(.*)$")


def _split_dims(text):
    text = text.strip()
    return [] if not text else [d.strip() for d in text.split(",")]


def _parse_tail(tail, allow_cost, allow_flags):
    """[DIMS] [T] [cost=EXPR] [@flags] -> (dims, dtype|None, cost|None, flags, into)."""
    m = _DIMS.match(tail)
    if not m:
        raise RoutineError("expected [DIMS]")
    dims = _split_dims(m.group(1))
    rest = tail[m.end():].split()
    dtype, cost, flags, into = None, None, set(), None
    i = 0
    if i < len(rest) and rest[i] in DTYPES:
        dtype = rest[i]
        i += 1
    if allow_cost and i < len(rest) and rest[i].startswith("cost="):
        cost = rest[i][5:]
        i += 1
    while i < len(rest):
        w = rest[i]
        i += 1
        if not allow_flags:
            raise RoutineError(f"unexpected {w}")
        if w in ("@output", "@pinned", "@inline"):
            flags.add(w[1:])
        elif w.startswith("@into(") and w.endswith(")"):
            if into is not None:
                raise RoutineError("@into given twice")
            into = w[6:-1]
        else:
            raise RoutineError(f"unexpected {w}")
    return dims, dtype, cost, flags, into


def parse(text):
    """The §1 format (the subset this test writes and the samples use)."""
    r = Routine()
    dtype = "f32"
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = _strip_comment(raw)
        if not line:
            continue
        word = line.split()[0]
        if r.name is None:
            if word != "routine" or len(line.split()) != 2:
                raise RoutineError("expected routine NAME first")
            r.name = line.split()[1]
            continue
        if word == "routine":
            raise RoutineError("routine given twice")
        if word == "bind":
            for kv in line.split()[1:]:
                k, _, v = kv.partition("=")
                r.binds[k] = _Expr(v).eval(r.binds)
            continue
        if word == "dtype":
            t = line.split()[1]
            if t not in DTYPES or len(line.split()) != 2:
                raise RoutineError("bad dtype")
            dtype = t
            continue
        m = _DECL.match(line)
        if m:
            kind, name, tail = m.groups()
            if name in r.by_name:
                raise RoutineError(f"redefinition of {name}")
            dims, t, _, flags, into = _parse_tail(tail, False, True)
            if into is not None:
                raise RoutineError("@into on an input/param (a definition's flag)")
            n = Node(name, kind, len(r.nodes))
            n.dims, n.dtype, n.flags = dims, t or dtype, flags
            r.nodes.append(n)
            r.by_name[name] = n
            continue
        m = _DEF.match(line)
        if not m:
            raise RoutineError(f"bad statement {line!r}")
        name, eq, op, args, tail = m.groups()
        args = [a.strip() for a in args.split(",")] if args.strip() else []
        for a in args:
            if a not in r.by_name:
                raise RoutineError(f"unknown name {a}")
        dims, t, cost, flags, into = _parse_tail(tail, True, eq == "=")
        if eq == "=":
            if name in r.by_name:
                raise RoutineError(f"redefinition of {name}")
            if into is not None:
                x = r.by_name.get(into)
                if x is None or x.kind != "input":
                    raise RoutineError("@into must name an earlier input")
                if "inline" in flags:
                    raise RoutineError("@into with @inline")
            n = Node(name, "def", len(r.nodes))
            n.dims, n.dtype, n.flags, n.into = dims, t or dtype, flags, into
            r.nodes.append(n)
            r.by_name[name] = n
        else:
            n = r.by_name.get(name)
            if n is None or n.kind != "def":
                raise RoutineError(f"+= on undefined {name}")
            if t is not None and t != n.dtype:
                raise RoutineError("type mismatch on +=")
            n._acc_dims = getattr(n, "_acc_dims", []) + [dims]
        n.defs.append(len(r.steps))
        r.steps.append(Step(n, op, [r.by_name[a] for a in args], cost))
    if r.name is None:
        raise RoutineError("no routine statement")
    if not r.nodes:
        raise RoutineError("no node declared")
    return r


# ---------------------------------------------------------------- lowering

class Lowered:
    """Nodes with bytes and costs; steps as (owner index, [arg indices], cost)."""

    def __init__(self):
        self.names, self.bytes, self.resident, self.output, self.pinned = [], [], [], [], []
        self.inline_flag, self.into, self.defs, self.cost = [], [], [], []
        self.steps = []  # (owner, args, cost)


def symbols(r):
    """Every symbol the routine uses: bound by a `bind` statement or named
    in a dimension or cost expression."""
    used = set(r.binds)
    for n in r.nodes:
        for d in n.dims + [d for dims in getattr(n, "_acc_dims", []) for d in dims]:
            used |= _Expr(d).names()
    for st in r.steps:
        if st.cost_expr is not None:
            used |= _Expr(st.cost_expr).names()
    return used


def lower(r, binds=None):
    """binds: the command line's --bind K=V (DESIGN §1: they override the
    routine's `bind` defaults, and may bind what the file leaves unbound);
    docs/design-notes.md's choice: each must name a symbol the routine uses."""
    binds = binds or {}
    unknown = sorted(set(binds) - symbols(r))
    if unknown:
        raise RoutineError(f"--bind names {unknown[0]}, a symbol the routine does not use")
    env = dict(r.binds)
    env.update(binds)
    low = Lowered()
    elems = []
    for n in r.nodes:
        shape = [_Expr(d).eval(env) for d in n.dims]
        for dims in getattr(n, "_acc_dims", []):
            if [_Expr(d).eval(env) for d in dims] != shape:
                raise RoutineError(f"shape mismatch on += {n.name}")
        e = 1
        for d in shape:
            if d < 0:
                raise RoutineError("negative dimension")
            e = _check64(e * d)
        elems.append(e)
        low.names.append(n.name)
        low.bytes.append(0 if n.into else _check64(e * DTYPES[n.dtype]))
        low.resident.append(n.resident)
        low.output.append("output" in n.flags)
        low.pinned.append("pinned" in n.flags)
        low.inline_flag.append("inline" in n.flags)
        low.into.append(n.into)
        low.defs.append(list(n.defs))
        low.cost.append(0)
    for s in r.steps:
        o = s.owner.index
        if s.cost_expr is not None:
            c = _Expr(s.cost_expr).eval(env)
        else:
            c = _check64(elems[o] * max(1, len(s.args)))
        c = max(1, c)
        low.steps.append((o, [a.index for a in s.args], c))
        low.cost[o] = _check64(low.cost[o] + c)
    return low


# ---------------------------------------------------------------- virtualizer

def virtualize(low, prefs, max_inline_depth):
    """prefs: set of node indices to inline -> (inline flags, [(node, reason)])."""
    n = len(low.names)
    inline = [False] * n
    depth = [0] * n
    rejected = []
    defined = sorted((i for i in range(n) if low.defs[i]), key=lambda i: low.defs[i][0])
    for i in [j for j in range(n) if low.resident[j]] + defined:
        if i not in prefs:
            continue
        reason = None
        if low.resident[i]:
            reason = "resident"
        elif low.output[i]:
            reason = "output"
        elif low.pinned[i]:
            reason = "pinned"
        elif low.into[i]:
            # DESIGN §1: an @into node holds no buffer of its own to drop and
            # is never a flip candidate; the binary names the reason "into"
            reason = "into"
        elif len(low.defs[i]) >= 2:
            reason = "accumulated"
        else:
            args = low.steps[low.defs[i][0]][1]
            d = 1 + max([depth[b] if inline[b] else 0 for b in args], default=0)
            if d > max_inline_depth:
                reason = "depth"
            else:
                inline[i], depth[i] = True, d
        if reason:
            rejected.append((i, reason))
    return inline, rejected


# ---------------------------------------------------------------- scoring

def _align(b, a):
    return (b + a - 1) // a * a


def recompute(low, inline):
    """R(N) for every node and exec(N), per DESIGN §2."""
    n = len(low.names)
    R = [0] * n
    execn = [0] * n
    # readers come after what they read: visit owners from the last step back
    order = sorted(range(n), key=lambda i: -(low.defs[i][0] if low.defs[i] else -1))
    readers = [[] for _ in range(n)]
    for s, (o, args, _) in enumerate(low.steps):
        for a in args:
            readers[a].append(o)
    done = [False] * n

    def ex(i):
        if not inline[i]:
            return len(low.defs[i])
        return rr(i)

    def rr(i):
        if not done[i]:
            R[i] = sum(ex(o) if inline[o] else 1 for o in readers[i])
            done[i] = True
        return R[i]

    for i in order:
        rr(i)
    for i in range(n):
        execn[i] = ex(i)
    return R, execn


def liveness(low, inline, aliasing=True):
    """[(node, start, end)] for the materialized nodes, in index order."""
    n = len(low.names)
    S = len(low.steps)
    last = max(S - 1, 0)
    lastread = [-1] * n

    def reads(a, s, seen):
        if inline[a]:
            for b in low.steps[low.defs[a][0]][1]:
                reads(b, s, seen)
        else:
            lastread[a] = max(lastread[a], s)

    for s, (o, args, _) in enumerate(low.steps):
        if inline[o]:
            continue
        for a in args:
            reads(a, s, None)
    spans = []
    for i in range(n):
        if inline[i]:
            continue
        if low.resident[i]:
            start, end = 0, last
        else:
            start = low.defs[i][0]
            end = max(low.defs[i][-1], lastread[i])
            if low.output[i]:
                end = last
        spans.append((i, start, end))
    return spans


def greedy(bufs):
    """bufs: [(index, size, start, end)] -> {index: offset}; DESIGN §3."""
    order = sorted(bufs, key=lambda b: (-b[1], -(b[3] - b[2]), b[2], b[0]))
    placed = []
    off = {}
    for (i, size, start, end) in order:
        if size == 0:
            # DESIGN is silent on a buffer of no bytes; docs/design-notes.md's Choices:
            # "Zero-byte buffers are laid out at offset 0 and conflict with nothing."
            off[i] = 0
            continue
        conf = sorted((o, o + sz) for (j, sz, st, en, o) in placed if st <= end and start <= en)
        # the gaps between the conflicting buffers, in offset order: below
        # each one, the free space from the end of those under it
        gaps = []
        cur = 0
        for lo, hi in conf:
            if lo > cur:
                gaps.append((lo - cur, cur))
            cur = max(cur, hi)
        top = cur
        fits = [g for g in gaps if g[0] >= size]
        o = min(fits)[1] if fits else top
        off[i] = o
        placed.append((i, size, start, end, o))
    return off


def score(low, prefs, alignment=1, max_inline_depth=8, aliasing=True):
    inline, rejected = virtualize(low, prefs, max_inline_depth)
    spans = liveness(low, inline, aliasing)
    R, execn = recompute(low, inline)
    S = len(low.steps)
    bufs = [(i, _align(low.bytes[i], alignment), st, en) for (i, st, en) in spans]
    last = max(S - 1, 0)
    off = greedy(bufs if aliasing else [(i, sz, 0, last) for (i, sz, st, en) in bufs])
    if not aliasing:
        bufs = [(i, sz, 0, last) for (i, sz, st, en) in bufs]
    total = max([off[i] + sz for (i, sz, st, en) in bufs], default=0)
    nsteps = max(S, 1)
    live = [0] * nsteps
    for (i, sz, st, en) in bufs:
        for s in range(st, en + 1):
            live[s] += sz
    peak = max(live)
    compute = sum((R[o] if inline[o] else 1) * c for (o, args, c) in low.steps)
    cands = []
    for i in sorted((j for j in range(len(low.names)) if low.defs[j]), key=lambda j: low.defs[j][0]):
        if low.resident[i] or low.output[i] or low.pinned[i] or low.into[i]:
            continue
        if inline[i]:
            cands.append((i, "Materialize", 0))
        else:
            cands.append((i, "Inline", low.cost[i] * max(1, R[i])))
    if compute > INT64_MAX or any(c > INT64_MAX for (_, _, c) in cands) or total > INT64_MAX:
        raise RoutineError("a compute, cost bound or arena past 2^63")
    return {
        "footprint": {"total": total, "live_peak": peak, "peak_step": live.index(peak),
                      "buffers": len(bufs), "compute": compute},
        "buffers": {low.names[i]: (low.bytes[i], st, en, off[i]) for (i, st, en) in spans},
        "inline": [low.names[i] for i in range(len(low.names)) if inline[i]],
        "rejected": [(low.names[i], why) for (i, why) in rejected],
        "candidates": [(low.names[i], d, c) for (i, d, c) in cands],
        "_cands": cands,
    }


# ---------------------------------------------------------------- fit

def fit(low, budget, max_candidates=None, alignment=1, max_inline_depth=8, context=(), cache=None):
    """§5's two-round planner.  Returns the plan and its trace: a list of
    events, each a dict with "kind" and "node" (None for the events that
    name no node) and, where §5 says the event carries what it compared,
    "alone", "with" and "cur" (a try: "with" is None while H is empty;
    a solo score: "alone" and "cur" = the baseline), or "reason" (a
    discarded group: "harmful", or "left-over" at the end), "relief" (an
    accept, a commit-group) or "cur" (the baseline's and the end's total).

    The order of the events is §5's order of the steps; where DESIGN is
    silent (the order in which the cap's kept and dropped candidates are
    listed) it is docs/design-notes.md's choice, the cap's own order: cost bound
    ascending, then definition order, the kept before the dropped."""
    base_prefs = {i for i in range(len(low.names)) if low.inline_flag[i]} | set(context)

    cache = {} if cache is None else cache

    def total(extra):
        key = frozenset(base_prefs | set(extra))
        if key not in cache:
            cache[key] = score(low, key, alignment, max_inline_depth)["footprint"]
        return cache[key]

    def event(kind, i=None, **kw):
        e = {"kind": kind, "node": None if i is None else low.names[i]}
        e.update(kw)
        events.append(e)

    baseline_sc = score(low, base_prefs, alignment, max_inline_depth)
    baseline = baseline_sc["footprint"]
    if budget[0] == "percent":
        budget = ("bytes", baseline["total"] * budget[1] // 100)
    n = budget[1] if budget[0] == "bytes" else None
    events = []
    event("baseline", cur=baseline["total"])
    plan = {"baseline": baseline, "final": baseline, "flips": [], "considered": 0, "dropped": 0,
            "within_budget": True, "order": [], "solo": {}}
    if n is not None and baseline["total"] <= n:
        event("budget-met")
        event("end", cur=baseline["total"])
        return plan, events
    cands = [(i, c) for (i, d, c) in baseline_sc["_cands"] if d == "Inline"]
    # the cap: max_candidates if given ("all": none), else 32 for Bytes, none for Minimize
    if max_candidates == "all":
        cap = None
    else:
        cap = max_candidates if max_candidates is not None else (32 if n is not None else None)
    by_cost = sorted(range(len(cands)), key=lambda k: (cands[k][1], k))
    keep_pos = set(by_cost if cap is None else by_cost[:cap])
    kept = [cands[k] for k in sorted(keep_pos)]
    for k in by_cost:
        if k in keep_pos:
            event("kept", cands[k][0])
    for k in by_cost:
        if k not in keep_pos:
            event("dropped", cands[k][0])
    plan["dropped"] = len(cands) - len(kept)
    plan["considered"] = len(kept)
    base_total = baseline["total"]
    solo = {}
    for k in by_cost:
        if k in keep_pos:
            i = cands[k][0]
            alone = total([i])["total"]
            solo[i] = base_total - alone
            event("solo", i, alone=alone, cur=base_total)
    defpos = {i: p for p, (i, c) in enumerate(cands)}

    def key(ic):
        i, c = ic
        r = solo[i]
        cls = 0 if r > 0 else (1 if r < 0 else 2)
        return (cls, -Fraction(r, c), c, defpos[i])

    order = sorted(kept, key=key)
    for i, c in order:
        event("order", i)
    plan["order"] = [low.names[i] for i, c in order]
    plan["solo"] = {low.names[i]: solo[i] for i in solo}
    A, H = [], []
    cur = base_total
    flips = []
    for (i, c) in order:
        if n is not None and cur <= n:
            break
        alone = total(A + [i])["total"]
        with_ = total(A + H + [i])["total"] if H else None
        event("try", i, alone=alone, cur=cur, **{"with": with_})

        def judge_alone(rule):
            nonlocal cur
            if alone < cur:
                flips.append((i, cur - alone, c))
                event("accept", i, rule=rule, relief=cur - alone)
                A.append(i)
                cur = alone
            elif alone == cur:
                H.append(i)
                event("hold", i, rule=rule)
            else:
                event("reject", i, rule=rule)

        if not H:
            judge_alone("H empty")
            continue
        if with_ < alone and with_ < cur:
            for h in H:
                flips.append((h, 0, dict(kept)[h]))
            flips.append((i, cur - with_, c))
            event("commit-group", i, rule="load-bearing", relief=cur - with_)
            A.extend(H)
            A.append(i)
            H = []
            cur = with_
        elif with_ < alone:
            event("reject", i, rule="with < alone, with >= cur")
        elif with_ > alone:
            event("discard-group", i, reason="harmful")
            H = []
            judge_alone("after harmful")
        else:
            judge_alone("neutral")
    if H:
        event("discard-group", reason="left-over")
    if n is not None and cur <= n:
        event("budget-met")
    final = total(A)
    event("end", cur=final["total"])
    plan["final"] = final
    plan["flips"] = [(low.names[i], r, c) for (i, r, c) in flips]
    plan["within_budget"] = n is None or final["total"] <= n
    assert sum(r for _, r, _ in flips) == base_total - final["total"]
    return plan, events
