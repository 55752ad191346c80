#!/usr/bin/env python3
"""Mean thinking time per move of each engine in a reversi-match GGF file.

Usage: ggf-times.py MATCH.ggf [MATCH.ggf ...]

Reads the B[move/eval/time] and W[...] entries of every game (time in seconds, as reversi-match
records it), attributes each to the engine named by PB[...] / PW[...], and prints per engine the
number of timed moves, the mean and the 95th percentile in milliseconds. Moves without a time (the
opening's moves, forced passes played by the runner) are not counted.
"""
import re
import sys
from collections import defaultdict


def main(paths):
    if not paths or paths[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if paths else 2
    times = defaultdict(list)
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                pb = re.search(r"PB\[([^\]]*)\]", line)
                pw = re.search(r"PW\[([^\]]*)\]", line)
                if not pb or not pw:
                    continue
                for colour, body in re.findall(r"(?<![A-Z])([BW])\[([^\]]*)\]", line):
                    parts = body.split("/")
                    if len(parts) < 3 or not parts[2]:
                        continue
                    try:
                        seconds = float(parts[2])
                    except ValueError:
                        continue
                    name = pb.group(1) if colour == "B" else pw.group(1)
                    times[name].append(seconds * 1000.0)
    if not times:
        print("no timed moves found", file=sys.stderr)
        return 1
    for name in sorted(times):
        t = sorted(times[name])
        p95 = t[min(len(t) - 1, int(0.95 * len(t)))]
        print(f"{name}: {len(t)} timed moves, mean {sum(t) / len(t):.1f} ms/move, p95 {p95:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
