#!/usr/bin/env python3
"""Where a match's margin accrues: each engine's own evaluations along the games, by empty squares.

Usage: ggf-evals.py [--bucket N] MATCH.ggf ENGINE

Reads the B[move/eval/time] and W[...] entries of every game of a reversi-match GGF file in which
ENGINE (a PB[...] / PW[...] name) played. Each entry's eval is the value its mover reported, in discs
for the mover; the script turns it to ENGINE's side and prints, per bucket of N empties (the position
the move was played in; default 4), from 60 down: the mean of ENGINE's own evals and the mean of its
opponents' evals, both from ENGINE's side, with their counts, then ENGINE's mean final result.

Read it as: the opponent's column is what the opponent believes ENGINE's position is worth at each
point; where it falls, the opponent believes ENGINE lost discs there. ENGINE's column above the
opponent's is optimism (the search steered into positions its evaluation over-values). Solver values
(often +-64 in win/loss/draw passes) make the last buckets noisy; exact values come from
ggf-losses.py instead.
"""
import importlib.util
import os
import re
import sys
from collections import defaultdict

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("ggf_times", os.path.join(_here, "ggf-times.py"))
ggf_times = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ggf_times)


def game_evals(line, engine, bucket, own, other):
    """Adds one game's evals (ENGINE's side) to own/other; returns ENGINE's final result or None."""
    pb = re.search(r"PB\[([^\]]*)\]", line)
    pw = re.search(r"PW\[([^\]]*)\]", line)
    result = re.search(r"RE\[([-+0-9.]+)", line)
    if not pb or not pw or ggf_times.empties_of_board(line) is None or engine not in (pb.group(1), pw.group(1)):
        return None
    colour_of_engine = "B" if pb.group(1) == engine else "W"
    for _, colour, before, parts in ggf_times.game_moves(line):
        if len(parts) < 2 or not parts[1]:
            continue
        try:
            value = float(parts[1])
        except ValueError:
            continue
        side = value if colour == colour_of_engine else -value
        table = own if colour == colour_of_engine else other
        table[before // bucket * bucket].append(side)
    if not result:
        return None
    final = float(result.group(1))  # Black's disc margin
    return final if colour_of_engine == "B" else -final


def main(args):
    if not args or args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if args else 2
    bucket = 4
    if args[0] == "--bucket":
        if len(args) < 2 or not args[1].isdigit() or int(args[1]) < 1:
            print("ggf-evals.py: --bucket needs a size >= 1", file=sys.stderr)
            return 2
        bucket = int(args[1])
        args = args[2:]
    if len(args) != 2:
        print("ggf-evals.py: usage: ggf-evals.py [--bucket N] MATCH.ggf ENGINE", file=sys.stderr)
        return 2
    path, engine = args
    own, other = defaultdict(list), defaultdict(list)
    finals = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                final = game_evals(line, engine, bucket, own, other)
                if final is not None:
                    finals.append(final)
    except OSError as error:
        print(f"ggf-evals.py: cannot read {path}: {error.strerror}", file=sys.stderr)
        return 2
    if not finals:
        print(f"ggf-evals.py: no finished game of {engine} in {path}", file=sys.stderr)
        return 1
    print(f"{engine}: {len(finals)} games, evals in discs from {engine}'s side")
    print(f"{'empties':>8} {'own eval':>9} {'n':>6} {'opponent':>9} {'n':>6}")
    for start in sorted(set(own) | set(other), reverse=True):
        label = f"{start}-{start + bucket - 1}" if bucket > 1 else f"{start}"

        def cell(values):
            return (f"{sum(values) / len(values):+9.2f} {len(values):6d}" if values
                    else f"{'':>9} {0:6d}")
        print(f"{label:>8} {cell(own[start])} {cell(other[start])}")
    print(f"{'final':>8} {sum(finals) / len(finals):+9.2f} {len(finals):6d}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
