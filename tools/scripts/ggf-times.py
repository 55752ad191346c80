#!/usr/bin/env python3
"""Mean thinking time per move of each engine in a reversi-match GGF file.

Usage: ggf-times.py [--by-empties N] MATCH.ggf [MATCH.ggf ...]

Reads the B[move/eval/time] and W[...] entries of every game (time in seconds, as reversi-match
records it), attributes each to the engine named by PB[...] / PW[...], and prints per engine the
number of timed moves, the mean and the 95th percentile in milliseconds. Moves without a time (the
opening's moves, forced passes played by the runner) are not counted.

--by-empties N: also prints, per engine, the mean ms per move by the empty squares of the position
the move was played in, in buckets of N empties (1: every count), from 60 down: where each engine
spends its clock.
"""
import re
import sys
from collections import defaultdict


def empties_of_board(line):
    """Empty squares of the game's start position (the BO[8 ...] tag), or None."""
    bo = re.search(r"BO\[8 ([^ \]]*)", line)
    return bo.group(1).count("-") if bo else None


def game_moves(line):
    """The moves of one GGF game line as (player name, colour, empties before the move or None, the
    move entry split at '/': move, eval, time), in order; a pass does not change the empty count.
    Nothing for a line without PB[...] and PW[...]. ggf-evals.py reads the games with it too."""
    pb = re.search(r"PB\[([^\]]*)\]", line)
    pw = re.search(r"PW\[([^\]]*)\]", line)
    if not pb or not pw:
        return
    empties = empties_of_board(line)
    for colour, body in re.findall(r"(?<![A-Z])([BW])\[([^\]]*)\]", line):
        parts = body.split("/")
        before = empties
        if empties is not None and parts[0].upper() != "PA":
            empties -= 1
        yield (pb.group(1) if colour == "B" else pw.group(1)), colour, before, parts


def main(args):
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    bucket = 0
    if args[0] == "--by-empties":
        if len(args) < 3 or not args[1].isdigit() or int(args[1]) < 1:
            print("ggf-times.py: --by-empties needs a bucket size >= 1 and a file", file=sys.stderr)
            return 2
        bucket = int(args[1])
        args = args[2:]
    paths = args
    times = defaultdict(list)
    by_empties = defaultdict(lambda: defaultdict(list))
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                for name, _, before, parts in game_moves(line):
                    if len(parts) < 3 or not parts[2]:
                        continue
                    try:
                        seconds = float(parts[2])
                    except ValueError:
                        continue
                    times[name].append(seconds * 1000.0)
                    if bucket and before is not None:
                        by_empties[name][before // bucket * bucket].append(seconds * 1000.0)
    if not times:
        print("no timed moves found", file=sys.stderr)
        return 1
    for name in sorted(times):
        t = sorted(times[name])
        p95 = t[min(len(t) - 1, int(0.95 * len(t)))]
        print(f"{name}: {len(t)} timed moves, mean {sum(t) / len(t):.1f} ms/move, p95 {p95:.1f} ms")
    if bucket:
        print("mean ms/move by empties" + (f" (buckets of {bucket})" if bucket > 1 else ""))
        for name in sorted(by_empties):
            cells = by_empties[name]
            row = " ".join(
                (f"{e}" if bucket == 1 else f"{e}-{e + bucket - 1}") + f":{sum(cells[e]) / len(cells[e]):.0f}"
                for e in sorted(cells, reverse=True))
            print(f"  {name}: {row}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
