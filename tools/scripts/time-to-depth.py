#!/usr/bin/env python3
"""Time to depth: an engine's fixed-depth searches on midgame positions taken from a match's games.

Usage: time-to-depth.py ENGINE MATCH.ggf [--depth 16] [--games 60] [--hash MIB] [--option NAME=VALUE ...]

Takes the first GAMES games of a reversi-match GGF file and, from game i, the position 12, 20 or 28
plies into it (i mod 3: 48, 40 and 32 empties from the start position); starts ENGINE once (a UCI-style
engine: this project's reversi-engine), optionally sets Hash and the --option settings (e.g.
`--option EvalFile=/tmp/new.weights`), then sends `position startpos moves ...`
and `go depth D` for each position in turn (no ucinewgame: one session, as in a game) and prints the
wall time of all searches, the nodes of the last iteration summed, and the nodes per second. A change
that keeps the search's nodes (the bench fingerprint) and lowers the time is a pure speed-up; compare
runs on a quiet machine, alternating the engines.

Example (docs/search.md, "Selective search"):
    tools/scripts/time-to-depth.py build/release/protocol/reversi-engine /tmp/exp/g056.ggf --depth 16
"""
import argparse
import re
import subprocess
import sys
import time


def positions(path, games):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            moves = [b.split("/")[0].lower() for b in re.findall(r"(?<![A-Z])[BW]\[([^\]]*)\]", line)]
            if not moves:
                continue
            plies = (12, 20, 28)[len(out) % 3]
            out.append(" ".join(m for m in moves[:plies] if m != "pa"))
            if len(out) == games:
                break
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("ggf")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--hash", type=int)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="setoption name NAME value VALUE before the searches (repeatable)")
    args = ap.parse_args()
    todo = positions(args.ggf, args.games)
    if not todo:
        print(f"time-to-depth: no games in {args.ggf}", file=sys.stderr)
        return 2
    p = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait_for(word):  # False when the engine exits first (readline then returns "" at once, forever)
        while True:
            line = p.stdout.readline()
            if not line:
                print(f"time-to-depth: the engine exited before '{word}'", file=sys.stderr)
                return False
            if word in line:
                return True

    send("uci")
    if not wait_for("uciok"):
        return 1
    if args.hash:
        send(f"setoption name Hash value {args.hash}")
    for option in args.option:
        name, sep, value = option.partition("=")
        if not sep or not name:
            print(f"time-to-depth: --option expects NAME=VALUE, got '{option}'", file=sys.stderr)
            return 2
        send(f"setoption name {name} value {value}")
    send("isready")
    if not wait_for("readyok"):
        return 1
    nodes = 0
    start = time.monotonic()
    for moves in todo:
        send("position startpos moves " + moves)
        send(f"go depth {args.depth}")
        last = ""
        while True:
            line = p.stdout.readline()
            if not line:
                print("time-to-depth: the engine exited", file=sys.stderr)
                return 1
            if line.startswith("info depth"):
                last = line
            if line.startswith("bestmove"):
                break
        m = re.search(r"nodes (\d+)", last)
        nodes += int(m.group(1)) if m else 0
    elapsed = time.monotonic() - start
    send("quit")
    p.wait()
    print(f"{args.engine}: depth {args.depth}, {len(todo)} positions, {elapsed:.2f} s, {nodes} nodes, "
          f"{nodes / elapsed / 1e6:.2f} Mnodes/s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        print("time-to-depth: the engine exited", file=sys.stderr)
        sys.exit(1)
