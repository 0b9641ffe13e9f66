"""A tiny test harness shared by the end-to-end scripts: @test runs a
function and counts it (RS_ONLY=name runs one), check() fails it with a
message, finish() prints "N passed, N failed" and exits with the status."""
import os
import sys

_counts = {"passed": 0, "failed": 0}


def store_schema():
    """The store's schema version (store/store.h's STORE_SCHEMA_VERSION): what a migration reaches."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "store", "store.h")) as f:
        for line in f:
            if line.startswith("#define STORE_SCHEMA_VERSION "):
                return int(line.split()[2])
    raise RuntimeError("store/store.h names no STORE_SCHEMA_VERSION")


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
