#!/usr/bin/env python3
"""A UCI-style test engine for reversi-match.

--mode random        a legal move picked by a hash of the position (deterministic)
--mode search        disc-count alpha-beta to the depth of `go depth N`
--mode crash         exits after --after N `go` commands
--mode orphan        exits after --after N `go` commands, leaving a child that holds its stdout open
--mode hang          stops answering after --after N `go` commands
--mode illegal       answers an occupied or unplayable square after --after N `go` commands
--mode garbage       answers unreadable text after --after N `go` commands
--mode flood         writes 2 MB without an end of line after --after N `go` commands
--mode pass          answers `bestmove pass` (while it has moves) after --after N `go` commands
--mode slow          sleeps --sleep-ms before every bestmove
--mode nostart       exits at once without a handshake
--mode full          (with --listen) answers every connection "info string error: server is full" and closes it
--fds FILE           appends the targets of its open file descriptors to FILE at start (what it inherited)
--listen PORTFILE    serve the protocol over TCP on 127.0.0.1 (a free port, written to PORTFILE), one
                     session per connection, instead of stdin/stdout
"""
import argparse
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import othello_rules as R  # noqa: E402


def session(inp, outp, args):
    def out(line):
        outp.write(line + '\n')
        outp.flush()

    board, side = R.start()
    gos = 0
    for raw in inp:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == 'uci':
            out('id name fake-' + args.mode)
            out('id author tests')
            out('option name Hash type spin default 16 min 1 max 1024')
            out('uciok')
        elif cmd == 'isready':
            out('readyok')
        elif cmd == 'quit':
            return 0
        elif cmd == 'position':
            i = 1
            if words[i] == 'startpos':
                board, side = R.start()
                i += 1
            elif words[i] == 'board':
                board = [c if c in 'XO' else '-' for c in words[i + 1].upper().replace('*', 'X')]
                side = 'X' if words[i + 2].upper() in ('X', '*', 'B') else 'O'
                i += 3
            if i < len(words) and words[i] == 'moves':
                for m in words[i + 1:]:
                    board, side = R.apply(board, side, m)
        elif cmd == 'go':
            gos += 1
            depth = int(words[words.index('depth') + 1]) if 'depth' in words else 1
            broken = gos > args.after
            if args.mode == 'orphan' and broken:
                if os.fork() == 0:  # the child sleeps with the engine's stdout open
                    time.sleep(30)
                    os._exit(0)
                return 1
            if args.mode == 'crash' and broken:
                if args.listen:
                    return 1
                os._exit(1)
            if args.mode == 'hang' and broken:
                time.sleep(3600)
            if args.mode == 'illegal' and broken:
                occupied = [sq for sq in range(64) if board[sq] != '-']
                out('bestmove ' + R.name(occupied[0]))
                continue
            if args.mode == 'garbage' and broken:
                out('\x01\x02 zz bestmove?')
                out('bestmove qq99')
                continue
            if args.mode == 'flood' and broken:
                outp.write('x' * (2 << 20))
                outp.flush()
                time.sleep(3600)
            if args.mode == 'pass' and broken:
                out('bestmove pass')
                continue
            if args.mode == 'slow':
                time.sleep(args.sleep_ms / 1000.0)
            if args.mode == 'search':
                score, sq = R.negamax(board, side, depth)
            else:
                sq = R.random_move(board, side, args.seed)
                score = R.disc_diff(board, side)
            if sq is None:
                out('bestmove pass' if R.moves(board, R.other(side)) else 'bestmove none')
            else:
                out('info depth %d score cp %d nodes 1 pv %s' % (depth, score * 100, R.name(sq)))
                out('bestmove ' + R.name(sq))
    return 0


def signals_blocked():
    """True when SIGINT or SIGTERM is blocked (an engine must not inherit the runner's signal mask)."""
    try:
        with open('/proc/self/status') as f:
            for line in f:
                if line.startswith('SigBlk:'):
                    mask = int(line.split()[1], 16)
                    return bool(mask & ((1 << 1) | (1 << 14)))
    except OSError:
        pass
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--mode', default='random')
    ap.add_argument('--after', type=int, default=0)
    ap.add_argument('--seed', type=int, default=0)
    ap.add_argument('--sleep-ms', type=int, default=0)
    ap.add_argument('--listen', default='')
    ap.add_argument('--fds', default='')
    args = ap.parse_args()
    if args.fds:
        targets = []
        for fd in os.listdir('/proc/self/fd'):
            try:
                targets.append(os.readlink('/proc/self/fd/' + fd))
            except OSError:  # the folder's own descriptor, closed meanwhile
                pass
        with open(args.fds, 'a') as f:
            f.write('\n'.join(targets) + '\n')
    if args.mode == 'nostart':
        return 3
    if signals_blocked():
        sys.stderr.write('fake_uci: started with SIGINT/SIGTERM blocked\n')
        return 4
    if not args.listen:
        return session(sys.stdin, sys.stdout, args)
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(('127.0.0.1', 0))
    server.listen(16)
    with open(args.listen + '.tmp', 'w') as f:
        f.write(str(server.getsockname()[1]))
    os.rename(args.listen + '.tmp', args.listen)

    def serve(conn):
        if args.mode == 'full':
            with conn:
                conn.sendall(b'info string error: server is full; closing the connection\n')
            return
        with conn, conn.makefile('r') as inp, conn.makefile('w') as outp:
            try:
                session(inp, outp, args)
            except (OSError, ValueError):
                pass

    while True:
        conn, _ = server.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


if __name__ == '__main__':
    sys.exit(main())
