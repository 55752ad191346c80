#!/usr/bin/env python3
"""Test of tools/scripts/retrain.sh (the resumable retraining pipeline) on tiny data: two seeds of six
games at depth 2, a WTHOR folder of one 40-game file the trainer itself plays, searched targets at depth 2,
two probcut schedules, the hard set three positions of the shared hard-20 set (the measure stage must
say it skipped when the shared data is absent).

Usage: retrain_test.py --train PATH

The whole run must leave each stage's output; a second run must keep everything (no seed played again,
the fit and the calibrations not redone); a changed schedule must redo the calibrations from it on;
a seed cut short must be played again byte for byte the same, and drop its cached samples, the fit and
the calibrations; a fit started again must keep its fitted phases and take every searched score from the
checkpoint, and drop the calibrations; the copies of the trainer and of the search weights must be used
once made; bad settings, a bad stage or a missing trainer must be refused (exit 2); a fit without its
games and a failing trainer must stop the run (exit 1), the trainer's own message on stderr.
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SCRIPT = os.path.join(ROOT, "tools", "scripts", "retrain.sh")
OPENINGS = "f5d6c4d3c2b3b4b5\nf5f6d3c5d6c7b5e3\n"
SHARED_HARD = os.path.join(ROOT, "..", "shared", "data", "endgame-hard", "hard-20.obf")


# The script's settings: the caller's values must not leak into the test.
SETTINGS = ["SEEDS", "GAMES", "SELFPLAY_ARGS", "OPENINGS", "BASE_SELFPLAY", "WTHOR", "EXACT_EMPTIES", "SEARCH_DEPTH",
            "SEARCH_EMPTIES", "SEARCH_WEIGHT", "SEARCH_WEIGHTS", "FIT_ARGS", "SCHEDULES", "PROBCUT_ARGS", "HARD",
            "TRAIN", "THREADS", "NICE", "SELFPLAY_PERFECT"]


def searched(log):
    """(searched, from the checkpoint) of the last searched-targets line of a fit log."""
    found = re.findall(r"(\d+) searched, (\d+) from the checkpoint", log)
    assert found, log
    return tuple(int(x) for x in found[-1])


def check_perfect_play(fit_log):
    """The seeds' games are taken as perfect play from their theory depth (SELFPLAY_PERFECT=1): of a
    seed's exact targets, only the first game's are solved (the trainer's check), not about half."""
    lines = re.findall(r"samples \d+/\d+ (\S+): .*?\((\d+) exact from (\d+) solves", fit_log)
    assert lines, fit_log
    exact = solves = 0
    for name, e, n in lines:  # the counts are running totals
        e, n = int(e), int(n)
        if name.startswith("WTH_SELF_S"):
            assert e - exact >= 30 and (n - solves) * 4 < e - exact, (name, e - exact, n - solves)
        exact, solves = e, n


def mtime(out, name):
    return os.path.getmtime(os.path.join(out, name))


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run(args, env, code=0):
    r = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    assert r.returncode == code, f"{args}: exit {r.returncode}, expected {code}\n{r.stdout}\n{r.stderr}"
    return r


def make_inputs(tmp, train):
    """The openings, a WTHOR folder of one 40-game file, and a hard folder (three positions of hard-20, or
    empty when the shared set is absent). Returns (openings, wthor, hard, have_hard)."""
    openings = os.path.join(tmp, "openings.txt")
    with open(openings, "w") as f:
        f.write(OPENINGS)
    wthor = os.path.join(tmp, "wthor")
    os.mkdir(wthor)
    run([train, "selfplay", "--games", "40", "--depth", "2", "--exact-from", "10", "--openings", openings,
         "--seed", "7", "--out", os.path.join(wthor, "WTH_2000.wtb")], os.environ)
    hard = os.path.join(tmp, "hard")
    os.mkdir(hard)
    have_hard = os.path.isfile(SHARED_HARD)
    if have_hard:
        with open(SHARED_HARD) as f:
            lines = f.readlines()[:3]
        with open(os.path.join(hard, "hard-20.obf"), "w") as f:
            f.writelines(lines)
    else:
        print("the shared hard-20 set is absent: the measure stage is checked to skip")
    return openings, wthor, hard, have_hard


def check_first_run(out, env, have_hard):
    """The whole run leaves every stage's output. Returns (the fit log, its number of searched scores).
    The script is run as docs/eval.md runs it, without bash in front: it must be executable."""
    first = run([SCRIPT, out], env)
    print(first.stderr.strip())
    for name in ["sp/WTH_SELF_S1.wtb", "sp/WTH_SELF_S2.wtb", "search.ckpt", "fit.weights", "fit.done",
                 "cal1.weights", "cal2.weights", "pattern.weights", "bin/reversi-train", "search.weights"]:
        assert os.path.isfile(os.path.join(out, name)), f"{name} missing after the first run"
    assert os.path.getsize(os.path.join(out, "sp/WTH_SELF_S1.wtb")) == 16 + 68 * 6
    assert "2 seeds played, 0 already there" in first.stderr, first.stderr
    with open(os.path.join(out, "fit.log")) as f:
        fit_log = f.read()
    first_searched, first_from_checkpoint = searched(fit_log)
    assert first_searched > 0 and first_from_checkpoint == 0, fit_log
    check_perfect_play(fit_log)
    if have_hard:
        with open(os.path.join(out, "measure.txt")) as f:
            measure = f.read()
        assert "hard-20.obf" in measure, measure
    else:
        assert "measure: skipped" in first.stderr, first.stderr
    assert sha(os.path.join(out, "cal2.weights")) == sha(os.path.join(out, "pattern.weights"))
    return fit_log, first_searched


def check_kept_and_schedules(out, env):
    """A second run does nothing again; a changed schedule redoes the calibrations from it on."""
    done = {n: mtime(out, n) for n in ["fit.weights", "cal1.weights", "cal2.weights"]}
    second = run(["bash", SCRIPT, out, "selfplay", "fit", "calibrate"], env)
    assert "0 seeds played, 2 already there" in second.stderr, second.stderr
    assert "fit: already done" in second.stderr, second.stderr
    for n, t in done.items():
        assert mtime(out, n) == t, f"{n} was made again"

    # A changed second schedule redoes the second calibration only.
    changed = run(["bash", SCRIPT, out, "calibrate"], dict(env, SCHEDULES="3:30 5:20"))
    assert "schedule 3:30" not in changed.stderr and "schedule 5:20" in changed.stderr, changed.stderr
    assert mtime(out, "cal1.weights") == done["cal1.weights"], "the first calibration was redone"
    assert sha(os.path.join(out, "cal2.weights")) == sha(os.path.join(out, "pattern.weights"))
    # A changed first schedule redoes both: the second builds on the first.
    both = run(["bash", SCRIPT, out, "calibrate"], dict(env, SCHEDULES="3:25 5:20"))
    assert "schedule 3:25" in both.stderr and "schedule 5:20" in both.stderr, both.stderr


def check_replayed_seed(out, env):
    """A seed cut short is played again, the same games, and drops what was made from it."""
    s2 = os.path.join(out, "sp/WTH_SELF_S2.wtb")
    whole = sha(s2)
    with open(s2, "r+b") as f:
        f.truncate(100)
    third = run(["bash", SCRIPT, out, "selfplay"], env)
    assert "1 seeds played, 1 already there" in third.stderr, third.stderr
    assert sha(s2) == whole, "the replayed seed differs"
    for stale in ["cache/WTH_SELF_S2.samples", "fit.done", "cal1.weights", "cal2.weights", "pattern.weights"]:
        assert not os.path.exists(os.path.join(out, stale)), f"{stale} kept after a seed was played again"
    assert os.path.exists(os.path.join(out, "cache/WTH_SELF_S1.samples"))


def check_refit(out, env, env_later, fit_log, first_searched):
    """The fit again: its phases kept, its scores from the checkpoint, the copies used (not TRAIN or
    SEARCH_WEIGHTS, which env_later makes missing), the calibrations made anew."""
    fitted = sha(os.path.join(out, "fit.weights"))
    run(["bash", SCRIPT, out, "calibrate"], env, code=1)  # no fit done: refused
    fourth = run(["bash", SCRIPT, out, "fit"], env_later)
    print(fourth.stderr.strip())
    with open(os.path.join(out, "fit.log")) as f:
        refit = f.read()[len(fit_log):]
    assert searched(refit) == (0, first_searched), refit
    assert len(re.findall(r"kept from .*fit\.weights", refit)) == 10, refit
    assert sha(os.path.join(out, "fit.weights")) == fitted, "the kept phases changed"
    run(["bash", SCRIPT, out, "calibrate"], env)
    assert os.path.isfile(os.path.join(out, "pattern.weights"))


def check_refusals(tmp, out, env, env_later):
    """Bad stages, settings and trainers are refused (exit 2); missing games and a failing trainer stop
    the run (exit 1) with the reason on stderr."""
    bad = run(["bash", SCRIPT, out, "tune"], env, code=2)
    assert "unknown stage 'tune'" in bad.stderr, bad.stderr
    bare = run(["bash", SCRIPT, os.path.join(tmp, "fresh"), "selfplay"], env_later, code=2)
    assert "missing" in bare.stderr, bare.stderr
    for bad_setting in [{"SEEDS": "9-3"}, {"GAMES": "4k"}, {"THREADS": "two"}, {"SELFPLAY_PERFECT": "yes"}]:
        run(["bash", SCRIPT, out, "selfplay"], dict(env, **bad_setting), code=2)
    os.remove(os.path.join(out, "fit.done"))
    clash = run(["bash", SCRIPT, out, "fit"], dict(env, BASE_SELFPLAY=os.path.join(out, "sp/WTH_SELF_S1.wtb")),
                code=2)
    assert "has the name of seed 1" in clash.stderr, clash.stderr
    shutil.rmtree(os.path.join(out, "sp"))
    nogames = run(["bash", SCRIPT, out, "fit"], env, code=1)
    assert "seed 1's games are missing" in nogames.stderr, nogames.stderr
    failing = run(["bash", SCRIPT, out, "selfplay"], dict(env, SELFPLAY_ARGS="--depth 99"), code=1)
    assert "reversi-train selfplay failed" in failing.stderr, failing.stderr
    assert "--depth: 99 is out of range" in failing.stderr, failing.stderr


def check_old_trainer(tmp, env):
    """A folder whose trainer predates --selfplay-perfect (a stand-in that hides it and refuses it) is
    fitted with solves, with a warning, instead of failing on the unknown option."""
    old = os.path.join(tmp, "old-trainer")
    with open(old, "w") as f:
        f.write("#!/bin/sh\n"
                "case \" $* \" in *\" --selfplay-perfect \"*) echo 'unknown option --selfplay-perfect' >&2; exit 2;; esac\n"
                f"if [ \"$1\" = --help ]; then \"{env['TRAIN']}\" --help 2>&1 | grep -v selfplay-perfect; exit 0; fi\n"
                f"exec \"{env['TRAIN']}\" \"$@\"\n")
    os.chmod(old, 0o755)
    out = os.path.join(tmp, "old-out")
    r = run([SCRIPT, out, "selfplay", "fit"], dict(env, TRAIN=old))
    assert "predates --selfplay-perfect: the self-play files are solved" in r.stderr, r.stderr
    assert os.path.isfile(os.path.join(out, "fit.done"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", required=True)
    args = ap.parse_args()
    train = os.path.abspath(args.train)
    with tempfile.TemporaryDirectory() as tmp:
        openings, wthor, hard, have_hard = make_inputs(tmp, train)
        out = os.path.join(tmp, "out")
        clean = {k: v for k, v in os.environ.items() if k not in SETTINGS}
        env = dict(clean, TRAIN=train, SEEDS="1-2", GAMES="6", SELFPLAY_ARGS="--depth 2 --exact-from 10",
                   OPENINGS=openings, BASE_SELFPLAY="", WTHOR=wthor, EXACT_EMPTIES="10", SEARCH_DEPTH="2",
                   SEARCH_EMPTIES="40-60", SEARCH_WEIGHT="0.5", SCHEDULES="3:30 4:20", PROBCUT_ARGS="--min-samples 2",
                   FIT_ARGS="--iterations 5", HARD=hard, THREADS="1", NICE="0")
        env_later = dict(env, TRAIN=os.path.join(tmp, "no-such-trainer"),
                         SEARCH_WEIGHTS=os.path.join(tmp, "no-such-weights"))
        fit_log, first_searched = check_first_run(out, env, have_hard)
        check_kept_and_schedules(out, env)
        check_replayed_seed(out, env)
        check_refit(out, env, env_later, fit_log, first_searched)
        check_refusals(tmp, out, env, env_later)
        check_old_trainer(tmp, env)
    print("retrain.sh: all stages, resumption, replay and refusals as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
