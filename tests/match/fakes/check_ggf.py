#!/usr/bin/env python3
"""Replays every game of a reversi-match GGF file with the test doubles' own rules (othello_rules.py) and
checks that each game is finished and that RE[...] is the WOF score for black (forfeits, RE[..:r] or
RE[..:t], are only checked for legal moves). Prints a line per bad game; exit code 1 when there is one."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import othello_rules as R  # noqa: E402


def replay(text):
    """The final board of a GGF game, every move checked for legality (ValueError otherwise)."""
    bo = re.search(r'BO\[8 ([^\]]*)\]', text)
    squares = ''.join(bo.group(1).split())
    board = ['X' if c == '*' else 'O' if c == 'O' else '-' for c in squares[:64]]
    side = 'X' if squares[64] == '*' else 'O'
    for colour, value in re.findall(r'(?<![A-Z])([BW])\[([^\]]*)\]', text[bo.end():]):
        if (colour == 'B') != (side == 'X'):
            raise ValueError('%s moved out of turn' % colour)
        move = R.parse_square(value.split('/')[0])
        legal = R.moves(board, side)
        if move == 'pass':
            if legal:
                raise ValueError('pass while %s has moves' % colour)
        elif move not in legal:
            raise ValueError('illegal move %s' % value)
        else:
            board = R.play(board, side, move)
        side = R.other(side)
    return board


def main(path):
    bad = 0
    games = 0
    for number, line in enumerate(open(path), 1):
        games += 1
        try:
            board = replay(line)
        except (ValueError, IndexError) as e:
            print('%s:%d: cannot replay: %s' % (path, number, e))
            bad += 1
            continue
        result = re.search(r'RE\[([^\]]*)\]', line).group(1)
        if ':' in result:
            continue  # forfeit
        x, o = board.count('X'), board.count('O')
        diff = x - o
        empty = 64 - x - o
        score = diff + empty if diff > 0 else diff - empty if diff < 0 else 0
        if R.moves(board, 'X') or R.moves(board, 'O'):
            print('%s:%d: the game is not over' % (path, number))
            bad += 1
        elif float(result) != score:
            print('%s:%d: RE[%s] but the board scores %+d' % (path, number, result, score))
            bad += 1
    print('%d games, %d bad' % (games, bad))
    return 1 if bad or games == 0 else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
