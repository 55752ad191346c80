#!/usr/bin/env python3
"""Test of tools/scripts/band-replay.py on one game: the positions of player 'a' at 10-13 empties, their
clocks, their win/loss/draw values and an engine that solves them.

Usage: band_replay_test.py --engine PATH --solver PATH

Each position's clock must be the game's clock less the times of a's earlier moves in the record; its value
and the values after the moves must be the signs of reversi-solve's exact scores; an engine with time to
solve them (a 5 s clock at 13 empties or fewer) must give away no point, and a move recorded to lose one
must be counted.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "tools", "scripts", "band-replay.py")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
from move_quality_test import GAME  # noqa: E402  (the same recorded game)


def exact_signs(solver, boards):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "p.obf")
        with open(path, "w") as f:
            f.writelines(f"{b} {s}\n" for b, s in boards)
        out = subprocess.run([solver, "--file", path, "--threads", "1", "--hash", "16", "--number", "1"],
                             capture_output=True, text=True, check=False).stdout
    scores = [int(m.group(1)) for m in re.finditer(r"^\s*\d+\s+\d+\s+\S+\s+([+-]?\d+)\s", out, re.M)]
    assert len(scores) == len(boards), out
    return [(s > 0) - (s < 0) for s in scores]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--solver", required=True)
    args = ap.parse_args()
    spec = __import__("importlib.util").util.spec_from_file_location("band_replay", SCRIPT)
    band = __import__("importlib.util").util.module_from_spec(spec)
    spec.loader.exec_module(band)
    with tempfile.TemporaryDirectory() as tmp:
        ggf = os.path.join(tmp, "game.ggf")
        with open(ggf, "w") as f:
            f.write(GAME + "\n")
        out = os.path.join(tmp, "band.json")
        run = [sys.executable, SCRIPT]
        subprocess.run(run + ["extract", out, f"{ggf}:5000", "--name", "a", "--empties", "10-13"], check=True)
        positions = json.load(open(out))
        assert len(positions) >= 1, "no position of 'a' at 10-13 empties"
        # The clock: 5000 ms less a's earlier moves' times (B[...] moves: 'a' is black).
        times = [(m.group(1), float(m.group(2) or 0)) for m in
                 re.finditer(r"B\[([A-Za-z][0-9]|PA)(?:/[^/\]]*/([0-9.]+))?\]", GAME)]
        for p in positions:
            mine = sum(1 for i, m in enumerate(p["moves"]) if i % 2 == 0 and m != "pa")
            used = sum(t for _, t in times[:mine]) * 1000
            assert p["clock_ms"] == max(1, int(5000 - used)), (p["clock_ms"], used)
            assert 10 <= p["empties"] <= 13 and p["side"] == "X"
        subprocess.run(run + ["solve", out, "--solver", args.solver, "--threads", "1"], check=True)
        subprocess.run(run + ["play", out, args.engine, "exact", "--solver", args.solver, "--threads", "1"],
                       check=True)
        positions = json.load(open(out))
        values = exact_signs(args.solver, [(p["board"], p["side"]) for p in positions])
        assert [p["value"] for p in positions] == values, ([p["value"] for p in positions], values)
        for p in positions:
            for move, value in p["child_values"].items():
                child = (band.play(p["board"], p["side"], move), band.other(p["side"]))
                assert exact_signs(args.solver, [child]) == [value], (p["board"], move, value)
        # A losing move recorded under another tag must be counted: the worst move of the first position.
        worst = None
        for i in range(64):
            name = "abcdefgh"[i % 8] + str(i // 8 + 1)
            try:
                child = band.play(positions[0]["board"], "X", name)
            except ValueError:
                continue
            v = -exact_signs(args.solver, [(child, "O")])[0]
            if worst is None or v < worst[1]:
                worst = (name, v)
        positions[0]["moves_by"]["worst"] = worst[0]
        json.dump(positions, open(out, "w"))
        subprocess.run(run + ["solve", out, "--solver", args.solver, "--threads", "1"], check=True)
        report = subprocess.run(run + ["report", out], capture_output=True, text=True, check=True).stdout
        print(report.strip())
        assert re.search(r"^exact: \d+ positions, points lost 0\.0 ", report, re.M), report
        expected = band.points(positions[0]["value"]) - band.points(worst[1])
        assert f"worst: 1 positions, points lost {expected:.1f} " in report, (expected, report)
    print("band-replay: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
