#!/usr/bin/env python3
"""End-to-end tests of the configuration file (DESIGN §11), `rematscope
config`, fit's memory_budget, and `--audit` (DESIGN §6) through the real
binary: JSON parsed, errors read in full.

usage: config_test.py REMATSCOPE SAMPLES_DIR
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, test  # noqa: E402

BIN, SAMPLES = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp(prefix="rs_config_")
XDG = os.path.join(TMP, "xdg")  # XDG_CONFIG_HOME: rematscope/config under it
MLP = os.path.join(SAMPLES, "mlp_step.routine")
PAIR = os.path.join(SAMPLES, "pair_peak.routine")
UNET = os.path.join(SAMPLES, "gen", "unet_small.routine")  # 41 Inline candidates


def run(*args, home_config=None):
    e = dict(os.environ, XDG_DATA_HOME=TMP, XDG_CONFIG_HOME=XDG)
    os.makedirs(os.path.join(XDG, "rematscope"), exist_ok=True)
    default = os.path.join(XDG, "rematscope", "config")
    if home_config is None:
        if os.path.exists(default):
            os.remove(default)
    else:
        with open(default, "w") as f:
            f.write(home_config)
    wrap = os.environ.get("RS_WRAP", "").split()
    p = subprocess.run([*wrap, BIN, *args], capture_output=True, text=True, env=e, timeout=600)
    if p.returncode == 99:
        raise AssertionError(f"valgrind found errors in {args}:\n{p.stderr[-3000:]}")
    return p.returncode, p.stdout, p.stderr


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def settings(*args, home_config=None):
    rc, out, err = run("config", "--json", *args, home_config=home_config)
    check(rc == 0, f"exit {rc}: {err}")
    return json.loads(out)


@test
def defaults_without_a_file():
    j = settings()
    check(j["file"] is None, j)
    want = {"memory_budget": "none", "log_memory_budget": "false", "buffer_aliasing": "on", "layout": "greedy",
            "alignment": "1", "max_inline_depth": "8", "profile": "none", "theme": "default"}
    check({k: v["value"] for k, v in j["settings"].items()} == want, j)
    check(all(v["source"] == "default" for v in j["settings"].values()), j)
    rc, out, err = run("config")
    check(rc == 0 and "# no config file (" in out and "alignment         = 1" in out, out)


@test
def precedence_case_by_case():
    home = "# mine\nalignment = 64\nprofile = a100-80gb\nlayout = timeline\n"
    default = os.path.join(XDG, "rematscope", "config")
    j = settings(home_config=home)
    s = j["settings"]
    check(j["file"] == default, j)
    # file over profile: the a100's alignment is 256, the file says 64
    check(s["alignment"] == {"value": "64", "source": f"{default}:2"}, s["alignment"])
    # profile over default: the a100 profile's depth
    check(s["max_inline_depth"]["source"] == "profile a100-80gb", s["max_inline_depth"])
    check(s["profile"] == {"value": "a100-80gb", "source": f"{default}:3"}, s["profile"])
    check(s["layout"] == {"value": "timeline", "source": f"{default}:4"}, s["layout"])
    check(s["theme"]["source"] == "default", s["theme"])
    # command line over file, one key at a time
    s = settings("--alignment", "4", home_config=home)["settings"]
    check(s["alignment"] == {"value": "4", "source": "command line"}, s["alignment"])
    check(s["layout"]["source"] == f"{default}:4", s["layout"])
    s = settings("--layout", "tight", "--no-aliasing", "--log-memory-budget", "--budget", "60%",
                 "--theme", "light", "--max-inline-depth", "2", home_config=home)["settings"]
    for k, v in [("layout", "tight"), ("buffer_aliasing", "off"), ("log_memory_budget", "true"),
                 ("memory_budget", "60%"), ("theme", "light"), ("max_inline_depth", "2")]:
        check(s[k] == {"value": v, "source": "command line"}, (k, s[k]))
    # a --theme that names no theme is refused as the file's is, naming the flag
    rc, out, err = run("config", "--theme", "nosuch", home_config=home)
    check(rc == 2 and err.startswith("rematscope: --theme: ") and "nosuch.theme: no such theme (themes are " in err
          and out == "", (rc, err))
    # --profile '' is no profile, over the file's: alignment is the file's, depth the default
    s = settings("--profile", "", home_config=home)["settings"]
    check(s["profile"] == {"value": "none", "source": "command line"}, s["profile"])
    check(s["max_inline_depth"] == {"value": "8", "source": "default"}, s["max_inline_depth"])
    # --config PATH replaces the default file
    other = write("other.cfg", "\n\nmax_inline_depth = 1\n")
    j = settings("--config", other, home_config=home)
    check(j["file"] == other, j)
    check(j["settings"]["max_inline_depth"] == {"value": "1", "source": f"{other}:3"}, j)
    check(j["settings"]["alignment"]["source"] == "default", j)


@test
def score_follows_the_file():
    rc, out, err = run("score", MLP, "--json", "--alignment", "256", "--layout", "timeline")
    want = json.loads(out)["footprint"]
    rc, out, err = run("score", MLP, "--json", home_config="alignment = 256\nlayout = timeline\n")
    check(rc == 0, err)
    check(json.loads(out)["footprint"] == want, (out, want))
    rc, out, err = run("score", MLP, "--json", home_config="buffer_aliasing = off\n")
    fp = json.loads(out)["footprint"]
    check(fp["total"] == fp["live_peak"], "aliasing off: every buffer lives over the routine")
    rc, out, err = run("fit", MLP, "--budget", "50%", home_config="buffer_aliasing = off\n")
    check(rc == 2 and "buffer_aliasing" in err, err)


@test
def bad_files_fail_every_command():
    cases = [
        ("max_candidates = 64\n", 1, 1, "unknown key 'max_candidates'"),
        ("layout = greedy\nalignment = zero\n", 2, 13, "expected an integer"),
        ("memory_budget = 5 potatoes\n", 1, 18, "unknown unit"),
        ("log_memory_budget = on\n", 1, 21, "expected true or false"),
        ("theme = nosuch\n", 1, 9, "theme: no such theme"),
    ]
    for text, line, col, needle in cases:
        path = write("bad.cfg", text)
        for cmd in (["routines"], ["score", MLP], ["config"]):
            rc, out, err = run(*cmd, "--config", path)
            check(rc == 2 and out == "", (cmd, rc, out))
            check(err.startswith(f"rematscope: {path}:{line}:{col}: ") and needle in err, (text, err))
        rc, out, err = run("routines", home_config=text)
        check(rc == 2 and f"rematscope/config:{line}:{col}: " in err, err)
    rc, out, err = run("config", "--config", os.path.join(TMP, "missing.cfg"))
    check(rc == 2 and "missing.cfg: cannot open" in err, err)
    # a profile the file names is looked up where it is used
    rc, out, err = run("score", MLP, "--config", write("p.cfg", "\n profile = nosuch\n"))
    check(rc == 2 and "p.cfg:2:12: profile: no profile 'nosuch'" in err, err)
    rc, out, err = run("fit", MLP, home_config="memory_budget = device\n")
    check(rc == 2 and "rematscope/config:1:17: memory_budget: budget 'device' needs a hardware profile" in err, err)


@test
def fit_uses_memory_budget():
    rc, out, err = run("fit", PAIR, "--json")
    check(rc == 2 and "fit needs --budget" in err and "memory_budget" in err, err)
    rc, out, err = run("fit", PAIR, "--json", home_config="memory_budget = 50B\n")
    check(rc == 0, err)
    check(json.loads(out)["budget"] == {"kind": "bytes", "bytes": 50, "spec": "50B"}, out)
    rc, out, err = run("fit", PAIR, "--json", "--budget", "minimize", home_config="memory_budget = 50B\n")
    check(json.loads(out)["budget"] == {"kind": "minimize", "spec": "minimize"}, out)


@test
def config_only_minimize_has_no_cap():
    rc, out, err = run("fit", UNET, "--json", home_config="memory_budget = minimize\n")
    check(rc == 0, err)
    j = json.loads(out)
    check(j["budget"] == {"kind": "minimize", "spec": "minimize"}, j["budget"])
    check(j["dropped"] == 0 and j["considered"] == 41, (j["considered"], j["dropped"]))
    rc, out, err = run("fit", UNET, "--json", "--budget", "50%", home_config="memory_budget = minimize\n")
    j = json.loads(out)
    check(j["considered"] == 32 and j["dropped"] == 9, (j["considered"], j["dropped"]))
    rc, out, err = run("fit", UNET, "--budget", "50%")
    check("candidate cap 32" in out, out)
    # log_memory_budget from the file logs what the cap dropped
    rc, out, err = run("fit", UNET, "--budget", "50%", home_config="log_memory_budget = true\n")
    check(err.count("rematscope: memory budget: dropped candidate") == 9, err)


@test
def audit_reports_and_records():
    db = os.path.join(TMP, "audit.db")
    rc, out, err = run("fit", PAIR, "--budget", "minimize", "--json", "--audit", "--save", "--db", db)
    check(rc == 0, err)
    j = json.loads(out)
    n = j["reuse"]["reused"]
    check(n == 5, j["reuse"])
    check(err == f"rematscope: audit: {n} reuses checked, 0 differences\n", err)
    rc, out, err = run("show", str(j["plan_id"]), "--json", "--db", db)
    check(json.loads(out)["audit"] == f"{n} reuses checked, 0 differences\n", out)
    rc, out, err = run("show", str(j["plan_id"]), "--db", db)
    check(f"audit: {n} reuses checked, 0 differences" in out, out)
    # an unaudited plan records no audit
    rc, out, err = run("fit", PAIR, "--budget", "minimize", "--json", "--save", "--db", db)
    rc, out, err = run("show", str(json.loads(out)["plan_id"]), "--json", "--db", db)
    check("audit" not in json.loads(out), out)
    # a sweep audits each budget's fit, on one cell
    rc, out, err = run("sweep", UNET, "--budgets", "50%,minimize", "--audit", "--json")
    check(rc == 0, err)
    plans = json.loads(out)["plans"]
    lines = err.splitlines()
    check(len(lines) == 2, err)
    for i, p in enumerate(plans):
        # the first fit's reuses are its scorings after the fill; the second's all of its own
        mine = p["reuse"]["reused"] - (plans[i - 1]["reuse"]["reused"] if i else 0)
        check(lines[i] == f"rematscope: audit of budget {i + 1}: {mine} reuses checked, 0 differences", lines[i])


finish()
