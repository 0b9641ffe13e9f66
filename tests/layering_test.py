#!/usr/bin/env python3
"""The core's layering, read from the #include lines of core/ (docs/building.md "Where
things are"): libc only, never a header of store/ or app/; each folder
includes only itself and the folders below it; an internal header (*_int.h)
only from its own module; inside layout/, bestfit, timeline and canon build
on arena and tight on them, never the other way; no .c file of core/,
store/ or app/ over 700 lines (app/tui/screen_fit.c grew to 786 unseen
while only core/ was counted: issue 43).
Usage: layering_test.py SOURCE_DIR.  Prints each violation as FILE:LINE:
message and exits 1; exits 0 when there is none."""
import os
import re
import sys

BELOW = {
    'util': set(),
    'model': {'util'},
    'layout': {'util'},
    'lower': {'model', 'layout', 'util'},
    'plan': {'lower', 'model', 'layout', 'util'},
}
LAYOUT_RANK = {'arena': 0, 'bestfit': 1, 'timeline': 1, 'canon': 1, 'tight': 2, 'relayout': 2, 'layout': 3}
LIBC = {
    'assert.h', 'complex.h', 'ctype.h', 'errno.h', 'fenv.h', 'float.h', 'inttypes.h', 'iso646.h', 'limits.h',
    'locale.h', 'math.h', 'setjmp.h', 'signal.h', 'stdalign.h', 'stdarg.h', 'stdatomic.h', 'stdbool.h',
    'stddef.h', 'stdint.h', 'stdio.h', 'stdlib.h', 'stdnoreturn.h', 'string.h', 'strings.h', 'tgmath.h',
    'threads.h', 'time.h', 'uchar.h', 'wchar.h', 'wctype.h', 'pthread.h', 'unistd.h', 'sched.h',
}
MAX_LINES = 700
INCLUDE = re.compile(r'\s*#\s*include\s*([<"])([^>"]+)[>"]')


def check_include(folder, stem, kind, name):
    """What is wrong with `#include <name>` or "name" in core/folder/stem.*, or None."""
    if kind == '<':
        return None if name in LIBC else f'<{name}> is not libc: core/ is libc only'
    parts = name.split('/')
    if len(parts) != 2 or parts[0] not in BELOW:
        return f'"{name}" is outside core/ (core/ includes only its own model/ lower/ layout/ plan/ util/)'
    to, header = parts[0], parts[1].rsplit('.', 1)[0]
    if to != folder and to not in BELOW[folder]:
        allowed = ' '.join(sorted(BELOW[folder] | {folder}))
        return f'core/{folder} may include only {allowed}, not {to}/'
    if header.endswith('_int') and (to != folder or not stem.startswith(header[:-4])):
        return f'"{name}" is internal to the {header[:-4]} module of core/{to}'
    if folder == to == 'layout' and header != stem and \
            LAYOUT_RANK.get(header, 0) >= LAYOUT_RANK.get(stem, len(LAYOUT_RANK)):
        return f'layout/{stem} may not build on {name} (arena <- bestfit timeline canon <- tight <- layout)'
    return None


def long_files(root):
    """Every .c file of store/ and app/ (core/'s are counted with their
    includes) over MAX_LINES, as FILE:LINE: message."""
    out = []
    for top in ('store', 'app'):
        for d, _, names in sorted(os.walk(os.path.join(root, top))):
            for f in sorted(names):
                if not f.endswith('.c'):
                    continue
                with open(os.path.join(d, f), encoding='utf-8') as fh:
                    n = len(fh.read().rstrip('\n').split('\n'))
                if n > MAX_LINES:
                    rel = os.path.relpath(os.path.join(d, f), root)
                    out.append(f'{rel}:{n}: {n} lines, over {MAX_LINES}: split it by responsibility')
    return out


def main():
    core = os.path.join(sys.argv[1], 'core')
    problems, files = [], 0
    for folder in sorted(os.listdir(core)):
        d = os.path.join(core, folder)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith(('.c', '.h')):
                continue
            files += 1
            rel = f'core/{folder}/{f}'
            if folder not in BELOW:
                problems.append(f'{rel}:1: core/{folder}/ is not one of the layers ({" ".join(sorted(BELOW))})')
                continue
            with open(os.path.join(d, f), encoding='utf-8') as fh:
                lines = fh.read().split('\n')
            if lines and lines[-1] == '':
                lines.pop()
            for no, line in enumerate(lines, 1):
                m = INCLUDE.match(line)
                why = m and check_include(folder, f.rsplit('.', 1)[0], m.group(1), m.group(2))
                if why:
                    problems.append(f'{rel}:{no}: {why}')
            if f.endswith('.c') and len(lines) > MAX_LINES:
                problems.append(f'{rel}:{len(lines)}: {len(lines)} lines, over {MAX_LINES}: split it by responsibility')
    problems += long_files(sys.argv[1])
    for p in problems:
        print(p)
    print(f'{files} files of core/: {len(problems)} layering violations')
    return 1 if problems or not files else 0


if __name__ == '__main__':
    sys.exit(main())
