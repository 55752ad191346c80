#!/usr/bin/env python3
"""Test of tools/scripts/move-quality.py: builds an exact-scored set from one game and measures an engine
that solves exactly on it.

Usage: move_quality_test.py --engine PATH --solver PATH

The set's positions (10-13 empties, where player 'a' was to move) must list their moves best first, and the
best listed score must equal the exact score of the position itself, solved by reversi-solve on its own (so
every move was scored, and scored from the right side). An engine searching to the end ('go depth 20') must
then lose nothing: mean loss 0, no point lost, 100 % best moves.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "tools", "scripts", "move-quality.py")
GAME = "(;GM[Othello]PC[reversi-match]DT[2026-11-25 19:59:08 GMT]GN[0]PB[a]PW[b]RE[-6.000]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[C4/-3.00/0.000]W[C5/-3.00/0.000]B[D6/3.00/0.000]W[C3/-5.00/0.000]B[D3/5.00/0.000]W[F4/-2.00/0.000]B[F5/2.00/0.000]W[E3/-2.00/0.000]B[G4/2.00/0.000]W[E6/-4.00/0.000]B[F6/4.00/0.000]W[G6/-3.00/0.000]B[H6/3.00/0.000]W[F3/-1.00/0.005]B[G3/1.00/0.000]W[G5/0.00/0.000]B[F2/0.00/0.003]W[H3/-2.00/0.004]B[H5/2.00/0.000]W[H4/-3.00/0.000]B[E2/3.00/0.000]W[D2/-3.00/0.000]B[C6/3.00/0.000]W[H7/-6.00/0.000]B[C1/6.00/0.000]W[D7/-8.00/0.000]B[E7/8.00/0.000]W[C7/-6.00/0.000]B[C8/6.00/0.000]W[F8/-6.00/0.000]B[E8/6.00/0.000]W[G7/-10.00/0.000]B[F7/10.00/0.000]W[D8/1.00/0.000]B[B4/-1.00/0.000]W[B5/-4.00/0.000]B[B3/4.00/0.000]W[B8/-3.00/0.000]B[H8/3.00/0.000]W[G2/0.00/0.000]B[C2/0.00/0.000]W[A4/3.00/0.000]B[G1/-3.00/0.000]W[H1/-1.00/0.000]B[H2/1.00/0.000]W[F1/-1.00/0.000]B[D1/1.00/0.000]W[E1/5.00/0.000]B[B2/-5.00/0.000]W[G8/1.00/0.000]B[A8/-1.00/0.000]W[A1/-5.00/0.000]B[B1/5.00/0.000]W[A3/-7.00/0.000]B[B7/7.00/0.000]W[A2/3.00/0.000]B[B6/-3.00/0.000]W[A5/6.00/0.000]B[PA]W[A6/6.00/0.001];)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", required=True)
    ap.add_argument("--solver", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        ggf = os.path.join(tmp, "game.ggf")
        with open(ggf, "w") as f:
            f.write(GAME + "\n")
        out = os.path.join(tmp, "set.obf")
        subprocess.run([sys.executable, SCRIPT, "build", ggf, "a", out, "--empties", "10-13",
                        "--solver", args.solver, "--threads", "1"], check=True)
        lines = [l.strip() for l in open(out) if l.strip()]
        assert len(lines) == 2, f"expected the 2 positions of 'a' at 10-13 empties, got {len(lines)}"
        parents = os.path.join(tmp, "parents.obf")
        with open(parents, "w") as f:
            for line in lines:
                f.write(line.split(";")[0] + ";\n")
        solved = subprocess.run([args.solver, "--file", parents, "--threads", "1", "--hash", "16"],
                                capture_output=True, text=True, check=False).stdout
        exact = [int(m.group(1)) for m in re.finditer(r"^\s*\d+\s+\d+\s+\S+\s+([+-]?\d+)\s", solved, re.M)]
        assert len(exact) == len(lines), solved
        for line, value in zip(lines, exact):
            scores = [int(p.split(":")[1]) for p in line.split(";")[1:] if p.strip()]
            assert scores == sorted(scores, reverse=True), line
            assert scores[0] == value, f"{line}: best listed {scores[0]}, exact {value}"
        result = subprocess.run([sys.executable, SCRIPT, "measure", args.engine, out, "--go", "depth 20"],
                                capture_output=True, text=True, check=True).stdout
        print(result.strip())
        assert "mean loss 0.000 discs, points lost 0.0000 per move, best 100.0%" in result, result
    print("move-quality: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
