#!/usr/bin/env python3
"""Pools several matches between the same two engines into one Elo figure with its 95 % interval.

Usage: elo-pool.py [RUN.json ...] [--penta LL,LD,WL+DD,WD,WW ...]

Each RUN.json is a summary written by `reversi-match --json` (or by tools/scripts/ntest-match.sh, which
keeps one per run); --penta gives a run by its pentanomial counts alone (the colour-swapped pairs that
scored 0, 0.5, 1, 1.5 and 2 points for the first engine), as docs/eval.md lists them. The counts of all
runs are summed and the interval is computed as reversi-match computes it for one run: the mean pair
score s +- 1.959964 standard errors (population variance of the pair scores / pairs), each mapped to Elo
by -400 log10(1 / s - 1). One line per run, then the pooled line; exit status 2 on a malformed input.

Example (docs/eval.md, "The shipped engine on an AMD Zen 5 VM"):
    tools/scripts/elo-pool.py /tmp/s51/m1.json --penta 12,24,75,30,59 --penta 17,16,74,35,58
"""
import argparse
import json
import math
import sys

Z95 = 1.959963984540054
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def elo(score):
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def interval(penta):
    """(elo, low, high) of one set of pentanomial counts."""
    pairs = sum(penta)
    mean = sum(n * v for n, v in zip(penta, PAIR_SCORES)) / pairs
    var = sum(n * (v - mean) ** 2 for n, v in zip(penta, PAIR_SCORES)) / pairs
    se = math.sqrt(var / pairs)
    return elo(mean), elo(mean - Z95 * se), elo(mean + Z95 * se)


def valid_counts(counts):
    return len(counts) == 5 and min(counts) >= 0 and sum(counts) > 0


def parse_penta(text):
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        counts = []
    if not valid_counts(counts):
        raise ValueError(f"--penta {text!r}: expected five counts >= 0, not all zero, e.g. 19,19,70,40,52")
    return counts


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        penta = [int(x) for x in doc["pentanomial"]]
        wdl = (int(doc["wins"]), int(doc["draws"]), int(doc["losses"]))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path}: not a reversi-match summary ({e})") from e
    if not valid_counts(penta):
        raise ValueError(f"{path}: its pentanomial {penta} has no complete pair")
    return penta, wdl


def line(label, penta, wdl):
    e, lo, hi = (x + 0.0 for x in interval(penta))  # + 0.0: level prints +0.0, not -0.0
    games = f"{2 * sum(penta)} games"
    record = f"  W/D/L {wdl[0]}/{wdl[1]}/{wdl[2]}" if wdl else ""
    counts = ", ".join(str(n) for n in penta)
    return f"{label}: {games}{record}  Elo {e:+.1f} [{lo:+.1f}, {hi:+.1f}]  pentanomial {counts}"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("runs", nargs="*", help="reversi-match --json summaries")
    ap.add_argument("--penta", action="append", default=[], help="a run's pentanomial counts (repeatable)")
    args = ap.parse_args(argv)
    if not args.runs and not args.penta:
        ap.error("give at least one run")
    try:
        runs = [(path, *read_json(path)) for path in args.runs]
        runs += [(f"--penta {text}", parse_penta(text), None) for text in args.penta]
    except ValueError as e:
        print(f"elo-pool: {e}", file=sys.stderr)
        return 2
    for label, penta, wdl in runs:
        print(line(label, penta, wdl))
    _, pentas, wdls = zip(*runs)
    total = [sum(column) for column in zip(*pentas)]
    pooled_wdl = tuple(sum(column) for column in zip(*wdls)) if all(wdls) else None
    print(line(f"pooled ({len(runs)} runs)", total, pooled_wdl))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
