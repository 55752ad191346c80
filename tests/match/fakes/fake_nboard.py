#!/usr/bin/env python3
"""An NBoard-protocol test engine for reversi-match: nboard 2, set depth, set game <GGF>, go, ping, quit.
It answers `=== <move>/<eval>/<time>` with a disc-count search to the set depth (depth 0: a hashed random move).
--eval TEXT: every answer gives TEXT as its eval (e.g. nan)."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import othello_rules as R  # noqa: E402


EVAL = sys.argv[sys.argv.index('--eval') + 1] if '--eval' in sys.argv else None


def out(line):
    sys.stdout.write(line + '\n')
    sys.stdout.flush()


def parse_ggf(text):
    bo = re.search(r'BO\[8 ([^\]]*)\]', text)
    if not bo:
        raise ValueError('no BO tag')
    squares = ''.join(bo.group(1).split())
    board = ['X' if c == '*' else 'O' if c == 'O' else '-' for c in squares[:64]]
    side = 'X' if squares[64] == '*' else 'O'
    for colour, mv in re.findall(r'(?<![A-Z])([BW])\[([^\]]*)\]', text[bo.end():]):
        move = mv.split('/')[0]
        board, side = R.apply(board, side, move)
    return board, side


def main():
    board, side = R.start()
    depth = 1
    started = False
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == 'nboard':
            started = True
        elif not started:
            continue
        elif words[0] == 'set' and len(words) >= 3 and words[1] == 'depth':
            depth = int(words[2])
            out('set myname fake-nboard')
        elif words[0] == 'set' and len(words) >= 3 and words[1] == 'game':
            try:
                board, side = parse_ggf(raw.split('game', 1)[1])
            except (ValueError, IndexError) as e:
                out('status error: %s' % e)
        elif words[0] == 'ping':
            out('pong ' + words[1])
        elif words[0] == 'go':
            out('status thinking')
            out('nodestats 100 0.01')
            if depth > 0:
                score, sq = R.negamax(board, side, depth)
            else:
                sq, score = R.random_move(board, side, 0), 0
            shown = EVAL if EVAL is not None else '%.2f' % float(score)
            out('=== %s/%s/0.01' % ('PA' if sq is None else R.name(sq).upper(), shown))
            out('status')
        elif words[0] == 'quit':
            return 0
    return 0


if __name__ == '__main__':
    sys.exit(main())
