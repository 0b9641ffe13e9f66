#!/usr/bin/env python3
"""include_check: the layering of app/ read from the code's own includes.

usage: include_check.py ROOT [--graph]

Reads the `#include "..."` lines of app/** (and, for the loop's header, of
tests/ and bench/), resolved as the compiler does (the including file's
folder, then app/), and fails on:
  - a file under app/tui/ including one under app/cli/ (the TUI takes
    nothing from the CLI: what both use is in app/);
  - a file directly in app/ including one under app/tui/, or one under
    app/cli/ other than from main.c (app/ is below both front ends);
  - the loop's header (app/tui/tui.h) included by anything but tui.c and
    app/cli/cmd_tui.c;
  - a cycle among the modules of app/tui (a .c and its .h are one module),
    or among all the modules of app/;
  - an include against the TUI's layers: the loop (tui) above the screens
    (screen_*) above the rest (state and services); a screen includes no
    other screen;
  - an app/tui header declaring a function its own .c does not define (so
    an include says whose code is called).
--graph prints the module graph of app/tui as arrows and exits 0.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
LOOP = "app/tui/tui"
LOOP_USERS = {"app/tui/tui.c", "app/cli/cmd_tui.c"}


def sources(root, folders):
    for folder in folders:
        for d, _, names in os.walk(os.path.join(root, folder)):
            for n in sorted(names):
                if n.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(d, n), root)


def includes(root, path):
    """The app/ files path includes, as root-relative paths."""
    with open(os.path.join(root, path), encoding="utf-8") as f:
        text = f.read()
    out = []
    for name in INCLUDE.findall(text):
        for base in (os.path.dirname(path), "app"):
            p = os.path.normpath(os.path.join(base, name))
            if p.startswith("app/") and os.path.exists(os.path.join(root, p)):
                out.append(p)
                break
    return out


def module(path):
    return os.path.splitext(path)[0]


def short(mod):
    return mod[len("app/tui/"):] if mod.startswith("app/tui/") else mod


def rank(mod):
    name = short(mod)
    return 2 if mod == LOOP else 1 if name.startswith("screen_") else 0


def find_cycle(graph):
    """A cycle of graph (a list of modules, first repeated last) or None."""
    state, stack = {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                c = visit(n)
                if c:
                    return c
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            c = visit(m)
            if c:
                return c
    return None


C_TYPES = {"void", "int", "bool", "char", "short", "long", "unsigned", "signed", "float", "double", "const"}


def declared(header_text):
    """Names of the functions a header declares at file scope."""
    text = re.sub(r"/\*.*?\*/", " ", header_text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", " ", text, flags=re.M)
    names, braces, parens = [], 0, 0
    for tok in re.finditer(r"[A-Za-z_]\w*\s*\(|[{}()]", text):
        t = tok.group(0)
        if t == "{":
            braces += 1
        elif t == "}":
            braces -= 1
        elif t == ")":
            parens -= 1
        elif t == "(":
            parens += 1
        else:
            if braces == 0 and parens == 0:
                name = t.rstrip("( \t\n")
                if not name.startswith("__") and name not in C_TYPES:  # "typedef int (*fn)(...)"
                    names.append(name)
            parens += 1
    return names


def defines(text, name):
    """Whether text defines function name: a line at column 0 naming it
    that is not a prototype (it opens a body, or goes on to the next)."""
    for line in re.findall(r"^(?!\s|static\b(?!\s+inline))[^;\n]*\b%s\s*\(.*$" % re.escape(name), text, re.M):
        if "{" in line or not line.rstrip().endswith(";"):
            return True
    return False


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = sys.argv[1]
    files = list(sources(root, ["app"]))
    edges = {f: includes(root, f) for f in files}
    errors = []

    for f, incs in edges.items():
        here = os.path.dirname(f)
        for p in incs:
            if here.startswith("app/tui") and p.startswith("app/cli/"):
                errors.append(f"{f} includes {p}: the TUI takes nothing from the CLI")
            if here == "app" and p.startswith("app/tui/"):
                errors.append(f"{f} includes {p}: app/ is below the TUI")
            if here == "app" and p.startswith("app/cli/") and f != "app/main.c":
                errors.append(f"{f} includes {p}: app/ is below the CLI")

    for f in list(sources(root, ["tests", "bench"])) + files:
        incs = edges[f] if f in edges else includes(root, f)
        if LOOP + ".h" in incs and f not in LOOP_USERS:
            errors.append(f"{f} includes {LOOP}.h: the loop is called by cmd_tui alone")

    graph = {}
    for f, incs in edges.items():
        if not f.startswith("app/tui/"):
            continue
        m = module(f)
        graph.setdefault(m, set())
        for p in incs:
            n = module(p)
            if p.startswith("app/tui/") and n != m:
                graph[m].add(n)

    if "--graph" in sys.argv:
        for m in sorted(graph):
            for n in sorted(graph[m]):
                print(f"{short(m)} -> {short(n)}")
            outside = sorted({module(p) for f in edges if module(f) == m for p in edges[f]
                              if not p.startswith("app/tui/")})
            for n in outside:
                print(f"{short(m)} -> {n}")
        return 0

    cycle = find_cycle(graph)
    if cycle:
        errors.append("a cycle in app/tui: " + " -> ".join(short(m) for m in cycle))
    whole = {}
    for f, incs in edges.items():
        m = module(f)
        whole.setdefault(m, set()).update(module(p) for p in incs if module(p) != m)
    cycle = find_cycle(whole)
    if cycle:
        errors.append("a cycle in app/: " + " -> ".join(cycle))

    for m, outs in graph.items():
        for n in outs:
            if rank(n) > rank(m) or (rank(m) == 1 and rank(n) == 1):
                errors.append(f"{short(m)} includes {short(n)}: against the layers "
                              "(loop -> screens -> state and services)")

    for f in files:
        if not (f.startswith("app/tui/") and f.endswith(".h")):
            continue
        with open(os.path.join(root, f), encoding="utf-8") as h:
            htext = h.read()
        c = module(f) + ".c"
        ctext = ""
        if os.path.exists(os.path.join(root, c)):
            with open(os.path.join(root, c), encoding="utf-8") as cf:
                ctext = cf.read()
        for name in declared(htext):
            if not defines(ctext, name) and not defines(htext, name):
                errors.append(f"{f} declares {name}, which {c} does not define")

    for e in errors:
        print("include_check: " + e)
    if errors:
        return 1
    print(f"include_check: {len(files)} files, {len(whole)} modules ({len(graph)} in the TUI), no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
