"""A tiny test harness shared by the end-to-end scripts: @test runs a
function and counts it (RS_ONLY=name runs one), check() fails it with a
message, finish() prints "N passed, N failed" and exits with the status."""
import os
import sys

_counts = {"passed": 0, "failed": 0}


def test(fn):
    only = os.environ.get("RS_ONLY")
    if only and fn.__name__ != only:
        return fn
    try:
        fn()
        _counts["passed"] += 1
        print(f"PASS {fn.__name__}", flush=True)
    except AssertionError as ex:
        _counts["failed"] += 1
        print(f"FAIL {fn.__name__}: {ex}", flush=True)
    return fn


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def failed():
    return _counts["failed"]


def finish():
    print(f"{_counts['passed']} passed, {_counts['failed']} failed")
    sys.exit(1 if _counts["failed"] else 0)
