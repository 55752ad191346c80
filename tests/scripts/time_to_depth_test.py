#!/usr/bin/env python3
"""Test of tools/scripts/time-to-depth.py with stand-in engines.

1. A UCI stand-in (this file with --fake-engine) that answers every `go depth D` with one info line of
   1000 * D nodes: three games give three positions, so the script must report 3 * 1000 * D nodes.
2. An engine that exits at once (this file with --exit-engine): the script must fail with exit code 1
   and say so, instead of waiting for `uciok` forever (it once read the closed pipe's empty lines in a loop).
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "tools", "scripts", "time-to-depth.py")
BOARD = "BO[8 ---------------------------O*------*O--------------------------- *]"
GAME = f"(;GM[Othello]PC[t]GN[0]PB[a]PW[b]RE[+4.000]TY[8]{BOARD}B[F5]W[D6]B[C3]W[D3]B[C4];)"


def fake_engine():
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name fake\nuciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "go":
            depth = int(words[2])
            print(f"info depth {depth} nodes {1000 * depth}\nbestmove a1", flush=True)
        elif words[0] == "quit":
            return 0
    return 0


def engine_script(tmp, flag):
    path = os.path.join(tmp, flag.strip("-") + ".sh")
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\nexec {sys.executable} {os.path.abspath(__file__)} {flag}\n")
    os.chmod(path, 0o755)
    return path


def main():
    if "--fake-engine" in sys.argv:
        return fake_engine()
    if "--exit-engine" in sys.argv:
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        ggf = os.path.join(tmp, "m.ggf")
        with open(ggf, "w") as f:
            f.write("\n".join([GAME] * 3) + "\n")
        out = subprocess.run([sys.executable, SCRIPT, engine_script(tmp, "--fake-engine"), ggf, "--depth", "7",
                              "--games", "3"], capture_output=True, text=True, timeout=60)
        if out.returncode != 0 or "depth 7, 3 positions" not in out.stdout or " 21000 nodes" not in out.stdout:
            print(f"unexpected report (exit {out.returncode}):\n{out.stdout}{out.stderr}")
            return 1
        try:
            dead = subprocess.run([sys.executable, SCRIPT, engine_script(tmp, "--exit-engine"), ggf],
                                  capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            print("time-to-depth.py still waited 30 s after its engine exited")
            return 1
        if dead.returncode != 1 or "the engine exited" not in dead.stderr:
            print(f"an engine that exits: exit {dead.returncode}, stderr {dead.stderr!r}")
            return 1
    print("time-to-depth: the fake engine's nodes summed, an engine that exits reported")
    return 0


if __name__ == "__main__":
    sys.exit(main())
