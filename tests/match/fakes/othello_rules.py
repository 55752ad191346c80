"""Othello rules for the match runner's test doubles (index = row * 8 + column, a1 = 0)."""
import hashlib

DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def start():
    b = ['-'] * 64
    b[27], b[36] = 'O', 'O'
    b[28], b[35] = 'X', 'X'
    return b, 'X'


def other(side):
    return 'O' if side == 'X' else 'X'


def flips(b, side, sq):
    if b[sq] != '-':
        return []
    out = []
    c0, r0 = sq % 8, sq // 8
    for dc, dr in DIRS:
        run = []
        c, r = c0 + dc, r0 + dr
        while 0 <= c < 8 and 0 <= r < 8 and b[r * 8 + c] == other(side):
            run.append(r * 8 + c)
            c, r = c + dc, r + dr
        if run and 0 <= c < 8 and 0 <= r < 8 and b[r * 8 + c] == side:
            out.extend(run)
    return out


def moves(b, side):
    return [sq for sq in range(64) if b[sq] == '-' and flips(b, side, sq)]


def play(b, side, sq):
    nb = list(b)
    for f in flips(b, side, sq):
        nb[f] = side
    nb[sq] = side
    return nb


def name(sq):
    return 'abcdefgh'[sq % 8] + str(sq // 8 + 1)


def parse_square(text):
    t = text.lower()
    if t in ('pass', 'pa', 'ps', '@@', '--'):
        return 'pass'
    if len(t) == 2 and t[0] in 'abcdefgh' and t[1] in '12345678':
        return (int(t[1]) - 1) * 8 + 'abcdefgh'.index(t[0])
    raise ValueError('bad move ' + text)


def apply(b, side, move_text):
    m = parse_square(move_text)
    if m == 'pass':
        return b, other(side)
    return play(b, side, m), other(side)


def disc_diff(b, side):
    return b.count(side) - b.count(other(side))


def negamax(b, side, depth):
    """Disc-count negamax with a plain alpha-beta; returns (score, best square or None)."""
    def search(b, side, depth, alpha, beta, passed):
        ms = moves(b, side)
        if not ms:
            if passed:
                return disc_diff(b, side), None
            v, _ = search(b, other(side), depth, -beta, -alpha, True)
            return -v, None
        if depth == 0:
            return disc_diff(b, side), None
        best, best_sq = -65, ms[0]
        for sq in ms:
            v, _ = search(play(b, side, sq), other(side), depth - 1, -beta, -max(alpha, best), False)
            v = -v
            if v > best:
                best, best_sq = v, sq
                if best >= beta:
                    break
        return best, best_sq
    return search(b, side, depth, -65, 65, False)


def random_move(b, side, seed):
    """A legal move chosen by a hash of the position: the same position always gets the same move."""
    ms = moves(b, side)
    if not ms:
        return None
    h = hashlib.md5((''.join(b) + side + str(seed)).encode()).digest()
    return ms[int.from_bytes(h[:4], 'little') % len(ms)]
