#!/usr/bin/env python3
"""Move quality in the endgame band: exact-scored game positions, and an engine's moves on them.

Usage:
  move-quality.py build MATCH.ggf ENGINE OUT.obf [--empties 20-24] [--limit N] [--solver PATH] [--threads N]
  move-quality.py measure ENGINE_CMD SET.obf [--go "movetime 40"] [--limit N] [--option NAME=VALUE ...]

build: from every game of a reversi-match GGF file in which ENGINE (a PB[...] / PW[...] name) played,
takes each position with an empty count in the range where ENGINE was to move, solves every legal move
exactly with reversi-solve (the position after the move) and writes OBF lines with all move scores
(`<board> <side>; f5:+2; d3:-4; ...`, best first). Duplicate positions are written once; --limit keeps
the first N positions.

measure: starts ENGINE_CMD (a UCI-style engine: this project's reversi-engine), and for each position
sends `ucinewgame`, `position obf LINE` and `go GO`, and compares the move it plays with the exact scores:
mean disc loss (best score - chosen move's score), points lost (win 1, draw 1/2, loss 0: the game points
the move gives away under perfect play after it), best-move rate and the mean time per move. A
fixed-time search of game positions measures what the engine does in timed play there, at no cost to an
opponent; the points lost are the measure that matters for a match.

Example (docs/eval.md, "The endgame band"):
    tools/scripts/move-quality.py build /tmp/exp/g1.ggf base /tmp/exp/band.obf --empties 19-26
    tools/scripts/move-quality.py measure build/release/protocol/reversi-engine /tmp/exp/band.obf --go "movetime 40"
"""
import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("ggf_losses", os.path.join(_here, "ggf-losses.py"))
ggf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ggf)


def square_name(i):
    return "abcdefgh"[i % 8] + str(i // 8 + 1)


def children(board, side):
    """[(move name, child board)] for the legal moves of `side` on `board` (64 chars, X/O/-)."""
    out = []
    for i in range(64):
        child = ggf.play_move(board, i // 8, i % 8, side)
        if child is not None:
            out.append((square_name(i), child))
    return out


def build(argv):
    path, engine, out_path = argv[0], argv[1], argv[2]
    opts = parse_opts(argv[3:], {"--empties": "20-24", "--solver": "build/release/tools/reversi-solve",
                                 "--threads": "2", "--limit": "0"})
    lo, hi = (int(x) for x in opts["--empties"].split("-"))
    seen, positions = set(), []
    for black, white, _res, plies in ggf.games(path):
        if engine not in (black, white):
            continue
        mine = "X" if black == engine else "O"
        for empties, board, side in plies:
            if side == mine and lo <= empties <= hi and (board, side) not in seen:
                seen.add((board, side))
                positions.append((board, side))
    if int(opts["--limit"]):
        positions = positions[: int(opts["--limit"])]
    lines, owners = [], []
    for k, (board, side) in enumerate(positions):
        other = "O" if side == "X" else "X"
        for move, child in children(board, side):
            lines.append(f"{child} {other};\n")
            owners.append((k, move))
    print(f"move-quality: {len(positions)} positions, {len(lines)} moves to solve", file=sys.stderr, flush=True)
    values = ggf.solve(lines, opts["--solver"], opts["--threads"])
    scores = [dict() for _ in positions]
    for (k, move), v in zip(owners, values):
        if v is None:
            raise SystemExit(f"move-quality: the solver gave no score for {move} of position {k + 1}")
        scores[k][move] = -v
    with open(out_path, "w") as f:
        for (board, side), s in zip(positions, scores):
            listed = "; ".join(f"{m}:{v:+d}" for m, v in sorted(s.items(), key=lambda kv: -kv[1]))
            f.write(f"{board} {side}; {listed};\n")
    print(f"move-quality: wrote {len(positions)} positions to {out_path}", file=sys.stderr)
    return 0


def parse_opts(rest, opts, multi=()):
    for key in multi:
        opts[key] = []
    while rest:
        if rest[0] not in opts or len(rest) < 2:
            raise SystemExit(f"move-quality: unknown or incomplete option {rest[0]}")
        if rest[0] in multi:
            opts[rest[0]].append(rest[1])
        else:
            opts[rest[0]] = rest[1]
        rest = rest[2:]
    return opts


def read_set(path):
    out = []
    with open(path) as f:
        for line in f:
            parts = [p.strip() for p in line.strip().split(";") if p.strip()]
            if not parts:
                continue
            scores = {}
            for p in parts[1:]:
                m, v = p.split(":")
                scores[m.lower()] = int(v)
            out.append((line.strip(), scores))
    return out


def points(v):
    return 1.0 if v > 0 else (0.5 if v == 0 else 0.0)


def measure(argv):
    cmd, set_path = argv[0], argv[1]
    opts = parse_opts(argv[2:], {"--go": "movetime 40", "--limit": "0"}, multi=("--option",))
    positions = read_set(set_path)
    if int(opts["--limit"]):
        positions = positions[: int(opts["--limit"])]
    eng = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(line):
        eng.stdin.write(line + "\n")
        eng.stdin.flush()

    def wait_for(prefix):
        while True:
            line = eng.stdout.readline()
            if not line:
                raise SystemExit("move-quality: the engine closed its output")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    for o in opts["--option"]:
        name, value = o.split("=", 1)
        send(f"setoption name {name} value {value}")
    send("isready")
    wait_for("readyok")
    loss = lost_points = best = 0.0
    elapsed = 0.0
    for obf, scores in positions:
        send("ucinewgame")
        send(f"position obf {obf}")
        send("isready")
        wait_for("readyok")
        t0 = time.monotonic()
        send(f"go {opts['--go']}")
        move = wait_for("bestmove").split()[1].lower()
        elapsed += time.monotonic() - t0
        top = max(scores.values())
        got = scores.get(move)
        if got is None:
            raise SystemExit(f"move-quality: {move} is not a listed move of {obf}")
        loss += top - got
        lost_points += points(top) - points(got)
        best += got == top
    send("quit")
    eng.wait(timeout=10)
    n = max(1, len(positions))
    print(f"{len(positions)} positions, go {opts['--go']}: mean loss {loss / n:.3f} discs, "
          f"points lost {lost_points / n:.4f} per move, best {100 * best / n:.1f}%, "
          f"{1000 * elapsed / n:.1f} ms per move")
    return 0


def main(argv):
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in ("build", "measure") or len(argv) < 3:
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    if argv[0] == "build":
        if len(argv) < 4:
            print(__doc__.strip())
            return 2
        return build(argv[1:])
    return measure(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
