// The web board of reversi-engine: plays a game against the engine over the WebSocket API of
// docs/web.md (version 1). The page never applies Othello rules itself: it keeps the list of moves
// played (and a redo stack), sends the whole list with every `position` message and draws the `state`
// the server answers (legal moves, flips, passes, game over).
//
// Requests are sent one at a time (`queue`, `inflight`), so every reply (`state`, `bestmove`, `opening`,
// `export`, or an `error`) belongs to the request in flight. A change of the game (a move, undo, new
// game, ...) drops the requests not sent yet and makes the one in flight "stale": a running search is
// stopped, and the reply (its `bestmove`) is awaited but ignored before the next request goes out.
'use strict';

(() => {
  const FILES = 'abcdefgh';
  const $ = (id) => document.getElementById(id);

  // ---- the game ---------------------------------------------------------------------------------

  // board: the start position as a board string, or null for the standard start.
  // moves: moves played (passes included); scores[i]: the engine's evaluation of moves[i] (the mover's
  // view, discs) or null; redo: {move, score} taken back by undo, the next one to replay last;
  // hintScores: ply -> the best hint's score from Black's view.
  let game = newGameRecord(null);
  let confirmed = null; // a copy of `game` when the server last accepted it
  let state = null; // the last `state` message
  let hints = []; // [{move, score}] shown on the board, best first

  function newGameRecord(board) {
    return { board, moves: [], scores: [], redo: [], hintScores: new Map() };
  }

  function copyGame(g) {
    return {
      board: g.board,
      moves: g.moves.slice(),
      scores: g.scores.slice(),
      redo: g.redo.slice(),
      hintScores: new Map(g.hintScores),
    };
  }

  function other(colour) {
    return colour === 'black' ? 'white' : 'black';
  }

  function cap(word) {
    return word.charAt(0).toUpperCase() + word.slice(1);
  }

  function humanColour() {
    return $('side').value;
  }

  function startColour() {
    if (!game.board) return 'black';
    const side = game.board.trim().split(/\s+/)[1] || 'X';
    return side.toUpperCase() === 'O' ? 'white' : 'black';
  }

  // Who played moves[ply]: the colours alternate because forced passes are in the list.
  function moverAt(ply) {
    return ply % 2 === 0 ? startColour() : other(startColour());
  }

  function blackView(ply, score) {
    return moverAt(ply) === 'black' ? score : -score;
  }

  // ---- the connection ---------------------------------------------------------------------------

  let ws = null;
  let queue = []; // requests waiting to be sent
  let inflight = null; // the request sent, waiting for its reply
  let engineName = 'reversi-engine';

  function connected() {
    return ws !== null && ws.readyState === WebSocket.OPEN;
  }

  function connect() {
    if (ws) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    ws = new WebSocket(`${scheme}//${location.host}/ws`);
    setConnection('connecting', 'connecting…');
    ws.addEventListener('open', onOpen);
    ws.addEventListener('message', onMessage);
    ws.addEventListener('close', onClose);
  }

  function onOpen() {
    setConnection('open', 'connected');
    clearError();
    sync(); // a new session: send it the game (and let the engine move if it is its turn)
  }

  function onClose(event) {
    ws = null;
    queue = [];
    inflight = null;
    const why = event.reason ? `: ${event.reason}` : '';
    setConnection('closed', `disconnected (code ${event.code}${why})`);
    refresh();
  }

  function setConnection(kind, text) {
    const el = $('connection');
    el.dataset.state = kind;
    el.textContent = kind === 'open' ? `${text} · ${engineName}` : text;
    $('reconnect').hidden = kind !== 'closed';
  }

  function sendNow(msg) {
    if (connected()) ws.send(JSON.stringify(msg));
  }

  // A request: {msg, expect (the reply's type, or null when none comes), onReply(reply),
  // onError(error), onSend(), keep (survives a change of the game), stale}.
  function enqueue(request) {
    queue.push(request);
    pump();
  }

  function pump() {
    while (!inflight && queue.length && connected()) {
      const request = queue.shift();
      sendNow(request.msg);
      if (request.onSend) request.onSend();
      if (request.expect) inflight = request;
    }
    refresh();
  }

  // The game changed: forget the requests not sent, stop a running search; their replies are ignored.
  function cancelWork() {
    hints = [];
    queue = queue.filter((r) => r.keep);
    if (inflight && !inflight.keep) {
      inflight.stale = true;
      if (inflight.expect === 'bestmove') {
        showThinking('');
        if (!inflight.stopSent) {
          inflight.stopSent = true;
          sendNow({ type: 'stop' });
        }
      }
    }
  }

  // Sends the game to the server; its `state` is drawn and decides what happens next.
  function sync(options = {}) {
    cancelWork();
    if (options.newgame) enqueue({ msg: { type: 'newgame' }, expect: null });
    const msg = { type: 'position', moves: game.moves.slice() };
    if (game.board) msg.board = game.board;
    enqueue({
      msg,
      expect: 'state',
      onReply: onState,
      onError: onPositionRefused,
      retry: options.retry,
      reveal: options.reveal,
    });
  }

  function onMessage(event) {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch (e) {
      showError(`unreadable message from the server: ${String(event.data).slice(0, 80)}`);
      return;
    }
    switch (msg.type) {
      case 'hello':
        engineName = msg.engine || engineName;
        setConnection('open', 'connected');
        break;
      case 'info':
        onInfo(msg);
        break;
      case 'line':
        onLine(msg.text || '');
        break;
      case 'error':
        onServerError(msg);
        break;
      case 'readyok':
        break;
      default:
        if (inflight && inflight.expect === msg.type) finish(msg);
        else console.warn('unexpected message', msg);
    }
    refresh();
  }

  function finish(reply) {
    const request = inflight;
    inflight = null;
    if (!request.stale && request.onReply) request.onReply(reply, request);
    pump();
  }

  // An `error` answers the request in flight (a refused `position`, `go`, ...), unless that is a search
  // that has already reported: an accepted search still ends with its `bestmove`.
  function onServerError(msg) {
    const request = inflight;
    const text = msg.message || 'error';
    if (!request || (request.expect === 'bestmove' && request.reported)) {
      showError(text);
      return;
    }
    inflight = null;
    if (!request.stale) {
      showError(text);
      if (request.onError) request.onError(msg, request);
    }
    pump();
  }

  function onLine(text) {
    const wld = /^info string wld (win|draw|loss)/.exec(text);
    if (/error/.test(text)) showError(text.replace(/^info string /, ''));
    else if (/^info string book move/.test(text)) showThinking(text.replace(/^info string /, ''));
    else if (wld && inflight && inflight.purpose === 'move' && !inflight.stale) {
      // A timed search solved win/draw/loss only: its score (+1, 0, -1) is no disc count, keep none.
      inflight.best = null;
      showThinking(`engine (${cap(state.to_move)}) · proven ${wld[1]} for ${cap(state.to_move)}`);
    }
  }

  // ---- game flow --------------------------------------------------------------------------------

  function onState(st, request) {
    state = st;
    game.moves = st.moves.slice();
    game.scores = game.moves.map((_, i) => (game.scores[i] === undefined ? null : game.scores[i]));
    confirmed = copyGame(game);
    renderBoard();
    renderMoveList();
    drawGraph();
    if (request.reveal) revealBoard();
    next();
  }

  // The server refused the position (an illegal move, a bad board): back to the last accepted game.
  function onPositionRefused(msg, request) {
    if (confirmed) game = copyGame(confirmed);
    renderMoveList();
    drawGraph();
    if (request.retry && state) next();
  }

  // What follows a state: a forced pass is played at once; on the engine's turn it searches.
  function next() {
    if (!state || state.game_over) return;
    if (state.must_pass) {
      play('pass', null);
      return;
    }
    if (state.to_move !== humanColour()) startEngineMove();
  }

  function play(move, score) {
    game.moves.push(move);
    game.scores.push(score);
    sync();
  }

  // A number field's value within min..max; empty or unreadable gives the fallback.
  function fieldNumber(id, min, max, fallback) {
    const text = String($(id).value).trim();
    const value = Math.round(Number(text));
    if (text === '' || !Number.isFinite(value)) return fallback;
    return Math.min(max, Math.max(min, value));
  }

  // The engine's limit: a depth of 1-60, or 10 ms to 10 minutes a move (the field's own bounds).
  function level() {
    if ($('level-kind').value === 'time') return { movetime: fieldNumber('level-value', 10, 600000, 1000) };
    return { depth: fieldNumber('level-value', 1, 60, 8) };
  }

  function startEngineMove() {
    enqueue({
      msg: { type: 'go', ...level() },
      expect: 'bestmove',
      purpose: 'move',
      onSend: () => showThinking('thinking…'),
      onReply: (reply, request) => {
        if (reply.move === 'none') return;
        game.redo = []; // the game has branched: the moves undone are no longer ahead of it
        play(reply.move, request.best ? request.best.score : null);
      },
      // A refused go (the error is shown): the engine waits for a change of the level, or Undo / New game.
      onError: () => showThinking('the engine did not move: change the level to let it play'),
    });
  }

  // After a change of the level: an engine that is to move and idle (its go refused) plays now.
  function resumeEngine() {
    if (connected() && state && !busy()) next();
  }

  function hintCount() {
    return fieldNumber('hint-count', 1, 64, 3);
  }

  function requestHint() {
    if (!playable()) return;
    const ply = state.ply;
    enqueue({
      msg: { type: 'go', ...level(), multipv: hintCount() },
      expect: 'bestmove',
      purpose: 'hint',
      lines: new Map(), // first move of a line -> {score, depth}
      onSend: () => showThinking('hint: thinking…'),
      onReply: (reply, request) => {
        hints = bestLines(request.lines, hintCount());
        if (hints.length) game.hintScores.set(ply, blackView(ply, hints[0].score));
        renderHints();
        drawGraph();
        showThinking(`hint: ${hints.map((h) => `${h.move} ${formatScore(h.score)}`).join(', ')}`);
      },
    });
  }

  // The N best lines, the deepest first (a stopped search leaves some lines one depth short).
  function bestLines(lines, n) {
    return [...lines.entries()]
      .map(([move, line]) => ({ move, score: line.score, depth: line.depth }))
      .sort((a, b) => b.depth - a.depth || b.score - a.score)
      .slice(0, n);
  }

  function onInfo(msg) {
    const request = inflight;
    if (!request || request.expect !== 'bestmove' || request.stale) return;
    request.reported = true;
    const exact = typeof msg.score === 'number' && !msg.bound;
    const pv = Array.isArray(msg.pv) ? msg.pv : [];
    if (exact && (msg.multipv || 1) === 1) request.best = { score: msg.score, depth: msg.depth };
    if (request.purpose === 'hint' && exact && pv.length) {
      request.lines.set(pv[0], { score: msg.score, depth: msg.depth || 0 });
      hints = bestLines(request.lines, hintCount());
      renderHints();
    }
    if ((msg.multipv || 1) === 1) showThinking(formatInfo(msg, request));
  }

  function formatInfo(msg, request) {
    const colour = cap(state ? state.to_move : '');
    const parts = [request.purpose === 'hint' ? 'hint' : `engine (${colour})`, `depth ${msg.depth}`];
    if (typeof msg.score === 'number') {
      const bound = msg.bound === 'lower' ? '≥' : msg.bound === 'upper' ? '≤' : '';
      parts.push(`${bound}${formatScore(msg.score)} for ${colour}`);
    }
    if (msg.nodes !== undefined) parts.push(`${formatCount(msg.nodes)} nodes`);
    if (msg.time !== undefined) parts.push(`${msg.time} ms`);
    if (Array.isArray(msg.pv) && msg.pv.length) parts.push(`pv ${msg.pv.join(' ')}`);
    return parts.join(' · ');
  }

  function formatScore(score) {
    const text = Number.isInteger(score) ? String(Math.abs(score)) : Math.abs(score).toFixed(1);
    return score > 0 ? `+${text}` : score < 0 ? `-${text}` : text;
  }

  function formatCount(n) {
    if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
    if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
    return String(n);
  }

  // ---- user actions -----------------------------------------------------------------------------

  function playable() {
    return (
      connected() && state !== null && !busy() && !state.game_over && !state.must_pass &&
      state.to_move === humanColour()
    );
  }

  function busy() {
    return inflight !== null || queue.length > 0;
  }

  function onSquare(square) {
    if (!playable() || !state.legal.includes(square)) return;
    clearError();
    game.redo = [];
    play(square, null);
  }

  // The human's last move that was not a pass, or -1.
  function lastHumanMove() {
    const human = humanColour();
    for (let i = game.moves.length - 1; i >= 0; i--) {
      if (game.moves[i] !== 'pass' && moverAt(i) === human) return i;
    }
    return -1;
  }

  // Back to the position before the human's last move (also while the engine thinks about its reply).
  function undo() {
    const from = lastHumanMove();
    if (from < 0) return;
    const moves = game.moves.splice(from);
    const scores = game.scores.splice(from);
    for (let k = moves.length - 1; k >= 0; k--) game.redo.push({ move: moves[k], score: scores[k] });
    for (const ply of [...game.hintScores.keys()]) if (ply > from) game.hintScores.delete(ply);
    clearError();
    showThinking(''); // the last search was about a position that is no longer on the board
    sync();
  }

  // Replays the human's move and what followed it, up to the human's next turn.
  function redo() {
    if (!game.redo.length) return;
    const human = humanColour();
    let first = true;
    while (game.redo.length) {
      const entry = game.redo[game.redo.length - 1];
      if (!first && entry.move !== 'pass' && moverAt(game.moves.length) === human) break;
      game.redo.pop();
      game.moves.push(entry.move);
      game.scores.push(entry.score);
      first = false;
    }
    clearError();
    showThinking('');
    sync();
  }

  function startGame(board, moves, reveal = false) {
    game = newGameRecord(board);
    game.moves = moves.slice();
    clearError();
    sync({ newgame: true, retry: true, reveal });
  }

  function newGame() {
    showThinking('');
    startGame(null, []);
  }

  function opening() {
    cancelWork();
    enqueue({
      msg: { type: 'opening' },
      expect: 'opening',
      onReply: (reply) => {
        const moves = reply.moves || [];
        startGame(reply.board || null, moves, true);
        const which =
          reply.source === 'file' ? `opening ${reply.index + 1} of ${reply.count}` : 'random opening';
        const from = reply.board ? ['a position'] : [];
        showThinking(`${which}: ${[...from, ...moves].join(' ')}`);
      },
    });
  }

  // A pasted transcript ("f5d6c3", "f5 d6 c3") or board string ("<64 squares> <side>", moves after it).
  function parsePaste(text) {
    const tokens = text.trim().split(/[\s,;]+/).filter(Boolean);
    let board = null;
    if (tokens.length >= 2 && tokens[0].length === 64 && tokens[1].length === 1) {
      board = `${tokens[0]} ${tokens[1]}`;
      tokens.splice(0, 2);
    }
    const moves = [];
    for (const token of tokens) {
      const lower = token.toLowerCase();
      // "f5d6c3" is split in squares; anything else is sent as it is, for the server to name it.
      if (/^([a-h][1-8])+$/.test(lower)) moves.push(...lower.match(/[a-h][1-8]/g));
      else moves.push(lower === 'pa' ? 'pass' : lower);
    }
    return { board, moves };
  }

  function load() {
    const text = $('paste').value;
    if (!text.trim()) {
      showError('paste a transcript or a board string first');
      return;
    }
    showThinking('');
    const { board, moves } = parsePaste(text);
    startGame(board, moves, true);
  }

  function exportGame(kind) {
    if (!state) return;
    const human = humanColour();
    const msg = {
      type: 'export',
      moves: game.moves.slice(),
      black: human === 'black' ? 'human' : engineName,
      white: human === 'white' ? 'human' : engineName,
      scores: game.scores.slice(),
    };
    if (game.board) msg.board = game.board;
    enqueue({
      msg,
      expect: 'export',
      keep: true,
      onReply: (reply) => {
        $('export-out').value = kind === 'ggf' ? reply.ggf : reply.transcript;
      },
    });
  }

  async function copyExport() {
    const out = $('export-out');
    try {
      await navigator.clipboard.writeText(out.value);
    } catch (e) {
      out.select(); // no clipboard API (plain http on another host): the old way
      document.execCommand('copy');
    }
    $('copy').textContent = 'Copied';
    setTimeout(() => ($('copy').textContent = 'Copy'), 1200);
  }

  function stop() {
    if (inflight && inflight.expect === 'bestmove' && !inflight.stopSent) {
      inflight.stopSent = true;
      sendNow({ type: 'stop' });
    }
  }

  function onLevelKind() {
    const input = $('level-value');
    if ($('level-kind').value === 'time') {
      Object.assign(input, { min: 10, max: 600000, step: 100, value: 1000 });
    } else {
      Object.assign(input, { min: 1, max: 60, step: 1, value: 8 });
    }
  }

  // ---- drawing ----------------------------------------------------------------------------------

  function buildBoard() {
    const board = $('board');
    for (let i = 0; i < 64; i++) {
      const square = document.createElement('div');
      const name = FILES[i % 8] + (Math.floor(i / 8) + 1);
      square.className = 'square';
      square.dataset.square = name;
      square.setAttribute('role', 'button');
      square.setAttribute('aria-label', name);
      square.setAttribute('aria-disabled', 'true');
      square.addEventListener('click', () => onSquare(name));
      square.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onSquare(name);
        }
      });
      board.appendChild(square);
    }
  }

  // The last move drawn: the last one that was not a pass.
  function lastSquare() {
    for (let i = state.moves.length - 1; i >= 0; i--) if (state.moves[i] !== 'pass') return state.moves[i];
    return null;
  }

  function renderBoard() {
    const board = $('board');
    const legal = new Set(state.legal);
    const flipped = new Set(state.flipped || []);
    const last = lastSquare();
    for (const square of board.children) {
      const name = square.dataset.square;
      const i = FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1);
      const cell = state.board[i];
      square.classList.toggle('legal', legal.has(name));
      const content = cell === 'X' ? 'black disc' : cell === 'O' ? 'white disc' : 'empty';
      square.setAttribute('aria-label', `${name}, ${content}${legal.has(name) ? ', legal move' : ''}`);
      square.classList.toggle('last', name === last);
      square.replaceChildren();
      if (cell === 'X' || cell === 'O') {
        const disc = document.createElement('div');
        disc.className = `disc ${cell === 'X' ? 'black' : 'white'}`;
        if (flipped.has(name)) disc.classList.add('flipped');
        square.appendChild(disc);
      }
    }
    board.dataset.toMove = state.to_move;
    board.dataset.ply = String(state.ply);
    board.dataset.gameOver = state.game_over ? '1' : '0';
    $('count-black').textContent = String(state.black);
    $('count-white').textContent = String(state.white);
    renderHints();
  }

  function renderHints() {
    for (const el of $('board').querySelectorAll('.hint')) el.remove();
    hints.forEach((h, k) => {
      const square = $('board').querySelector(`[data-square="${h.move}"]`);
      if (!square) return;
      const el = document.createElement('span');
      el.className = k === 0 ? 'hint best' : 'hint';
      el.textContent = formatScore(h.score);
      square.appendChild(el);
    });
  }

  function renderMoveList() {
    const list = $('move-list');
    list.replaceChildren();
    game.moves.forEach((move, i) => {
      const li = document.createElement('li');
      li.textContent = `${i + 1}.${move}`;
      if (i === game.moves.length - 1) li.className = 'current';
      list.appendChild(li);
    });
    list.scrollTop = list.scrollHeight;
  }

  function statusText() {
    if (!connected()) return ws ? 'Connecting to the engine…' : 'Disconnected: press Reconnect.';
    if (!state) return 'Waiting for the engine…';
    const human = humanColour();
    const moves = state.moves;
    // A pass just played (forced: the server inserts only those) is shown with the next line.
    const lastIsPass = moves.length > 0 && moves[moves.length - 1] === 'pass';
    const passed = lastIsPass ? `${cap(other(state.to_move))} passes. ` : '';
    if (state.game_over) return passed + resultText();
    if (state.must_pass) return `${cap(state.to_move)} passes.`;
    const searching = inflight && !inflight.stale ? inflight.purpose : null;
    if (searching === 'move') return `${passed}Engine (${cap(state.to_move)}) is thinking…`;
    if (searching === 'hint') return `${passed}Looking for your best moves…`;
    if (state.to_move === human) return `${passed}Your move (${cap(human)}).`;
    return `${passed}Engine (${cap(state.to_move)}) to move.`;
  }

  function resultText() {
    const r = state.result;
    const score = `Black ${state.black} – White ${state.white}`;
    let winner = 'Draw';
    if (r > 0) winner = `Black wins by ${r}`;
    if (r < 0) winner = `White wins by ${-r}`;
    const human = humanColour();
    const mine = human === 'black' ? r : -r;
    const verdict = mine > 0 ? 'You win!' : mine < 0 ? 'The engine wins.' : '';
    return `Game over: ${score}. ${winner}. ${verdict}`.trim();
  }

  // Attributes and buttons that follow the connection and the requests (called after every event).
  function refresh() {
    const board = $('board');
    const open = connected();
    const searching = open && inflight !== null && inflight.expect === 'bestmove' && !inflight.stale;
    board.dataset.busy = busy() ? '1' : '0';
    const canPlay = playable();
    board.classList.toggle('playable', canPlay);
    for (const square of board.children) {
      const active = canPlay && square.classList.contains('legal');
      square.tabIndex = active ? 0 : -1;
      square.setAttribute('aria-disabled', active ? 'false' : 'true');
    }
    $('undo').disabled = !open || lastHumanMove() < 0;
    $('redo').disabled = !open || game.redo.length === 0;
    $('stop').disabled = !searching || inflight.stopSent === true;
    $('hint').disabled = !canPlay;
    for (const id of ['new-game', 'opening', 'load']) $(id).disabled = !open;
    for (const id of ['export-ggf', 'export-transcript']) $(id).disabled = !open || !state;
    const status = statusText();
    if ($('status').textContent !== status) $('status').textContent = status; // a live region: no repeats
  }

  function showThinking(text) {
    $('thinking').textContent = text;
  }

  function showError(text) {
    $('error').textContent = text;
    $('error-box').hidden = false;
  }

  function clearError() {
    $('error-box').hidden = true;
    $('error').textContent = '';
  }

  // Brings the board into view (after a Load or Opening pressed far below it on a phone).
  function revealBoard() {
    const top = $('board').getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) {
      $('board').scrollIntoView({ behavior: 'smooth', block: 'start' });
    }
  }

  // The evaluation graph: the engine's score after each of its moves and the best hint of a position,
  // from Black's view, on a +64..-64 scale; x is the ply.
  function drawGraph() {
    const canvas = $('eval-graph');
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    if (!width || !height) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);

    const pad = { left: 30, right: 8, top: 8, bottom: 8 };
    const plies = Math.max(60, game.moves.length);
    const x = (ply) => pad.left + (ply / plies) * (width - pad.left - pad.right);
    const clamp = (v) => Math.max(-64, Math.min(64, v));
    const y = (v) => pad.top + ((64 - clamp(v)) / 128) * (height - pad.top - pad.bottom);

    drawAxes(ctx, x, y, width, height, plies);
    const engine = [];
    game.scores.forEach((s, i) => {
      if (typeof s === 'number') engine.push([x(i + 1), y(blackView(i, s))]);
    });
    drawSeries(ctx, engine, '#1c6e3d', true);
    const hintPoints = [...game.hintScores.entries()]
      .filter(([ply]) => ply <= game.moves.length)
      .map(([ply, v]) => [x(ply), y(v)]);
    drawSeries(ctx, hintPoints, '#d08a00', false);
    ctx.strokeStyle = 'rgba(0,0,0,.25)'; // the current ply
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(x(game.moves.length), pad.top);
    ctx.lineTo(x(game.moves.length), height - pad.bottom);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  function drawAxes(ctx, x, y, width, height, plies) {
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = 'rgba(0,0,0,.05)'; // Black ahead above 0
    ctx.fillRect(x(0), y(64), x(plies) - x(0), y(0) - y(64));
    ctx.font = '10px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const v of [64, 32, 0, -32, -64]) {
      ctx.strokeStyle = v === 0 ? 'rgba(0,0,0,.45)' : 'rgba(0,0,0,.12)';
      ctx.beginPath();
      ctx.moveTo(x(0), y(v));
      ctx.lineTo(x(plies), y(v));
      ctx.stroke();
      ctx.fillStyle = '#6b716e';
      ctx.fillText(v > 0 ? `+${v}` : String(v), x(0) - 4, y(v));
    }
  }

  function drawSeries(ctx, points, colour, joined) {
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = 2;
    if (joined && points.length > 1) {
      ctx.beginPath();
      points.forEach(([px, py], k) => (k ? ctx.lineTo(px, py) : ctx.moveTo(px, py)));
      ctx.stroke();
    }
    for (const [px, py] of points) {
      ctx.beginPath();
      ctx.arc(px, py, joined ? 2.5 : 3.5, 0, 2 * Math.PI);
      ctx.fill();
    }
    ctx.lineWidth = 1;
  }

  // ---- start ------------------------------------------------------------------------------------

  function bind(id, event, handler) {
    $(id).addEventListener(event, handler);
  }

  function start() {
    buildBoard();
    bind('new-game', 'click', newGame);
    bind('opening', 'click', opening);
    bind('undo', 'click', undo);
    bind('redo', 'click', redo);
    bind('hint', 'click', requestHint);
    bind('stop', 'click', stop);
    bind('load', 'click', load);
    bind('export-ggf', 'click', () => exportGame('ggf'));
    bind('export-transcript', 'click', () => exportGame('transcript'));
    bind('copy', 'click', copyExport);
    bind('reconnect', 'click', connect);
    bind('error-close', 'click', clearError);
    bind('level-kind', 'change', () => {
      onLevelKind();
      resumeEngine();
    });
    bind('level-value', 'change', resumeEngine);
    bind('side', 'change', () => connected() && sync()); // the engine may have to move now
    window.addEventListener('resize', drawGraph);
    refresh();
    drawGraph();
    connect();
  }

  start();
})();
