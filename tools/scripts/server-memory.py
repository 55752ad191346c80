#!/usr/bin/env python3
"""Measures the TCP server's memory against its budget (docs/security.md, "Memory").

Usage: tools/scripts/server-memory.py ENGINE SESSIONS [server options...] [--hashes 32,8,24,12] [--threads N]

Starts ENGINE --listen 127.0.0.1:0 with the options, connects SESSIONS clients that each solve three
20-empty positions of ../shared/data/endgame-hard/hard-20.obf (position obf, go solve), samples the
server's VmRSS every 20 ms, and prints the peak, VmHWM and the RSS once every client has left.
"""
import os
import socket
import subprocess
import sys
import threading
import time


def main():
    engine, sessions, rest = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    hashes, threads, args = None, None, []
    i = 0
    while i < len(rest):
        if rest[i] == '--hashes':
            hashes = [int(h) for h in rest[i + 1].split(',')]
            i += 2
        elif rest[i] == '--threads':
            threads = int(rest[i + 1])
            i += 2
        else:
            args.append(rest[i])
            i += 1
    root = os.path.dirname(os.path.abspath(__file__))
    obf_path = os.path.join(root, '..', '..', '..', 'shared', 'data', 'endgame-hard', 'hard-20.obf')
    obf = [l.strip() for l in open(obf_path) if l.strip()]
    server = subprocess.Popen([engine, '--listen', '127.0.0.1:0'] + args, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    port = int(server.stdout.readline().split(':')[-1])

    def status(field):
        for line in open(f'/proc/{server.pid}/status'):
            if line.startswith(field):
                return int(line.split()[1]) // 1024
        return -1

    peak, done = [0], threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], status('VmRSS'))
            time.sleep(0.02)

    threading.Thread(target=sample, daemon=True).start()
    print('idle server RSS', status('VmRSS'), 'MiB')
    admitted, refused = [0], [0]
    lock = threading.Lock()

    def client(k):
        s = socket.create_connection(('127.0.0.1', port))
        f = s.makefile('rw')
        setup = ''
        if hashes:
            setup += f'setoption name Hash value {hashes[k % len(hashes)]}\n'
        if threads:
            setup += f'setoption name Threads value {threads}\n'
        f.write(setup + 'isready\n')
        f.flush()
        line = f.readline()
        while line.startswith('info string error: setoption'):
            line = f.readline()
        with lock:
            if line.strip() != 'readyok':
                refused[0] += 1
                return
            admitted[0] += 1
        for r in range(3):
            f.write(f'position obf {obf[(k * 3 + r) % len(obf)]}\ngo solve\n')
            f.flush()
            while not f.readline().startswith('bestmove'):
                pass
        f.write('quit\n')
        f.flush()
        s.close()

    start = time.time()
    clients = [threading.Thread(target=client, args=(k,)) for k in range(sessions)]
    for t in clients:
        t.start()
    for t in clients:
        t.join()
    time.sleep(1.0)
    done.set()
    print(f'{sessions} clients ({admitted[0]} admitted, {refused[0]} refused), 3 solves each in '
          f'{time.time() - start:.1f} s: peak RSS {peak[0]} MiB (VmHWM {status("VmHWM")} MiB); '
          f'after the clients left {status("VmRSS")} MiB')
    server.terminate()
    server.wait()


if __name__ == '__main__':
    main()
