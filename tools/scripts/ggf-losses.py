#!/usr/bin/env python3
"""Where an engine loses its discs: exact values along the games of a reversi-match GGF file.

Usage: ggf-losses.py MATCH.ggf ENGINE [--empties 24,20] [--solver PATH] [--threads N] [--first N]

For every game in which ENGINE (a PB[...] / PW[...] name) played, takes the position when at most E empty
squares are left (for each E of --empties), solves it exactly with reversi-solve (an OBF file in a
temporary folder) and prints, from ENGINE's side: the mean exact value at each point, the mean final
result, and so the discs (and game points: win 1, draw 1/2) lost after each point. What an engine loses
after a point where the value is exact is its own play from there on (plus what its opponent gains by
errors, which lowers the loss). The XOT openings are played in colour-swapped pairs, so the mean value at
the start is zero.

--solver    reversi-solve (default build/release/tools/reversi-solve)
--threads   solver threads (default 2)
--first     only the first N games (a solve at 24 empties takes seconds)

Example (the figures in docs/eval.md, "Time for the endgame band"):
    tools/scripts/ggf-losses.py /tmp/g2.ggf d6w05pc --empties 24,20
"""
import os
import re
import subprocess
import sys
import tempfile

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, row, col, me):
    opp = "O" if me == "X" else "X"
    out = []
    if board[row * 8 + col] != "-":
        return out
    for dr, dc in DIRS:
        r, c, line = row + dr, col + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == opp:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == me:
            out += line
    return out


def play_move(board, row, col, me):
    """The board (64 chars, X/O/-) after `me` plays at (row, col); None when the move is illegal."""
    flipped = flips(board, row, col, me)
    if not flipped:
        return None
    b = list(board)
    b[row * 8 + col] = me
    for i in flipped:
        b[i] = me
    return "".join(b)


def games(path):
    """Yields (black, white, result for black, [(empties, board, side to move)]) per game."""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            pb = re.search(r"PB\[([^\]]*)\]", line)
            pw = re.search(r"PW\[([^\]]*)\]", line)
            bo = re.search(r"BO\[8 ([^ \]]*) ([*O])\]", line)
            re_tag = re.search(r"RE\[([^\]:]*)", line)
            if not (pb and pw and bo and re_tag):
                continue
            board = bo.group(1).replace("*", "X")
            positions = []
            for colour, body in re.findall(r"(?<![A-Z])([BW])\[([^\]]*)\]", line):
                move = body.split("/")[0].upper()
                if move.startswith("PA"):
                    continue
                me = "X" if colour == "B" else "O"
                positions.append((board.count("-"), board, me))
                board = play_move(board, int(move[1]) - 1, ord(move[0]) - ord("A"), me)
                if board is None:
                    raise ValueError(f"illegal move {move} in {path}")
            yield pb.group(1), pw.group(1), float(re_tag.group(1)), positions


def solve(obf_lines, solver, threads, wld=False):
    """The score of each OBF line (None where reversi-solve gave none); with wld, its sign is the result."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "points.obf")
        with open(path, "w") as f:
            f.write("".join(obf_lines))
        out = subprocess.run([solver, "--file", path, "--threads", str(threads), "--hash", "128"]
                             + (["--wld"] if wld else []), capture_output=True, text=True, check=False).stdout
    scores = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)\s+\d+\s+\S+\s+([+-]?\d+)\s", line)
        if m:
            scores[int(m.group(1))] = int(m.group(2))
    return [scores.get(i + 1) for i in range(len(obf_lines))]


def points(v):
    return 1.0 if v > 0 else (0.5 if v == 0 else 0.0)


def main(argv):
    if len(argv) < 2 or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    path, engine = argv[0], argv[1]
    opts = {"--empties": "24,20", "--solver": "build/release/tools/reversi-solve", "--threads": "2", "--first": ""}
    rest = argv[2:]
    while rest:
        if rest[0] not in opts or len(rest) < 2:
            print(f"unknown or incomplete option {rest[0]}", file=sys.stderr)
            return 2
        opts[rest[0]] = rest[1]
        rest = rest[2:]
    empties = [int(e) for e in opts["--empties"].split(",")]
    played = [g for g in games(path) if engine in (g[0], g[1])]
    if opts["--first"]:
        played = played[: int(opts["--first"])]
    if not played:
        print(f"no game of {engine} in {path}", file=sys.stderr)
        return 1
    finals = [(1 if g[0] == engine else -1) * g[2] for g in played]
    print(f"{engine}: {len(played)} games, mean final {sum(finals) / len(finals):+.2f} discs, "
          f"{sum(points(f) for f in finals) / len(finals):.3f} points per game")
    for e in empties:
        lines, owners = [], []
        for (black, _white, _res, positions), final in zip(played, finals):
            later = [p for p in positions if p[0] <= e]
            if not later:
                continue
            _n, board, side = later[0]
            lines.append(f"{board} {side};\n")
            owners.append((1 if (side == "X") == (black == engine) else -1, final))
        print(f"solving {len(lines)} positions at {e} empties ...", file=sys.stderr, flush=True)
        values = solve(lines, opts["--solver"], opts["--threads"])
        pairs = [(sign * v, final) for v, (sign, final) in zip(values, owners) if v is not None]
        if not pairs:
            print(f"  {e} empties: no solved position", file=sys.stderr)
            continue
        n = len(pairs)
        value = sum(v for v, _ in pairs) / n
        lost = sum(v - f for v, f in pairs) / n
        lost_points = sum(points(v) - points(f) for v, f in pairs) / n
        print(f"  at {e:2d} empties ({n} games): exact value {value:+.2f}, discs lost after {lost:.2f}, "
              f"points lost after {lost_points:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
