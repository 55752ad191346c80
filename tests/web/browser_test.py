#!/usr/bin/env python3
"""Browser test of the web board (docs/web.md, protocol/web/page/).

Usage: /usr/bin/python3 tests/web/browser_test.py --engine PATH_TO_reversi-engine --out DIR

Starts ENGINE --http 127.0.0.1:0, opens its page in headless Chromium in a phone-sized window and plays
Black against the engine at depth 1 by clicking legal squares (6 moves, or to the end of the game if it
ends first). After every engine reply it checks the drawn board against an independent Python
implementation of the rules: the board is reachable from the one before the click by the clicked move and
legal engine replies (forced passes included), the disc counts shown equal the discs drawn, exactly one
square is marked as the last move, the flipped discs are the ones that move turned, and the legal-move
markers are the legal moves of the side to move. Then it checks undo (back to the board before the
human's last move), redo, a hint, the GGF and transcript exports, Redo dropped once the engine plays in
the undone moves' place, an opening given as a board (--openings) and every square's aria-label, and
writes screenshots: DIR/web-board-phone.png, DIR/web-board-phone-full.png (the whole page) and DIR/web-board-desktop.png
(1280x800).

Exit code: 0 passed, 1 failed (the reason on stderr), 77 skipped (selenium, chromium or chromedriver
missing). Every wait is an explicit WebDriverWait; the engine process and the browser are always ended.
"""
import argparse
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import traceback

CHROMIUM = '/usr/bin/chromium'
CHROMEDRIVER = '/usr/bin/chromedriver'
WAIT_S = 20
HUMAN_MOVES = 6
HUMAN, ENGINE = 'X', 'O'  # the test plays Black
START = '-' * 27 + 'OX------XO' + '-' * 27
FILES = 'abcdefgh'


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


# ---- reference rules (independent of the engine and of the page) --------------------------------

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def square_name(index):
    return FILES[index % 8] + str(index // 8 + 1)  # a1 is index 0, h1 index 7, a2 index 8


def square_index(name):
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def other(colour):
    return 'O' if colour == 'X' else 'X'


def flips(board, index, colour):
    """The discs a disc of colour on index turns (a string board of 64 'X'/'O'/'-', a1..h8)."""
    if board[index] != '-':
        return []
    row, col = divmod(index, 8)
    turned = []
    for dr, dc in DIRECTIONS:
        run = []
        r, c = row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == other(colour):
            run.append(r * 8 + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == colour:
            turned += run
    return turned


def legal_moves(board, colour):
    return {square_name(i) for i in range(64) if flips(board, i, colour)}


def play(board, name, colour):
    index = square_index(name)
    cells = list(board)
    for i in flips(board, index, colour) + [index]:
        cells[i] = colour
    return ''.join(cells)


def replies(board, to_move, plies, path):
    """Every way the game can go on for `plies` plies from (board, to_move) and stop where the page
    waits for the human (the human has a move, or the game is over): engine moves are any legal move,
    passes are forced. Yields (path, board, to_move); path is a list of (move, colour, board before)."""
    mine, theirs = legal_moves(board, to_move), legal_moves(board, other(to_move))
    waits = (not mine and not theirs) or (to_move == HUMAN and mine)
    if plies == 0:
        if waits:
            yield path, board, to_move
        return
    if waits:
        return
    if not mine:
        yield from replies(board, other(to_move), plies - 1, path + [('pass', to_move, board)])
        return
    for move in sorted(mine):  # the engine's move (a human move here would be a pass, handled above)
        yield from replies(play(board, move, to_move), other(to_move), plies - 1,
                           path + [(move, to_move, board)])


# ---- the page -------------------------------------------------------------------------------------

SNAPSHOT_JS = """
const b = document.getElementById('board');
const text = (id) => document.getElementById(id).textContent.trim();
return {
  squares: [...b.querySelectorAll('.square')].map((s) => ({
    name: s.dataset.square,
    disc: s.querySelector('.disc.black') ? 'X' : s.querySelector('.disc.white') ? 'O' : '-',
    discs: s.querySelectorAll('.disc').length,
    legal: s.classList.contains('legal'),
    last: s.classList.contains('last'),
    flipped: s.querySelector('.disc.flipped') !== null,
    hint: s.querySelector('.hint') ? s.querySelector('.hint').textContent.trim() : null,
    label: s.getAttribute('aria-label'),
  })),
  toMove: b.dataset.toMove, ply: Number(b.dataset.ply), busy: b.dataset.busy,
  over: b.dataset.gameOver === '1',
  black: text('count-black'), white: text('count-white'), status: text('status'),
  connection: document.getElementById('connection').dataset.state,
  error: document.getElementById('error-box').hidden ? '' : text('error'),
};
"""


class Page:
    def __init__(self, driver, by, wait_cls):
        self.driver, self.by, self.wait_cls = driver, by, wait_cls
        self.last = None

    def snapshot(self):
        snap = self.driver.execute_script(SNAPSHOT_JS)
        by_name = {s['name']: s for s in snap['squares']}
        snap['by_name'] = by_name
        snap['board'] = ''.join(by_name[square_name(i)]['disc'] if square_name(i) in by_name else '?'
                                for i in range(64))
        self.last = snap
        return snap

    def waiter(self):
        return self.wait_cls(self.driver, WAIT_S, poll_frequency=0.05)

    def wait_for(self, what, predicate):
        """Waits until predicate(snapshot) holds; the failure names `what` and the last snapshot."""
        from selenium.common.exceptions import TimeoutException
        try:
            self.waiter().until(lambda d: predicate(self.snapshot()))
        except TimeoutException:
            s = self.last or {}
            raise Failure(f'timed out after {WAIT_S} s waiting for {what}; page: ply={s.get("ply")} '
                          f'busy={s.get("busy")} to_move={s.get("toMove")} over={s.get("over")} '
                          f'status={s.get("status")!r} error={s.get("error")!r} '
                          f'connection={s.get("connection")}') from None
        return self.last

    def wait_js(self, what, script):
        from selenium.common.exceptions import TimeoutException
        try:
            return self.waiter().until(lambda d: d.execute_script(script))
        except TimeoutException:
            raise Failure(f'timed out after {WAIT_S} s waiting for {what}') from None

    def element(self, css):
        return self.driver.find_element(self.by.CSS_SELECTOR, css)

    def click(self, css):
        el = self.element(css)
        self.driver.execute_script('arguments[0].scrollIntoView({block: "center"});', el)
        el.click()

    def set_value(self, css, value):
        el = self.element(css)
        el.clear()
        el.send_keys(str(value))

    def settled(self, s):
        return s['connection'] == 'open' and s['busy'] == '0'


def check_board(s, expected_board=None):
    """The checks of every position the human gets to see."""
    board = s['board']
    check(len(s['squares']) == 64 and '?' not in board,
          f'#board has {len(s["squares"])} squares, not a1..h8')
    check(all(sq['discs'] <= 1 for sq in s['squares']), 'a square holds more than one disc')
    if expected_board is not None:
        check(board == expected_board,
              f'board drawn\n{show(board)}\nis not the expected\n{show(expected_board)}')
    blacks, whites = board.count('X'), board.count('O')
    check(s['black'] == str(blacks) and s['white'] == str(whites),
          f'counts shown black {s["black"]} white {s["white"]}, discs drawn {blacks} and {whites}')
    colour = 'X' if s['toMove'] == 'black' else 'O'
    check(s['toMove'] in ('black', 'white'), f'data-to-move is {s["toMove"]!r}')
    expected = set() if s['over'] else legal_moves(board, colour)
    marked = {sq['name'] for sq in s['squares'] if sq['legal']}
    check(marked == expected, f'legal markers {sorted(marked)}, the rules give {sorted(expected)} for '
                              f'{s["toMove"]} on\n{show(board)}')
    for sq in s['squares']:  # what a screen reader says of each square
        content = {'X': 'black disc', 'O': 'white disc', '-': 'empty'}[sq['disc']]
        label = f'{sq["name"]}, {content}' + (', legal move' if sq['name'] in expected else '')
        check(sq['label'] == label, f'{sq["name"]} is labelled {sq["label"]!r}, not {label!r}')
    if s['over']:
        check(not legal_moves(board, 'X') and not legal_moves(board, 'O'),
              'data-game-over is 1 but a side still has a move')
    else:
        check(expected, f'{s["toMove"]} is to move but has no legal move (the page should have passed)')


def show(board):
    return '\n'.join(board[r * 8:r * 8 + 8] for r in range(8))


def check_reply(s, before, human_move, plies):
    """The position after the human's move and the engine's replies: returns the moves played."""
    after_human = play(before, human_move, HUMAN)
    last = [sq['name'] for sq in s['squares'] if sq['last']]
    check(len(last) == 1, f'{len(last)} squares are marked as the last move: {last}')
    flipped = {sq['name'] for sq in s['squares'] if sq['flipped']}
    colour = 'X' if s['toMove'] == 'black' else 'O'
    for path, board, to_move in replies(after_human, ENGINE, plies - 1, [(human_move, HUMAN, before)]):
        if board != s['board'] or to_move != colour:
            continue
        placed = [(m, c, b) for m, c, b in path if m != 'pass']
        if placed[-1][0] != last[0]:
            continue
        move, mover, board_before = placed[-1]
        turned = {square_name(i) for i in flips(board_before, square_index(move), mover)}
        if path[-1][0] == 'pass':
            turned = set()  # the last move was a pass: it turned nothing
        check(flipped == turned, f'discs marked flipped {sorted(flipped)}, {move} turned {sorted(turned)}')
        return [m for m, _, _ in path]
    raise Failure(f'no legal continuation of {plies} plies after {human_move} on\n{show(before)}\n'
                  f'gives the board drawn\n{show(s["board"])}\nwith {s["toMove"]} to move and {last} '
                  'marked as the last move')


def ggf_moves(ggf):
    """The moves of a GGF game, lower case, passes as 'pass'."""
    moves = []
    for colour, body in re.findall(r'(?<![A-Z])([BW])\[([^\]]*)\]', ggf):
        move = body.split('/')[0].strip().lower()
        moves.append('pass' if move in ('pa', 'pass') else move)
    return moves


# ---- the run --------------------------------------------------------------------------------------

def start_engine(engine, err_file, openings):
    proc = subprocess.Popen([engine, '--http', '127.0.0.1:0', '--log-level', 'warn', '--openings', openings],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err_file, text=True)
    lines = queue.Queue()

    def reader():  # reads stdout to its end, so that the engine never blocks on a full pipe
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()
    return proc, lines


def read_address(proc, lines):
    while True:
        try:
            line = lines.get(timeout=WAIT_S)
        except queue.Empty:
            raise Failure(f'the engine printed no "listening HOST:PORT" line in {WAIT_S} s') from None
        if line is None:
            raise Failure(f'the engine exited (code {proc.wait()}) before listening')
        m = re.match(r'listening (\S+):(\d+)\s*$', line)
        if m:
            return m.group(1), int(m.group(2))


def make_driver(webdriver, options_cls, service_cls, profile):
    options = options_cls()
    options.binary_location = CHROMIUM
    for arg in ('--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
                '--window-size=412,915', '--hide-scrollbars', f'--user-data-dir={profile}',
                '--no-first-run', '--disable-extensions'):
        options.add_argument(arg)
    options.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    return webdriver.Chrome(service=service_cls(executable_path=CHROMEDRIVER), options=options)


def phone(driver):
    driver.set_window_size(412, 915)
    driver.execute_cdp_cmd('Emulation.setDeviceMetricsOverride',
                           {'width': 412, 'height': 915, 'deviceScaleFactor': 2, 'mobile': True})


def desktop(driver):
    driver.execute_cdp_cmd('Emulation.clearDeviceMetricsOverride', {})
    driver.set_window_size(1280, 800)
    driver.execute_cdp_cmd('Emulation.setDeviceMetricsOverride',
                           {'width': 1280, 'height': 800, 'deviceScaleFactor': 1, 'mobile': False})


def full_page_screenshot(driver, path):
    import base64
    size = driver.execute_script('return [document.documentElement.scrollWidth, '
                                 'document.documentElement.scrollHeight];')
    shot = driver.execute_cdp_cmd('Page.captureScreenshot', {
        'format': 'png', 'captureBeyondViewport': True,
        'clip': {'x': 0, 'y': 0, 'width': size[0], 'height': size[1], 'scale': 1}})
    with open(path, 'wb') as f:
        f.write(base64.b64decode(shot['data']))


def play_game(page):
    """Plays up to HUMAN_MOVES moves as Black; returns (moves, history) where history holds, per human
    move, (ply before it, board before it)."""
    s = page.wait_for('the start position', lambda s: page.settled(s) and s['ply'] == 0
                      and s['toMove'] == 'black' and not s['over'])
    check_board(s, START)
    moves, history = [], []
    for _ in range(HUMAN_MOVES):
        if s['over']:
            break
        before, ply = s['board'], s['ply']
        move = sorted(legal_moves(before, HUMAN))[0]
        history.append((ply, before))
        page.click(f'#board .square[data-square="{move}"]')
        s = page.wait_for(f'the engine to answer {move}', lambda s: page.settled(s) and s['ply'] > ply
                          and (s['over'] or s['toMove'] == 'black'))
        check_board(s)
        moves += check_reply(s, before, move, s['ply'] - ply)
        played = moves[len(moves) - (s['ply'] - ply):]
        print(f'  ply {ply}: {" ".join(played)}; black {s["black"]} white {s["white"]}', flush=True)
    return moves, history, s


def check_level_bounds(page, select_cls):
    """A depth below the field's bounds plays at depth 1 (before: sent as given, refused, and the engine
    stalled on "thinking…"); the live status line is written only when its text changes (before: at every
    engine report, dozens of times a search)."""
    page.click('#new-game')
    s = page.wait_for('a new game', lambda s: page.settled(s) and s['ply'] == 0 and s['toMove'] == 'black')
    select_cls(page.element('#level-kind')).select_by_value('depth')
    page.set_value('#level-value', -5)
    page.driver.execute_script(
        "window.statusWrites = 0;"
        "new MutationObserver((m) => { window.statusWrites += m.length; })"
        ".observe(document.getElementById('status'), {childList: true, characterData: true, subtree: true});")
    for ply in (0, 2):
        move = sorted(legal_moves(s['board'], HUMAN))[0]
        page.click(f'#board .square[data-square="{move}"]')
        s = page.wait_for(f'the engine at depth -5 (played at depth 1) to answer {move}',
                          lambda s: page.settled(s) and s['ply'] > ply and s['toMove'] == 'black')
        check(not s['error'], f'the page shows an error at depth -5: {s["error"]}')
    writes = page.driver.execute_script('return window.statusWrites;')
    # Each of the four moves changes the line at most twice (the engine thinking, the human to move).
    check(writes <= 8, f'the status line was written {writes} times in four moves')
    print(f'  a depth of -5 plays at depth 1; the status line written {writes} times in 4 moves: ok', flush=True)


def run(args, selenium):
    webdriver, options_cls, service_cls, by, wait_cls, select_cls = selenium
    err_file = tempfile.TemporaryFile(mode='w+')
    profile = tempfile.mkdtemp(prefix='browser-test-')
    proc = driver = None
    try:
        os.makedirs(args.out, exist_ok=True)
        # The one opening of the page's Opening button: a board (after f5 d6), not a transcript.
        opening_board = play(play(START, 'f5', 'X'), 'd6', 'O')
        openings = os.path.join(profile, 'openings.txt')
        with open(openings, 'w') as f:
            f.write(f'{opening_board} X\n')
        proc, lines = start_engine(args.engine, err_file, openings)
        host, port = read_address(proc, lines)
        driver = make_driver(webdriver, options_cls, service_cls, profile)
        driver.set_page_load_timeout(WAIT_S)
        phone(driver)
        driver.get(f'http://{host}:{port}/')
        page = Page(driver, by, wait_cls)
        page.wait_for('the connection', lambda s: page.settled(s) and s['connection'] == 'open')
        width = driver.execute_script('return window.innerWidth;')
        check(width <= 420, f'the phone window is {width} px wide')

        select_cls(page.element('#side')).select_by_value('black')
        select_cls(page.element('#level-kind')).select_by_value('depth')
        page.set_value('#level-value', 1)
        page.click('#new-game')
        moves, history, s = play_game(page)
        check(moves, 'no move was played')

        # Undo: back to the board before the human's last move; redo: forward to where we were.
        now_board, now_ply = s['board'], s['ply']
        undo_ply, undo_board = history[-1]
        page.click('#undo')
        s = page.wait_for('undo', lambda s: page.settled(s) and s['ply'] == undo_ply)
        check_board(s, undo_board)
        check(s['toMove'] == 'black', f'after undo {s["toMove"]} is to move, not the human')
        page.click('#redo')
        s = page.wait_for('redo', lambda s: page.settled(s) and s['ply'] == now_ply)
        check_board(s, now_board)
        print(f'  undo to ply {undo_ply} and redo to ply {now_ply}: ok', flush=True)

        if not s['over']:
            page.set_value('#hint-count', 3)
            page.click('#hint')
            s = page.wait_for('hint values', lambda s: page.settled(s)
                              and any(sq['hint'] for sq in s['squares']))
            shown = {sq['name']: sq['hint'] for sq in s['squares'] if sq['hint']}
            check(len(shown) <= 3, f'{len(shown)} hints shown for 3 asked: {shown}')
            check(set(shown) <= legal_moves(s['board'], HUMAN),
                  f'hints on squares that are not legal: {shown}')
            check(all(re.fullmatch(r'[+-]?\d+(\.\d+)?', v) for v in shown.values()), f'hint values {shown}')
            print(f'  hints: {shown}', flush=True)
        else:
            print('  the game is over: no hint to ask for', flush=True)

        placed = [m for m in moves if m != 'pass']
        page.click('#export-ggf')
        ggf = page.wait_js('the GGF export', "const v = document.getElementById('export-out').value;"
                                             "return v.startsWith('(;GM[Othello]') ? v : false;")
        check([m for m in ggf_moves(ggf) if m != 'pass'] == placed,
              f'the GGF moves {ggf_moves(ggf)} are not the moves played {moves}:\n{ggf}')
        page.click('#export-transcript')
        transcript = page.wait_js('the transcript export',
                                  "const v = document.getElementById('export-out').value;"
                                  "return v && !v.startsWith('(;') ? v : false;")
        check(re.findall(r'[a-h][1-8]', transcript.lower()) == placed,
              f'the transcript {transcript!r} is not the moves played {placed}')
        print(f'  exports: ok ({len(placed)} moves)', flush=True)

        driver.execute_script('window.scrollTo(0, 0);')
        check(driver.save_screenshot(os.path.join(args.out, 'web-board-phone.png')), 'phone screenshot')
        full_page_screenshot(driver, os.path.join(args.out, 'web-board-phone-full.png'))
        if not s['over']:
            # The engine's move drops the moves undone: Undo, then the engine takes the human's side and
            # plays; Redo has nothing left to replay.
            page.click('#undo')
            s = page.wait_for('undo', lambda s: page.settled(s) and s['toMove'] == 'black')
            select_cls(page.element('#side')).select_by_value('white')
            s = page.wait_for('the engine to play Black', lambda s: page.settled(s)
                              and (s['over'] or s['toMove'] == 'white'))
            check(page.element('#redo').get_attribute('disabled') is not None,
                  'Redo is still enabled after the engine played in the undone moves\' place')
            select_cls(page.element('#side')).select_by_value('black')
            s = page.wait_for('the engine to play White', lambda s: page.settled(s)
                              and (s['over'] or s['toMove'] == 'black'))
            print('  redo dropped once the engine played: ok', flush=True)

        desktop(driver)
        page.wait_js('the desktop layout',
                     "const b = document.getElementById('board').getBoundingClientRect();"
                     "const c = document.querySelector('.controls').getBoundingClientRect();"
                     "return window.innerWidth >= 1200 && c.left >= b.right;")
        check(driver.save_screenshot(os.path.join(args.out, 'web-board-desktop.png')), 'desktop screenshot')
        page.click('#opening')
        s = page.wait_for('the opening board', lambda s: page.settled(s) and s['board'] == opening_board)
        check_board(s, opening_board)
        check(s['toMove'] == 'black', f'after the opening {s["toMove"]} is to move, not Black')
        print('  an opening given as a board: ok', flush=True)
        check_level_bounds(page, select_cls)
        s = page.snapshot()
        check(not s['error'], f'the page shows an error: {s["error"]}')
        print(f'PASS: {len(moves)} plies played; screenshots in {args.out}', flush=True)
        return 0
    except Exception as e:  # a Failure, or the browser or the engine went wrong (WebDriverException, ...)
        if isinstance(e, Failure):
            print(f'FAIL: {e}', file=sys.stderr)
        else:
            traceback.print_exc()
            print(f'FAIL: {type(e).__name__}: {e}', file=sys.stderr)
        if driver is not None:
            try:
                driver.save_screenshot(os.path.join(args.out, 'web-board-failure.png'))
                for entry in driver.get_log('browser')[-20:]:
                    print(f'  browser: {entry.get("level")} {entry.get("message")}', file=sys.stderr)
            except Exception:  # the browser may be gone: the failure above is what matters
                pass
        return 1
    finally:
        if driver is not None:
            try:
                driver.quit()
            except Exception as e:
                print(f'note: quitting the driver: {e}', file=sys.stderr)
        if proc is not None:
            stop_engine(proc)
            err_file.seek(0)
            log = err_file.read().strip()
            if log:
                print('engine stderr:\n' + log[-3000:], file=sys.stderr)
        shutil.rmtree(profile, ignore_errors=True)


def stop_engine(proc):
    try:
        proc.stdin.close()
    except OSError:
        pass
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def load_selenium():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select, WebDriverWait
    except ImportError as e:
        return None, f'selenium is not installed ({e}; Debian: apt-get install python3-selenium)'
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return None, f'{path} is missing (Debian: apt-get install chromium chromium-driver)'
    return (webdriver, Options, Service, By, WebDriverWait, Select), None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--engine', required=True, help='the reversi-engine binary')
    parser.add_argument('--out', required=True, help='folder for the screenshots')
    args = parser.parse_args()
    if not os.access(args.engine, os.X_OK):
        print(f'FAIL: {args.engine} is not an executable', file=sys.stderr)
        return 1
    selenium, why = load_selenium()
    if selenium is None:
        print(f'SKIP: {why}', file=sys.stderr)
        return 77
    return run(args, selenium)


if __name__ == '__main__':
    sys.exit(main())
