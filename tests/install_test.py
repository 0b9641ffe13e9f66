#!/usr/bin/env python3
"""Installing: the sources copied to a temporary folder, configured, built
and installed with `cmake --install --prefix`, the prefix moved elsewhere,
the copy and its build deleted; then the installed binary alone: --version,
a score on a bundled profile, the themes (the CLI and the TUI in tmux), the
installed samples imported into a fresh store, the manual page and the bash
completion.

usage: install_test.py SOURCE_DIR CMAKE
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import check, finish, test  # noqa: E402

SRC, CMAKE = os.path.abspath(sys.argv[1]), sys.argv[2]
TMP = tempfile.mkdtemp(prefix="rs_install_")
COPY, BUILD = os.path.join(TMP, "src"), os.path.join(TMP, "build")
PREFIX, MOVED = os.path.join(TMP, "prefix"), os.path.join(TMP, "elsewhere", "rs")
BIN = os.path.join(MOVED, "bin", "rematscope")
DATA = os.path.join(MOVED, "share", "rematscope")
HOME = os.path.join(TMP, "home")  # no user's store or configuration


def sh(*cmd, cwd=None):
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=3000)
    check(p.returncode == 0, f"{' '.join(cmd[:4])}: exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}")
    return p.stdout


def run(*args, env=None, cwd=None):
    e = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": HOME, "LANG": "C.UTF-8"}
    e.update(env or {})
    p = subprocess.run([BIN, *args], capture_output=True, text=True, env=e, cwd=cwd or HOME, timeout=600)
    return p.returncode, p.stdout, p.stderr


def install_then_remove_the_trees():
    """Only what cmake --install wrote is left, and not where it was put."""
    shutil.copytree(SRC, COPY, ignore=lambda d, names: [n for n in names if n.startswith("build") or n in
                                                          (".git", "__pycache__")] if d == SRC else
                    [n for n in names if n == "__pycache__"])
    sh(CMAKE, "-S", COPY, "-B", BUILD, "-DRS_WERROR=ON", "-DCMAKE_BUILD_TYPE=Release")
    sh(CMAKE, "--build", BUILD, "--target", "rematscope", "docs", "-j2")
    sh(CMAKE, "--install", BUILD, "--prefix", PREFIX)
    os.makedirs(os.path.dirname(MOVED))
    shutil.move(PREFIX, MOVED)
    shutil.rmtree(COPY)
    shutil.rmtree(BUILD)
    os.makedirs(HOME)


try:
    install_then_remove_the_trees()
except AssertionError as ex:
    print(f"FAIL install_then_remove_the_trees: {ex}")
    shutil.rmtree(TMP, ignore_errors=True)
    sys.exit(1)


@test
def installs_where_the_issue_says():
    for rel in ("bin/rematscope", "share/man/man1/rematscope.1", "share/bash-completion/completions/rematscope",
                "share/rematscope/themes/default.theme", "share/rematscope/themes/light.theme",
                "share/rematscope/samples/profiles.csv", "share/rematscope/samples/mlp_step.routine",
                "share/rematscope/samples/gen/resnet_8.routine", "share/rematscope/samples/hlo/fused_mlp.hlo"):
        check(os.path.isfile(os.path.join(MOVED, rel)), f"{rel} not installed")
    check(os.access(BIN, os.X_OK), "the binary is not executable")
    check(not os.path.exists(COPY) and not os.path.exists(BUILD) and not os.path.exists(PREFIX), "a tree is left")


@test
def version_from_the_moved_prefix():
    with open(os.path.join(SRC, "CMakeLists.txt")) as f:
        version = re.search(r"project\(rematscope VERSION (\S+)", f.read()).group(1)
    rc, out, err = run("--version")
    check(rc == 0 and out.split("\n")[0] == f"rematscope {version}", f"{out!r} {err}")
    check(re.match(r"SQLite \S+, ncurses \S+, libcsv \S+$", out.split("\n")[1]), out)


@test
def scores_with_a_bundled_profile():
    mlp = os.path.join(DATA, "samples", "mlp_step.routine")
    rc, out, err = run("--db", ":memory:", "score", mlp, "--profile", "a100-80gb", "--json")
    check(rc == 0, err)
    fp = json.loads(out)["footprint"]
    # mlp_step scored with the a100-80gb profile: 9,927,424 B at alignment 256 (the profile's), peak at step 12
    check(fp["total"] == 9927424 and fp["peak_step"] == 12, fp)
    rc, out, err = run("--db", ":memory:", "score", mlp, "--profile", "a100-80gb")
    check(rc == 0 and "profile a100-80gb, alignment 256, max inline depth 8" in out, out[:300])
    rc, _, err = run("--db", ":memory:", "score", mlp, "--profile", "nope")
    check(rc == 2 and "no profile 'nope' (known: a100-80gb, a100-40gb" in err, err)


@test
def themes_come_from_the_moved_prefix():
    rc, out, err = run("--db", ":memory:", "config", "--theme", "light", "--json")
    check(rc == 0, err)
    theme = json.loads(out)["settings"]["theme"]
    check(theme == {"value": "light", "source": "command line"}, theme)
    conf = os.path.join(HOME, "conf")
    with open(conf, "w") as f:
        f.write("theme = nope\n")
    rc, _, err = run("--db", ":memory:", "--config", conf, "config")
    check(rc == 2 and f"no such theme (themes are {DATA}/themes/*.theme)" in err, err)
    # $RS_THEMES still chooses another folder
    rc, _, err = run("--db", ":memory:", "--config", conf, "config", env={"RS_THEMES": "/nowhere"})
    check(rc == 2 and "themes are /nowhere/*.theme" in err, err)


@test
def the_tui_opens_with_a_theme():
    sock = os.path.join(TMP, "tmux.sock")
    db = os.path.join(HOME, "tui.db")
    rc, _, err = run("--db", db, "import", os.path.join(DATA, "samples"))
    check(rc == 0, err)

    def header(theme):
        name = f"inst_{theme}"
        cmd = (f"env -u NO_COLOR LANG=C.UTF-8 TERM=xterm-256color HOME={HOME} {BIN} --db {db} "
               f"--theme {theme}; sleep 30")
        subprocess.run(["tmux", "-S", sock, "new-session", "-d", "-s", name, "-x", "120", "-y", "40", cmd],
                       check=True)
        try:
            end = time.time() + 10
            while time.time() < end:
                plain = subprocess.run(["tmux", "-S", sock, "capture-pane", "-p", "-t", name],
                                       capture_output=True, text=True).stdout
                if "Routines" in plain and "mlp_step" in plain:
                    break
                time.sleep(0.1)
            check("Routines" in plain and "mlp_step" in plain and "a100-80gb" in plain,
                  f"no Session screen with the samples:\n{plain}")
            colours = subprocess.run(["tmux", "-S", sock, "capture-pane", "-p", "-e", "-t", name],
                                     capture_output=True, text=True).stdout
            return colours.split("\n")[0]
        finally:
            subprocess.run(["tmux", "-S", sock, "kill-session", "-t", name], capture_output=True)

    try:
        # the tab bar is the header slot: light's `white blue bold`, default's `black cyan bold`
        light, default = header("light"), header("default")
        check(re.search(r"\x1b\[[0-9;]*44m", light) and not re.search(r"\x1b\[[0-9;]*46m", light), repr(light))
        check(re.search(r"\x1b\[[0-9;]*46m", default) and not re.search(r"\x1b\[[0-9;]*44m", default),
              repr(default))
    finally:
        subprocess.run(["tmux", "-S", sock, "kill-server"], capture_output=True)


@test
def imports_the_installed_samples():
    db = os.path.join(HOME, "samples.db")
    samples = os.path.join(DATA, "samples")
    rc, _, err = run("--db", db, "import", samples)
    check(rc == 0, err)
    want = [f for _, _, files in os.walk(samples) for f in files if f.endswith((".routine", ".hlo"))]
    rc, out, err = run("--db", db, "routines", "--json")
    check(rc == 0, err)
    got = sorted(r["name"] for r in json.loads(out))
    check(len(got) == len(want) and len(got) >= 19, f"{len(got)} routines stored, {len(want)} files")
    rc, out, _ = run("--db", db, "profiles", "--json")
    check([p["name"] for p in json.loads(out)][:3] == ["h200-141gb", "a100-80gb", "h100-80gb"] and len(json.loads(out)) == 9,
          out[:200])
    rc, out, err = run("--db", db, "fit", "mlp_step", "--budget", "60%", "--json")
    check(rc == 0, err)
    j = json.loads(out)  # as store_cli_test and tui_test have it: 60% of 9927172 B, missed at 6978052 B
    check(j["budget"] == {"kind": "bytes", "bytes": 5956303, "spec": "60%"} and j["final"]["total"] == 6978052
          and j["within_budget"] is False, out[:300])


@test
def the_manual_page_renders():
    page = os.path.join(MOVED, "share", "man", "man1", "rematscope.1")
    env = dict(os.environ, MANPAGER="cat", PAGER="cat", MANWIDTH="80", LANG="C.UTF-8")
    p = subprocess.run(["man", "-l", page], capture_output=True, text=True, env=env)
    text = re.sub(r".\x08", "", p.stdout)
    check(p.returncode == 0 and not p.stderr.strip(), p.stderr)
    check(re.search(r"^NAME\n +rematscope - ", text, re.M) and "--max-candidates N" in text, text[:500])
    # man finds it by name: share/man beside a bin/ on the PATH
    env.pop("MANPATH", None)
    p = subprocess.run(["man", "-w", "rematscope"], capture_output=True, text=True,
                       env=dict(env, PATH=os.path.join(MOVED, "bin") + ":/usr/bin:/bin"))
    check(p.stdout.strip() == page, f"man -w: {p.stdout} {p.stderr}")
    p = subprocess.run(["groff", "-man", "-ww", "-z", page], capture_output=True, text=True)
    check(p.returncode == 0 and not p.stderr, p.stderr)


@test
def the_bash_completion_asks_the_installed_binary():
    script = os.path.join(MOVED, "share", "bash-completion", "completions", "rematscope")
    prog = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); '
            '_rematscope; printf "%s\\n" "${COMPREPLY[@]}"')
    env = {"PATH": os.path.join(MOVED, "bin") + ":" + os.environ.get("PATH", ""), "HOME": HOME}
    for words, want in ((["rematscope", "--theme", ""], ["default", "high-contrast", "light"]),
                        ([BIN, "score", "x", "--profile", "a100"], ["a100-80gb", "a100-40gb"]),
                        (["rematscope", "sc"], ["score"])):
        p = subprocess.run(["bash", "-c", prog, "bash", script, *words], capture_output=True, text=True, env=env,
                           cwd=HOME)
        got = [w for w in p.stdout.split("\n") if w]
        check(got == want, f"{words}: {got} {p.stderr}")


try:
    finish()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
