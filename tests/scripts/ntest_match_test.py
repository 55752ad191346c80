#!/usr/bin/env python3
"""Test of tools/scripts/ntest-match.sh with its 'equal' limit, without NTest: the engine itself, in
NBoard mode behind an `ntest` wrapper, stands in for NTest at `set depth 8` (at depth 1 its moves can all
be recorded as 0 ms, and the time ratio is undefined).

Usage: ntest_match_test.py --engine PATH --match PATH

The calibration matches (two rounds, the second at the first's limit) must leave their games and the
limit they chose (OUT.limit, "tc=S+0" with S = 30.8 x the stand-in's mean ms/move over both rounds'
records, at least 0.05; a bad CAL_ROUNDS is refused; each round's openings drawn at random with the seed
SEED * 1000 + round, SEED the match's --seed, a bad one refused), the match must be played at that
limit (the summary of 2 games, the time-ratio line), and --resume must reuse the kept limit instead of
calibrating again. With PARTS=2 the match must be played in two parts on consecutive openings, the
second at the first's limit times NTest's mean ms/move over ours in part 1, the games together in
OUT.ggf and the parts pooled; --resume must keep each part's limit, and PARTS without 'equal', with
EVAL_FILES, or with more parts than pairs must be refused before anything is played. With EVAL_FILES
the match must be a gauntlet of NTest against one engine per weights file (each given its file as
option.EvalFile, the results log says so), summarised from each engine's side with its own time ratio; bad EVAL_FILES entries must be refused (exit 2) before anything is played.
"""
import argparse
import os
import re
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SCRIPT = os.path.join(ROOT, "tools", "scripts", "ntest-match.sh")
TIMES = os.path.join(ROOT, "tools", "scripts", "ggf-times.py")


WEIGHTS = os.path.abspath(os.path.join(ROOT, "engine", "data", "pattern.weights"))


def run(args, env, code=0):
    r = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
    assert r.returncode == code, f"{args}: exit {r.returncode}, expected {code}\n{r.stdout}\n{r.stderr}"
    return r


def check_gauntlet(tmp, env):
    """EVAL_FILES: NTest against one engine per weights file, each summarised from its own side."""
    out = os.path.join(tmp, "g")
    g = run(["bash", SCRIPT, tmp, "2", "depth=2", "4", out], dict(env, EVAL_FILES=f"a={WEIGHTS},b={WEIGHTS}"))
    print(g.stdout.strip())
    for name in ["a", "b"]:
        assert re.search(rf"^{name} vs ntest: 2 games, W/D/L \d+/\d+/\d+, Elo ", g.stdout, re.M), g.stdout
        assert re.search(rf"^time ratio \({name} / NTest\) ", g.stdout, re.M), g.stdout
    with open(out + ".log") as f:
        header = f.readline()
    for name in ["a", "b"]:
        assert re.search(rf"\[name={name} [^]]*option\.EvalFile={re.escape(WEIGHTS)}", header), header
    assert "tournament=gauntlet" in header, header
    for bad in ["ntest=" + WEIGHTS, f"a={WEIGHTS},a={WEIGHTS}", "a=" + os.path.join(tmp, "missing.weights"),
                "a", "a b=" + WEIGHTS, ","]:
        refused = run(["bash", SCRIPT, tmp, "2", "depth=2", "4", os.path.join(tmp, "bad")], dict(env, EVAL_FILES=bad),
                      code=2)
        assert "EVAL_FILES" in refused.stderr, refused.stderr
        assert not os.path.exists(os.path.join(tmp, "bad.log")), f"a match was played with EVAL_FILES={bad}"


def mean_of(files, name, env):
    times = run([sys.executable, TIMES] + files, env).stdout
    m = re.search(rf"^{name}: \d+ timed moves, mean ([0-9.]+) ms/move", times, re.M)
    assert m, times
    return float(m.group(1))


def seconds(limit):
    """S of a "tc=S+0" limit."""
    return float(limit[3:].split("+")[0])


def check_parts(tmp, env):
    """PARTS: the match in parts on consecutive openings, each later part's limit from the parts before."""
    out = os.path.join(tmp, "p")
    env = dict(env, CAL_ROUNDS="1", PARTS="2")
    first = run(["bash", SCRIPT, tmp, "4", "equal", "8", out], env)
    print(first.stderr.strip())
    print(first.stdout.strip())
    calibrated = open(out + ".limit").read().strip()
    assert open(out + "-p1.limit").read().strip() == calibrated
    s1 = seconds(calibrated)
    factor = mean_of([out + "-p1.ggf"], "ntest", env) / mean_of([out + "-p1.ggf"], "reversi", env)
    expected = f"tc={max(s1 * min(max(factor, 0.5), 2.0), 0.05):.2f}+0"
    second = open(out + "-p2.limit").read().strip()
    assert second == expected, f"part 2 at {second}, expected {expected}"
    assert f"part 2 of 2, 2 games from opening 2 (ours {second})" in first.stderr, first.stderr
    with open(out + "-p2.log") as f:
        header = f.readline()
    part_ms = round(seconds(second) * 1000)  # the log's header gives the clock in ms
    assert "offset=1" in header and f"tc={part_ms}+0" in header, header
    with open(out + ".ggf") as f:
        games = f.read().splitlines()
    assert len(games) == 4, games
    # The file's first opening (f5d6...) in part 1, its second (f5f6...) in part 2, both colours each.
    second_plies = [re.search(r"\bW\[([A-Ha-h][1-8])", g).group(1).upper() for g in games]
    assert second_plies == ["D6", "D6", "F6", "F6"], second_plies
    assert re.search(r"^pooled \(2 runs\): 4 games  W/D/L \d+/\d+/\d+  Elo ", first.stdout, re.M), first.stdout
    assert re.search(r"^time ratio \(ours / NTest\) [0-9.]+", first.stdout, re.M), first.stdout
    again = run(["bash", SCRIPT, tmp, "4", "equal", "8", out, "--", "--resume"], env)
    assert "calibrating" not in again.stderr and f"(ours {second})" in again.stderr, again.stderr
    assert "pooled (2 runs): 4 games" in again.stdout, again.stdout
    for bad_env, limit, games, words in ((dict(env, PARTS="0"), "equal", "4", "PARTS must be"),
                                         (env, "depth=2", "4", "needs the 'equal' limit"),
                                         (dict(env, PARTS="3"), "equal", "4", "cannot make 3 parts"),
                                         (dict(env, EVAL_FILES=f"a={WEIGHTS}"), "equal", "4", "cannot go together")):
        refused = run(["bash", SCRIPT, tmp, games, limit, "8", os.path.join(tmp, "bad-parts")], bad_env, code=2)
        assert words in refused.stderr, refused.stderr
        assert not os.path.exists(os.path.join(tmp, "bad-parts-cal.log")), "calibrated before refusing"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--match", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        stand_in = os.path.join(tmp, "ntest")  # `ntest x` speaks NBoard; so does `reversi-engine` after `nboard 2`
        with open(stand_in, "w") as f:
            f.write(f"#!/bin/sh\nexec '{os.path.abspath(args.engine)}'\n")
        os.chmod(stand_in, os.stat(stand_in).st_mode | stat.S_IXUSR)
        openings = os.path.join(tmp, "openings.txt")
        with open(openings, "w") as f:
            f.write("f5d6c4d3c2b3b4b5\nf5f6d3c5d6c7b5e3\n")
        env = dict(os.environ, ENGINE=os.path.abspath(args.engine), MATCH=os.path.abspath(args.match),
                   OPENINGS=openings, CAL_GAMES="2")
        out = os.path.join(tmp, "m")
        first = run(["bash", SCRIPT, tmp, "2", "equal", "8", out], env)
        print(first.stderr.strip())
        print(first.stdout.strip())

        # Two rounds (CAL_ROUNDS' default): the second at the first's limit, the kept limit from both.
        def limit_from(files):
            return f"tc={max(mean_of(files, 'ntest', env) * 30.8 / 1000, 0.05):.2f}+0"
        first_round = limit_from([out + "-cal.ggf"])
        assert f"round 2 of 2, 2 games (ours {first_round})" in first.stderr, first.stderr
        expected = limit_from([out + "-cal.ggf", out + "-cal2.ggf"])
        limit = open(out + ".limit").read().strip()
        assert limit == expected, f"kept limit {limit}, expected {expected}"
        assert f"ours {limit}" in first.stderr, first.stderr
        # Each round draws its openings at random, seeded from the match's --seed (default 1) and the round.
        for cal, order in ((out + "-cal.log", "order=random/1001"), (out + "-cal2.log", "order=random/1002")):
            with open(cal) as f:
                header = f.readline()
            assert order in header, f"{cal}: {header}"
        seeded = os.path.join(tmp, "s")
        run(["bash", SCRIPT, tmp, "2", "equal", "8", seeded, "--", "--seed", "7"], dict(env, CAL_ROUNDS="1"))
        with open(seeded + "-cal.log") as f:
            header = f.readline()
        assert "order=random/7001" in header, header
        bad_seed = run(["bash", SCRIPT, tmp, "2", "equal", "8", os.path.join(tmp, "x"), "--", "--seed", "x"], env,
                       code=2)
        assert "--seed must be a number" in bad_seed.stderr, bad_seed.stderr
        bad_rounds = run(["bash", SCRIPT, tmp, "2", "equal", "8", os.path.join(tmp, "r0")], dict(env, CAL_ROUNDS="0"),
                         code=2)
        assert "CAL_ROUNDS" in bad_rounds.stderr, bad_rounds.stderr
        assert "reversi vs ntest: 2 games" in first.stdout, first.stdout
        assert re.search(r"^time ratio \(ours / NTest\) [0-9.]+", first.stdout, re.M), first.stdout

        again = run(["bash", SCRIPT, tmp, "2", "equal", "8", out, "--", "--resume"], env)
        assert f"resuming with ours {limit}" in again.stderr, again.stderr
        assert "calibrating" not in again.stderr, again.stderr
        check_gauntlet(tmp, env)
        check_parts(tmp, env)
    print("ntest-match: 3 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
