#!/usr/bin/env python3
"""The endgame band replayed: an engine's moves at the clock it had there, scored by win/loss/draw.

Usage:
  band-replay.py extract OUT.json GAMES.ggf:TC_MS [GAMES.ggf:TC_MS ...] [--name ENGINE] [--empties 19-24]
  band-replay.py solve OUT.json [--solver PATH] [--threads N]
  band-replay.py play OUT.json ENGINE_CMD TAG [--solver PATH] [--threads N] [--option NAME=VALUE ...]
  band-replay.py report OUT.json

extract: from every game of reversi-match GGF files in which ENGINE (a PB[...] / PW[...] name, default
  reversi) played, takes each position in the empties range where ENGINE was to move with two or more legal
  moves, with the moves that led to it and the clock ENGINE had left there: TC_MS (the game's clock in
  milliseconds, sudden death, as reversi-match's tc=) less the times of ENGINE's earlier moves in the record.
  The move ENGINE played in the game is kept under the tag "game".
solve: the win/loss/draw value of each position and of the position after each recorded move
  (reversi-solve --wld), kept in OUT.json (positions already solved are not solved again).
play: starts ENGINE_CMD (a UCI-style engine: this project's reversi-engine) and for each position sends
  `ucinewgame`, `position startpos moves ...` and `go wtime T btime T` with the position's clock, records the
  move and the time it took under TAG, then solves the new moves' positions.
report: for each tag, the game points its moves give away under perfect play after them (win 1, draw 1/2),
  in all and by empties count (lost/positions), the moves that lose points and the mean time per move.

The tables are cleared before each position (ucinewgame), where a game keeps them from the moves before: the
replay loses more than the game did at the band's last moves, whose solves reuse the earlier moves' work.
Compare tags with one another, not with "game".

Example (docs/eval.md, "The band's points, move by move"):
    tools/scripts/band-replay.py extract /tmp/band.json /tmp/S2-p1.ggf:1210 /tmp/S2-p2.ggf:1310 --empties 19-24
    tools/scripts/band-replay.py solve /tmp/band.json
    tools/scripts/band-replay.py play /tmp/band.json build/release/protocol/reversi-engine base
    tools/scripts/band-replay.py report /tmp/band.json
"""
import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
import time

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("ggf_losses", os.path.join(_here, "ggf-losses.py"))
ggf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ggf)

START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27


points = ggf.points  # win 1, draw 1/2, loss 0


def play(board, side, name):
    child = ggf.play_move(board, int(name[1]) - 1, "abcdefgh".index(name[0]), side)
    if child is None:
        raise ValueError(f"illegal move {name} for {side}")
    return child


def legal_count(board, side):
    return sum(1 for i in range(64) if ggf.flips(board, i // 8, i % 8, side))


def other(side):
    return "O" if side == "X" else "X"


def parse_opts(argv, defaults, repeated=()):
    opts = dict(defaults)
    for key in repeated:
        opts[key] = []
    rest = []
    i = 0
    while i < len(argv):
        if argv[i] in opts:
            if i + 1 >= len(argv):
                sys.exit(f"band-replay: {argv[i]} needs a value")
            if argv[i] in repeated:
                opts[argv[i]].append(argv[i + 1])
            else:
                opts[argv[i]] = argv[i + 1]
            i += 2
        elif argv[i].startswith("--"):
            sys.exit(f"band-replay: unknown option {argv[i]}")
        else:
            rest.append(argv[i])
            i += 1
    return opts, rest


def empties_range(text):
    m = re.fullmatch(r"(\d+)-(\d+)", text)
    if not m or int(m.group(1)) > int(m.group(2)):
        sys.exit(f"band-replay: --empties wants LOW-HIGH, not '{text}'")
    return int(m.group(1)), int(m.group(2))


def game_positions(line, name, tc_ms, low, high):
    pb = re.search(r"PB\[([^\]]*)\]", line)
    pw = re.search(r"PW\[([^\]]*)\]", line)
    if not pb or not pw or name not in (pb.group(1), pw.group(1)):
        return []
    ours = "X" if pb.group(1) == name else "O"
    board, side, used, history, out = START, "X", 0.0, [], []
    for colour, text in re.findall(r"(?<![A-Z])([BW])\[([^\]]*)\]", line):
        parts = text.split("/")
        move = parts[0].lower()
        mover = "X" if colour == "B" else "O"
        if mover != side:
            raise ValueError(f"{mover} moved when {side} was to move")
        empties = board.count("-")
        if mover == ours and move != "pa" and low <= empties <= high and legal_count(board, side) > 1:
            out.append({"board": board, "side": side, "empties": empties, "moves": list(history),
                        "clock_ms": max(1, int(tc_ms - used)), "moves_by": {"game": move}})
        if mover == ours and len(parts) >= 3:
            used += float(parts[2]) * 1000
        if move != "pa":
            board = play(board, side, move)
        history.append(move)
        side = other(side)
    return out


def extract(argv):
    opts, rest = parse_opts(argv, {"--name": "reversi", "--empties": "19-24"})
    if len(rest) < 2:
        sys.exit("band-replay: extract OUT.json GAMES.ggf:TC_MS ... (see --help)")
    low, high = empties_range(opts["--empties"])
    positions = []
    for spec in rest[1:]:
        path, _, tc = spec.rpartition(":")
        if not path or not tc.isdigit():
            sys.exit(f"band-replay: '{spec}' is not GAMES.ggf:TC_MS")
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                positions += game_positions(line, opts["--name"], int(tc), low, high)
    with open(rest[0], "w") as f:
        json.dump(positions, f)
    print(f"band-replay: {len(positions)} positions of {opts['--name']} at {low}-{high} empties", file=sys.stderr)


def wld_values(solver, threads, boards):
    """-1/0/+1 for the side to move of each (board, side), from reversi-solve --wld."""
    if not boards:
        return []
    scores = ggf.solve([f"{board} {side}\n" for board, side in boards], solver, threads, wld=True)
    if None in scores:
        sys.exit(f"band-replay: reversi-solve answered {len(scores) - scores.count(None)} of {len(boards)} positions")
    return [(s > 0) - (s < 0) for s in scores]


def solve_missing(positions, solver, threads):
    todo = [p for p in positions if "value" not in p]
    for p, v in zip(todo, wld_values(solver, threads, [(p["board"], p["side"]) for p in todo])):
        p["value"] = v
    need = [(p, m) for p in positions for m in sorted(set(p["moves_by"].values()))
            if m not in p.setdefault("child_values", {})]
    children = [(play(p["board"], p["side"], m), other(p["side"])) for p, m in need]
    for (p, m), v in zip(need, wld_values(solver, threads, children)):
        p["child_values"][m] = v


def load(path):
    with open(path) as f:
        return json.load(f)


def save(path, positions):
    with open(path + ".part", "w") as f:
        json.dump(positions, f)
    os.replace(path + ".part", path)


def solve(argv):
    opts, rest = parse_opts(argv, {"--solver": "build/release/tools/reversi-solve", "--threads": "2"})
    if len(rest) != 1:
        sys.exit("band-replay: solve OUT.json (see --help)")
    positions = load(rest[0])
    solve_missing(positions, opts["--solver"], int(opts["--threads"]))
    save(rest[0], positions)


class Engine:
    def __init__(self, cmd, options):
        self.proc = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for option in options:
            name, _, value = option.partition("=")
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("band-replay: the engine closed its output")
            if line.startswith(prefix):
                return line

    def move(self, position):
        self.send("ucinewgame")
        self.send("position startpos moves " + " ".join(m for m in position["moves"] if m != "pa"))
        start = time.monotonic()
        self.send(f"go wtime {position['clock_ms']} btime {position['clock_ms']}")
        move = self.wait_for("bestmove").split()[1].lower()
        return move, (time.monotonic() - start) * 1000

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=30)


def play_engine(argv):
    opts, rest = parse_opts(argv, {"--solver": "build/release/tools/reversi-solve", "--threads": "2"},
                            repeated=("--option",))
    if len(rest) != 3:
        sys.exit("band-replay: play OUT.json ENGINE_CMD TAG (see --help)")
    path, cmd, tag = rest
    positions = load(path)
    engine = Engine(cmd, opts["--option"])
    for p in positions:
        move, ms = engine.move(p)
        p["moves_by"][tag] = move
        p.setdefault("ms_by", {})[tag] = ms
    engine.close()
    solve_missing(positions, opts["--solver"], int(opts["--threads"]))
    save(path, positions)


def report(argv):
    if len(argv) != 1:
        sys.exit("band-replay: report OUT.json (see --help)")
    positions = load(argv[0])
    tags = sorted({t for p in positions for t in p["moves_by"]})
    for tag in tags:
        lost, losing, times, by_empties = 0.0, 0, [], {}
        mine = [p for p in positions if tag in p["moves_by"]]
        for p in mine:
            loss = points(p["value"]) - points(-p["child_values"][p["moves_by"][tag]])
            lost += loss
            losing += loss > 0
            cell = by_empties.setdefault(p["empties"], [0.0, 0])
            cell[0] += loss
            cell[1] += 1
            if tag in p.get("ms_by", {}):
                times.append(p["ms_by"][tag])
        timing = f", {sum(times) / len(times):.1f} ms a move" if times else ""
        cells = " ".join(f"{e}:{v[0]:.1f}/{v[1]}" for e, v in sorted(by_empties.items()))
        print(f"{tag}: {len(mine)} positions, points lost {lost:.1f} ({lost / max(1, len(mine)):.4f} a move), "
              f"{losing} moves losing points{timing}; by empties {cells}")


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0 if len(sys.argv) >= 2 else 2
    commands = {"extract": extract, "solve": solve, "play": play_engine, "report": report}
    if sys.argv[1] not in commands:
        sys.exit(f"band-replay: unknown command '{sys.argv[1]}' (extract, solve, play, report)")
    commands[sys.argv[1]](sys.argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
