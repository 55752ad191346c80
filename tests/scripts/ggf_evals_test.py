#!/usr/bin/env python3
"""Test of tools/scripts/ggf-evals.py on two hand-written games whose means are known.

Game 0: 'a' is Black; game 1: 'a' is White. Evals are the mover's, so White's values change sign on
'a''s side; moves without an eval (the opening's) and passes are skipped, and a pass does not change the
empty count. The expected table (one-empty buckets) was worked out by hand below.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "tools", "scripts", "ggf-evals.py")
BOARD = "BO[8 ---------------------------O*------*O--------------------------- *]"
GAMES = [
    # 60 empties: f5 (no eval); 59: a's opponent (White) d6 says +1 for White -> -1 for a;
    # 58: a (Black) c3 says +2; 57: White pass (skipped, same count); 57: a c4 says +3.
    f"(;GM[Othello]PC[t]GN[0]PB[a]PW[b]RE[+4.000]TY[8]{BOARD}B[F5]W[D6/1.00/0.010]B[C3/2.00/0.010]"
    "W[PA]B[C4/3.00/0.010];)",
    # 'a' is White: 59: a d6 says -2 (a's side -2); 58: b (Black) c3 says +4 -> -4 for a.
    f"(;GM[Othello]PC[t]GN[1]PB[b]PW[a]RE[+6.000]TY[8]{BOARD}B[F5]W[D6/-2.00/0.010]B[C3/4.00/0.010];)",
]
EXPECTED = [
    "a: 2 games, evals in discs from a's side",
    "empties  own eval      n  opponent      n",
    "59     -2.00      1     -1.00      1",
    "58     +2.00      1     -4.00      1",
    "57     +3.00      1                0",
    "final     -1.00      2",
]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.ggf")
        with open(path, "w") as f:
            f.write("\n".join(GAMES) + "\n")
        out = subprocess.run([sys.executable, SCRIPT, "--bucket", "1", path, "a"], check=True,
                             capture_output=True, text=True).stdout
        got = [" ".join(line.split()) for line in out.strip().splitlines()]
        want = [" ".join(line.split()) for line in EXPECTED]
        assert got == want, "ggf-evals.py printed:\n" + out
        missing = subprocess.run([sys.executable, SCRIPT, path, "nobody"], capture_output=True, text=True)
        assert missing.returncode == 1 and "no finished game of nobody" in missing.stderr, missing.stderr
        usage = subprocess.run([sys.executable, SCRIPT, path], capture_output=True, text=True)
        assert usage.returncode == 2 and "usage" in usage.stderr, usage.stderr
    print("ggf-evals: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
