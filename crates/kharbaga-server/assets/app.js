// The Kharbaga page: draws the board, lets the player move by clicking or dragging, and
// talks to the server's JSON API (docs/api.md); live.js follows the game as it changes and
// asks the engine for its moves. No framework, no build step.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const FILES = 'abcdefghi';
const UNIT = 50; // SVG units per doubled coordinate
const LEFT = 46; // room for the rank numbers (and, at the bottom, the file letters)
const TOP = 30;
const SIZE = LEFT + 8 * UNIT + TOP; // the view box is square
const RADIUS = 20;
const TOKEN_KEY = (id) => `kharbaga:token:${id}`;
const LAST_KEY = 'kharbaga:last';
const DICE = ['', '\u2680', '\u2681', '\u2682', '\u2683', '\u2684', '\u2685'];

const ui = {
  meta: null,
  game: null, // the state from the server
  token: null,
  view: 0, // the ply shown
  flipped: false,
  sel: null, // {from, partial: [points], cands: [{move, path}]}
  drag: null, // {point, x, y, moved, pointerId}
  busy: false,
  search: null, // the last engine report {ply, search}
  hintFor: -1, // the ply the hint was asked for
  engineTrouble: null, // why the engine's move did not come {ply, text, retrying}
  echo: null, // the rest of a capture sent before it was clicked to its end {points, at}
};

// How soon after the click before it a click on the next point of a capture already sent
// finishes that capture (rather than starting something new), in ms.
const ECHO_MS = 3000;

// ---------------------------------------------------------------------------------------
// Geometry

function coords(name) {
  return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1];
}
function pointName(x, y) {
  return FILES[x] + (y + 1);
}
function toScreen(name) {
  let [x, y] = coords(name);
  if (ui.flipped) { x = 8 - x; y = 8 - y; }
  return [LEFT + x * UNIT, TOP + (8 - y) * UNIT];
}
const ALL_POINTS = [];
for (let y = 0; y < 9; y++) for (let x = 0; x < 9; x++) if ((x + y) % 2 === 0) ALL_POINTS.push(pointName(x, y));

// The points strictly between two points on one line.
function between(a, b) {
  const [ax, ay] = coords(a);
  const [bx, by] = coords(b);
  const dx = Math.sign(bx - ax);
  const dy = Math.sign(by - ay);
  const step = dx === 0 || dy === 0 ? 2 : 1;
  const out = [];
  let x = ax + dx * step;
  let y = ay + dy * step;
  while ((x !== bx || y !== by) && x >= 0 && x <= 8 && y >= 0 && y <= 8) {
    out.push(pointName(x, y));
    x += dx * step;
    y += dy * step;
  }
  return out;
}

function parsePosition(fen) {
  const [turn, ...lists] = fen.split(':');
  const pieces = new Map();
  for (const list of lists) {
    const color = list[0] === 'B' ? 'black' : 'white';
    for (const item of list.slice(1).split(',')) {
      if (!item) continue;
      const mullah = item[0] === 'K';
      pieces.set(mullah ? item.slice(1) : item, { color, mullah });
    }
  }
  return { turn: turn === 'B' ? 'black' : 'white', pieces };
}

// ---------------------------------------------------------------------------------------
// Server

async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (ui.token) headers['X-Kharbaga-Token'] = ui.token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    err.code = data && data.code;
    throw err;
  }
  return data;
}

// ---------------------------------------------------------------------------------------
// Who is who

function player(color) {
  return ui.game.players[color];
}
function isEngine(color) {
  return player(color).kind === 'engine';
}
function owner() {
  return !!ui.token;
}
function vsEngine() {
  return isEngine('black') !== isEngine('white');
}
function humanColor() {
  return isEngine('black') ? 'white' : 'black';
}
function canMove() {
  const g = ui.game;
  return g && owner() && !ui.busy && !g.thinking && !g.outcome && ui.view === g.ply && !isEngine(g.turn);
}

// ---------------------------------------------------------------------------------------
// Selection and move entry

function candidatesFrom(from) {
  const out = [];
  for (const move of ui.game.legal) {
    if (move.from !== from) continue;
    for (const path of move.paths) out.push({ move, path });
  }
  return out;
}

function prefixMatches(path, partial) {
  return partial.every((p, i) => path[i] === p);
}

function targets() {
  if (!ui.sel) return [];
  const n = ui.sel.partial.length;
  const set = new Set();
  for (const c of ui.sel.cands) if (c.path.length > n) set.add(c.path[n]);
  return [...set];
}

function currentSquare() {
  const s = ui.sel;
  return s.partial.length ? s.partial[s.partial.length - 1] : s.from;
}

function select(from) {
  const cands = candidatesFrom(from);
  ui.sel = cands.length ? { from, partial: [], cands } : null;
}

// Adds a landing point to the move being entered; plays it when only one move is left.
function advance(point) {
  const s = ui.sel;
  s.partial.push(point);
  s.cands = s.cands.filter((c) => prefixMatches(c.path, s.partial));
  const moves = new Set(s.cands.map((c) => c.move.move));
  if (moves.size === 1) {
    const done = s.cands.find((c) => c.path.length === s.partial.length) || s.cands[0];
    const rest = done.path.slice(s.partial.length);
    ui.echo = rest.length ? { points: rest, at: performance.now() } : null;
    submitMove([s.from, ...done.path]);
  } else {
    render();
  }
}

function pointerPoint(evt) {
  const svg = $('board');
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX;
  pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  let best = null;
  let bestD = 32 * 32;
  for (const name of ALL_POINTS) {
    const [sx, sy] = toScreen(name);
    const d = (sx - p.x) ** 2 + (sy - p.y) ** 2;
    if (d < bestD) { bestD = d; best = name; }
  }
  return { point: best, x: p.x, y: p.y };
}

// A capture is sent as soon as only one move fits the points clicked; the player may go on
// clicking its last points, where the piece has gone. Those clicks, each soon after the one
// before, finish that capture: they do not select the piece (its next move would be lost).
// Any other click ends this.
function finishesSentCapture(point) {
  const e = ui.echo;
  ui.echo = null;
  if (!e || point !== e.points[0] || performance.now() - e.at > ECHO_MS) return false;
  if (e.points.length > 1) ui.echo = { points: e.points.slice(1), at: performance.now() };
  return true;
}

function onPointerDown(evt) {
  if (evt.button !== undefined && evt.button !== 0) return;
  if (!ui.game) return;
  const { point, x, y } = pointerPoint(evt);
  if (ui.echo && finishesSentCapture(point)) {
    evt.preventDefault();
    return;
  }
  if (!canMove()) return;
  if (!point) return;
  const s = ui.sel;
  if (s && targets().includes(point)) {
    advance(point);
    return;
  }
  if (s && point === currentSquare()) {
    startDrag(evt, point, x, y, s.partial.length === 0);
    return;
  }
  if (s && s.partial.length) return; // in the middle of a capture: only its next points count
  if (candidatesFrom(point).length) {
    const already = s && s.from === point;
    select(point);
    render();
    startDrag(evt, point, x, y, already);
    return;
  }
  if (s) { ui.sel = null; render(); }
}

function startDrag(evt, point, x, y, toggle) {
  ui.drag = { point, x, y, sx: x, sy: y, moved: false, toggle, pointerId: evt.pointerId };
  try { $('board').setPointerCapture(evt.pointerId); } catch (e) { /* not all pointers can be captured */ }
  evt.preventDefault();
}

function onPointerMove(evt) {
  const d = ui.drag;
  if (!d || evt.pointerId !== d.pointerId) return;
  const { x, y } = pointerPoint(evt);
  if (!d.moved && (x - d.sx) ** 2 + (y - d.sy) ** 2 < 36) return;
  d.moved = true;
  d.x = x;
  d.y = y;
  render();
}

function onPointerUp(evt) {
  const d = ui.drag;
  if (!d || evt.pointerId !== d.pointerId) return;
  ui.drag = null;
  const { point } = pointerPoint(evt);
  if (d.moved) {
    if (point && ui.sel && targets().includes(point)) { advance(point); return; }
  } else if (d.toggle && ui.sel && ui.sel.partial.length === 0 && point === ui.sel.from) {
    ui.sel = null; // a second click on the selected piece lets it go
  }
  render();
}

async function submitMove(path) {
  const g = ui.game;
  ui.busy = true;
  render();
  try {
    const state = await api('POST', `/api/games/${g.id}/moves`, { path, ply: g.ply });
    ui.sel = null;
    setGame(state);
  } catch (e) {
    ui.sel = null;
    toast(e.message, true);
    await refresh();
  } finally {
    ui.busy = false;
    render();
  }
  maybeEngine();
}

// ---------------------------------------------------------------------------------------
// Engine (the engine's move is in live.js)

async function refresh() {
  try {
    setGame(await api('GET', `/api/games/${ui.game.id}`));
  } catch (e) {
    toast(e.message, true);
  }
  render();
}

async function askHint() {
  const g = ui.game;
  if (!g || !owner() || g.outcome) return;
  ui.busy = true;
  $('hint').hidden = false;
  $('hint').textContent = 'Thinking about a hint\u2026';
  render();
  try {
    const res = await api('POST', `/api/games/${g.id}/hint`, {});
    ui.search = { ply: res.ply, search: res.search };
    ui.hintFor = res.ply;
  } catch (e) {
    $('hint').hidden = true;
    toast(e.message, true);
  } finally {
    ui.busy = false;
    render();
  }
}

// The score for Black in centi-men, or +-Infinity for a forced result (0 for a draw by the
// endgame tables), and its text.
function blackScore(search) {
  const s = search.score;
  const sign = s.side === 'black' ? 1 : -1;
  if (s.kind === 'centi') {
    const v = sign * s.value;
    return { value: v, text: (v > 0 ? '+' : '') + (v / 100).toFixed(2) };
  }
  if (s.kind === 'tb-draw') return { value: 0, text: 'a draw (endgame tables)', plain: 'a draw', short: '=' };
  const table = s.kind === 'tb-win' || s.kind === 'tb-loss';
  const won = s.kind === 'win' || s.kind === 'tb-win';
  const winner = won === (s.side === 'black') ? 'black' : 'white';
  const value = winner === 'black' ? Infinity : -Infinity;
  // A table score's distance is in plies, and -1 when the tables do not give it.
  const moves = Math.ceil(s.value / 2);
  if (table) {
    const plain = s.value < 0 ? `${cap(winner)} wins` : `${cap(winner)} wins in ${plies(s.value)}`;
    return { value, text: `${plain} (endgame tables)`, plain, short: s.value < 0 ? 'TB' : `#${moves}` };
  }
  return { value, text: `${cap(winner)} wins in ${moves}`, short: `#${moves}` };
}

function plies(n) {
  return n === 1 ? '1 ply' : `${n} plies`;
}

// A table value ('win 17', 'draw', 'loss 8', for `mover`) in words: 'Black wins in 17 plies'.
function tableText(value, mover) {
  const [kind, n] = value.split(' ');
  if (kind === 'draw') return 'a draw';
  const winner = kind === 'win' ? mover : mover === 'black' ? 'white' : 'black';
  return `${cap(winner)} wins in ${plies(parseInt(n, 10))}`;
}

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// ---------------------------------------------------------------------------------------
// Game

function setGame(state) {
  const follow = !ui.game || ui.game.id !== state.id || ui.view >= ui.game.ply;
  ui.game = state;
  if (follow || ui.view > state.ply) ui.view = state.ply;
  if (ui.sel && !candidatesFrom(ui.sel.from).length) ui.sel = null;
}

async function openGame(id) {
  ui.token = localStorage.getItem(TOKEN_KEY(id));
  try {
    const state = await api('GET', `/api/games/${id}`);
    ui.game = null;
    ui.search = null;
    ui.sel = null;
    ui.echo = null;
    ui.engineTrouble = null;
    setGame(state);
    watchGame(id);
    ui.flipped = owner() && vsEngine() && humanColor() === 'white';
    if (owner()) localStorage.setItem(LAST_KEY, id);
    render();
    maybeEngine();
  } catch (e) {
    toast(e.message, true);
    render();
    openNewDialog();
  }
}

function takeBackCount() {
  const g = ui.game;
  if (!vsEngine()) return g.ply > 0 ? 1 : 0;
  // Back to the position before the player's last move.
  let n = 0;
  for (let i = g.ply - 1; i >= 0; i--) {
    n++;
    if (!isEngine(g.history[i].color)) return n;
  }
  return 0;
}

async function takeBack() {
  const g = ui.game;
  const count = takeBackCount();
  if (!count || !owner()) return;
  ui.busy = true;
  try {
    setGame(await api('POST', `/api/games/${g.id}/undo`, { count, ply: g.ply }));
    ui.view = ui.game.ply;
    ui.sel = null;
  } catch (e) {
    toast(e.message, true);
  } finally {
    ui.busy = false;
    render();
  }
  maybeEngine();
}

function download() {
  const g = ui.game;
  if (!g) return;
  const a = document.createElement('a');
  a.href = `/api/games/${g.id}/record`;
  a.download = `kharbaga-${g.id}.pdn`;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// ---------------------------------------------------------------------------------------
// Drawing

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function drawPiece(parent, x, y, piece, extraClass) {
  const g = el('g', { class: extraClass || '' }, parent);
  el('circle', { cx: x, cy: y, r: RADIUS, class: `pc-${piece.color}` }, g);
  el('circle', { cx: x, cy: y, r: RADIUS - 5, fill: 'none', stroke: piece.color === 'black' ? '#555' : '#c9bfa8', 'stroke-width': 1.2 }, g);
  if (piece.mullah) {
    const s = 0.8;
    const pts = [[-10, 6], [-12, -6], [-5, -1], [0, -10], [5, -1], [12, -6], [10, 6]]
      .map(([px, py]) => `${x + px * s},${y + py * s}`).join(' ');
    el('polygon', { points: pts, class: `crown-${piece.color}` }, g);
    el('rect', { x: x - 10 * s, y: y + 7 * s, width: 20 * s, height: 3.5 * s, rx: 1, class: `crown-${piece.color}` }, g);
  }
  return g;
}

function pathLine(points, cls, parent) {
  const d = points.map((p, i) => {
    const [x, y] = toScreen(p);
    return `${i ? 'L' : 'M'}${x},${y}`;
  }).join(' ');
  return el('path', { d, class: cls }, parent);
}

function shownPosition() {
  const g = ui.game;
  return parsePosition(ui.view === 0 ? g.start : g.history[ui.view - 1].position);
}

function drawBoard() {
  const svg = $('board');
  svg.textContent = '';
  const defs = el('defs', {}, svg);
  const gb = el('radialGradient', { id: 'g-black', cx: '35%', cy: '30%', r: '75%' }, defs);
  el('stop', { offset: '0%', 'stop-color': '#5a5a5a' }, gb);
  el('stop', { offset: '100%', 'stop-color': '#111' }, gb);
  const gw = el('radialGradient', { id: 'g-white', cx: '35%', cy: '30%', r: '75%' }, defs);
  el('stop', { offset: '0%', 'stop-color': '#ffffff' }, gw);
  el('stop', { offset: '100%', 'stop-color': '#e6dcc6' }, gw);

  el('rect', { x: 0, y: 0, width: SIZE, height: SIZE, rx: 10, fill: '#e8cf9c' }, svg);
  // Lines: the 5 x 5 grid and both diagonals of every cell.
  const lines = el('g', {}, svg);
  const span = 8 * UNIT;
  for (let i = 0; i <= 8; i += 2) {
    el('line', { x1: LEFT, y1: TOP + i * UNIT, x2: LEFT + span, y2: TOP + i * UNIT, class: 'ln' }, lines);
    el('line', { x1: LEFT + i * UNIT, y1: TOP, x2: LEFT + i * UNIT, y2: TOP + span, class: 'ln' }, lines);
  }
  for (let i = 0; i < 8; i += 2) {
    for (let j = 0; j < 8; j += 2) {
      const x0 = LEFT + i * UNIT;
      const y0 = TOP + j * UNIT;
      el('line', { x1: x0, y1: y0, x2: x0 + 2 * UNIT, y2: y0 + 2 * UNIT, class: 'ln' }, lines);
      el('line', { x1: x0 + 2 * UNIT, y1: y0, x2: x0, y2: y0 + 2 * UNIT, class: 'ln' }, lines);
    }
  }
  // Coordinates on the edges.
  for (let i = 0; i < 9; i++) {
    const file = ui.flipped ? FILES[8 - i] : FILES[i];
    const rank = ui.flipped ? i + 1 : 9 - i;
    el('text', { x: LEFT + i * UNIT, y: SIZE - 16, class: 'coord' }, svg).textContent = file;
    el('text', { x: 16, y: TOP + i * UNIT, class: 'coord' }, svg).textContent = rank;
  }
  for (const p of ALL_POINTS) {
    const [x, y] = toScreen(p);
    el('circle', { cx: x, cy: y, r: 4.5, class: 'pt' }, svg);
  }
  return svg;
}

function render() {
  const g = ui.game;
  const svg = drawBoard();
  renderPanel();
  if (!g) return;
  const pos = shownPosition();
  const live = ui.view === g.ply;
  const s = live ? ui.sel : null;

  // The last move (of the shown position) and what it took.
  const last = ui.view > 0 ? g.history[ui.view - 1] : null;
  if (last && !(s && s.partial.length)) {
    pathLine([last.from, ...last.path], 'lastmove', svg);
    const [fx, fy] = toScreen(last.from);
    el('circle', { cx: fx, cy: fy, r: RADIUS - 2, class: 'lastfrom' }, svg);
  }
  // The hint's line.
  const hint = ui.search && ui.hintFor === g.ply && live ? ui.search.search : null;
  if (hint && hint.best && !s) {
    const mv = g.legal.find((m) => m.move === hint.best);
    if (mv) pathLine([mv.from, ...mv.path], 'hintline', svg);
  }

  // Pieces: during a capture entry the moving piece stands on its last landing point and
  // the pieces it has jumped are ghosts.
  const ghosts = new Set();
  let moving = null;
  if (s && s.partial.length) {
    const pts = [s.from, ...s.partial];
    for (let i = 1; i < pts.length; i++) {
      for (const p of between(pts[i - 1], pts[i])) {
        const pc = pos.pieces.get(p);
        if (pc && pc.color !== pos.turn) ghosts.add(p);
      }
    }
    pathLine(pts, 'partial', svg);
    moving = s.partial[s.partial.length - 1];
  }
  const movable = new Set(canMove() ? g.legal.map((m) => m.from) : []);
  const dragFrom = ui.drag && ui.drag.moved ? ui.drag.point : null;
  for (const [p, piece] of pos.pieces) {
    if (s && s.partial.length && p === s.from) continue;
    if (p === dragFrom) continue;
    const [x, y] = toScreen(p);
    const node = drawPiece(svg, x, y, piece, ghosts.has(p) ? 'ghost' : movable.has(p) ? 'movable' : '');
    node.dataset.point = p;
    if (ghosts.has(p)) {
      el('path', { d: `M${x - 9},${y - 9}L${x + 9},${y + 9}M${x + 9},${y - 9}L${x - 9},${y + 9}`, class: 'ghost-x' }, svg);
    }
  }
  if (moving && moving !== dragFrom) {
    const [x, y] = toScreen(moving);
    drawPiece(svg, x, y, pos.pieces.get(s.from), 'movable').dataset.point = moving;
  }
  // Captured by the last move: small crosses where the pieces were.
  if (last && !(s && s.partial.length)) {
    for (const p of last.captured) {
      const [x, y] = toScreen(p);
      el('path', { d: `M${x - 7},${y - 7}L${x + 7},${y + 7}M${x + 7},${y - 7}L${x - 7},${y + 7}`, class: 'lastcap' }, svg);
    }
  }
  // Pieces that must capture.
  if (live && g.must_capture && canMove() && !(s && s.partial.length)) {
    for (const from of new Set(g.legal.map((m) => m.from))) {
      const [x, y] = toScreen(from);
      el('circle', { cx: x, cy: y, r: RADIUS + 5, class: 'must-ring' }, svg);
    }
  }
  if (s) {
    const [x, y] = toScreen(currentSquare());
    el('circle', { cx: x, cy: y, r: RADIUS + 4, class: 'sel-ring' }, svg);
    const capturing = s.cands.some((c) => c.move.captured.length);
    for (const t of targets()) {
      const [tx, ty] = toScreen(t);
      if (capturing) el('circle', { cx: tx, cy: ty, r: 15, class: 'target-capture' }, svg).dataset.target = t;
      else el('circle', { cx: tx, cy: ty, r: 10, class: 'target' }, svg).dataset.target = t;
    }
  }
  if (dragFrom) {
    const piece = pos.pieces.get(s && s.from ? s.from : dragFrom);
    if (piece) drawPiece(svg, ui.drag.x, ui.drag.y, piece, 'dragging');
  }
  svg.setAttribute('aria-label', `Kharbaga board, ${pos.turn} to move: ${g.position}`);
}

function playerLabel(color) {
  const p = player(color);
  if (p.kind === 'engine') return `Engine, level ${p.level}`;
  if (!owner()) return cap(color);
  return vsEngine() ? 'You' : cap(color);
}

function renderPlayers() {
  const g = ui.game;
  const bottom = ui.flipped ? 'white' : 'black';
  const top = bottom === 'black' ? 'white' : 'black';
  for (const [id, color] of [['player-top', top], ['player-bottom', bottom]]) {
    const box = $(id);
    box.textContent = '';
    if (!g) continue;
    const chip = document.createElement('span');
    chip.className = `chip ${color}`;
    box.append(chip, ` ${playerLabel(color)}`);
    if (!g.outcome && g.turn === color && ui.view === g.ply) {
      const t = document.createElement('span');
      t.className = 'to-move';
      t.textContent = g.thinking ? ' \u2014 thinking\u2026' : ' \u2014 to move';
      box.append(t);
    }
  }
}

function renderStatus() {
  const g = ui.game;
  const st = $('status');
  st.className = 'status';
  if (!g) { st.textContent = 'Start a new game.'; return; }
  if (g.outcome && ui.view === g.ply) {
    st.classList.add('result');
    st.textContent = `${g.outcome.text} (${g.outcome.result})`;
  } else if (g.thinking) {
    st.classList.add('thinking');
    st.textContent = 'The engine is thinking\u2026';
  } else if (ui.view !== g.ply) {
    st.textContent = `Showing the position after ${ui.view} of ${g.ply} moves; the last button returns to the game.`;
  } else {
    let text = `${cap(g.turn)} to move`;
    if (!owner()) text = `Watching: ${text}`;
    else if (isEngine(g.turn)) text += ' (the engine)';
    if (g.must_capture && owner() && !isEngine(g.turn)) text += ' \u2014 a capture is compulsory: the marked pieces can capture';
    st.textContent = text + '.';
  }
}

function renderMoves() {
  const g = ui.game;
  const body = $('moves').tBodies[0];
  body.textContent = '';
  if (!g || g.history.length === 0) {
    const tr = body.insertRow();
    tr.className = 'empty';
    const td = tr.insertCell();
    td.colSpan = 3;
    td.textContent = g ? 'No moves yet.' : '';
    return;
  }
  const firstColor = g.history[0].color;
  let row = null;
  g.history.forEach((h, i) => {
    if (i % 2 === 0) {
      row = body.insertRow();
      const num = row.insertCell();
      num.className = 'num';
      num.textContent = `${i / 2 + 1}.`;
    }
    const td = row.insertCell();
    td.className = 'mv' + (ui.view === h.ply ? ' current' : '');
    td.textContent = h.move + (h.promotion ? ' M' : '');
    td.title = `${cap(h.color)}: ${h.move}`;
    td.dataset.ply = h.ply;
    td.onclick = () => { ui.view = h.ply; ui.sel = null; render(); };
  });
  $('moves').dataset.first = firstColor;
  // Keep the current move in sight by scrolling the list alone (not the page).
  const cur = body.querySelector('.current');
  const box = $('moves').parentElement;
  if (cur) {
    const b = box.getBoundingClientRect();
    const c = cur.getBoundingClientRect();
    if (c.top < b.top) box.scrollTop -= b.top - c.top;
    else if (c.bottom > b.bottom) box.scrollTop += c.bottom - b.bottom;
  }
}

// The endgame tables' value of the current position and of each of its moves, best first;
// the moves of the selected piece are marked.
function renderTables() {
  const g = ui.game;
  const box = $('tables');
  const t = g && ui.view === g.ply && !g.outcome ? g.tables : null;
  box.hidden = !t;
  if (!t) return;
  $('tables-value').textContent = `Endgame tables: ${tableText(t.value, g.turn)}.`;
  const list = $('tables-moves');
  list.textContent = '';
  const from = ui.sel ? ui.sel.from : null;
  for (const tm of t.moves) {
    const legal = g.legal.find((m) => m.move === tm.move);
    const li = document.createElement('li');
    li.className = `tb-${tm.value.split(' ')[0]}` + (legal && legal.from === from ? ' sel' : '');
    const code = document.createElement('code');
    code.textContent = tm.move;
    const val = document.createElement('span');
    val.textContent = tm.value;
    li.append(code, ' ', val);
    li.title = `After ${tm.move}: ${tableText(tm.value, g.turn)}`;
    list.appendChild(li);
  }
}

function renderEval() {
  const g = ui.game;
  const bar = $('evalbar');
  const show = g && ui.search && ($('chk-eval').checked || ui.hintFor === g.ply);
  bar.hidden = !show;
  if (!show) return;
  const sc = blackScore(ui.search.search);
  let frac = Number.isFinite(sc.value) ? 1 / (1 + Math.exp(-sc.value / 250)) : sc.value > 0 ? 1 : 0;
  if (ui.flipped) frac = 1 - frac;
  const fill = $('evalfill');
  fill.style.height = `${(frac * 100).toFixed(1)}%`;
  fill.style.background = ui.flipped ? '#fbf6ea' : '#222';
  bar.style.background = ui.flipped ? '#222' : '#fbf6ea';
  $('evaltext').textContent = sc.short || sc.text;
  bar.title = `Evaluation for Black: ${sc.text}`;
}

function renderHint() {
  const g = ui.game;
  const box = $('hint');
  if (!g || !ui.search || ui.hintFor !== g.ply) {
    if (!ui.busy) box.hidden = true;
    return;
  }
  const r = ui.search.search;
  const sc = blackScore(r);
  box.hidden = false;
  box.innerHTML = '';
  const best = document.createElement('div');
  best.innerHTML = 'Best move: <code></code> ';
  best.querySelector('code').textContent = r.best || '\u2014';
  const line = document.createElement('div');
  line.textContent = `Expected line: ${r.pv.join(' ') || '\u2014'}`;
  const meta = document.createElement('div');
  meta.textContent = sc.plain
    ? `From the endgame tables: ${sc.plain}`
    : `Evaluation for Black ${sc.text} \u00b7 depth ${r.depth} \u00b7 ${r.nodes.toLocaleString()} nodes`;
  box.append(best, line, meta);
}

function renderInfo() {
  const g = ui.game;
  const info = $('info');
  info.textContent = '';
  if (!g) return;
  const add = (html) => {
    const d = document.createElement('div');
    d.innerHTML = html;
    info.appendChild(d);
    return d;
  };
  add('Rules: <code></code>').querySelector('code').textContent = g.rules;
  if (g.rolls.length) {
    const last = g.rolls[g.rolls.length - 1];
    const starter = last.black > last.white ? 'Black' : 'White';
    const all = g.rolls.map((r) => `Black ${DICE[r.black]} ${r.black}, White ${DICE[r.white]} ${r.white}`).join('; then ');
    add(`Die roll: <span class="dice-text"></span>`).querySelector('.dice-text').textContent = `${all} \u2014 ${starter} starts.`;
  }
  const link = add('Game address: <a></a>').querySelector('a');
  link.href = g.url;
  link.textContent = location.origin + g.url;
  if (!owner()) add('You are watching this game; only the browser that started it can play.');
  add('Position: <code></code>').querySelector('code').textContent = ui.view === g.ply ? g.position : g.history[ui.view - 1] ? g.history[ui.view - 1].position : g.start;
}

function renderPanel() {
  const g = ui.game;
  renderPlayers();
  renderStatus();
  renderTables();
  renderMoves();
  renderEval();
  renderHint();
  renderInfo();
  renderEngineTrouble();
  const has = !!g;
  $('nav-first').disabled = !has || ui.view === 0;
  $('nav-prev').disabled = !has || ui.view === 0;
  $('nav-next').disabled = !has || ui.view >= g.ply;
  $('nav-last').disabled = !has || ui.view >= g.ply;
  $('btn-undo').disabled = !has || !owner() || ui.busy || g.thinking || takeBackCount() === 0;
  $('btn-hint').disabled = !has || !owner() || ui.busy || g.thinking || !!g.outcome || ui.view !== g.ply;
  $('btn-download').disabled = !has;
  $('btn-flip').disabled = !has;
}

let toastTimer = null;
function toast(message, error) {
  const t = $('toast');
  t.textContent = message;
  t.className = error ? 'toast error' : 'toast';
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, error ? 6000 : 4000);
}

// ---------------------------------------------------------------------------------------
// New game

function formValue(name) {
  const f = $('form-new');
  return f.elements[name].value;
}

function buildOptions(setName) {
  const box = $('options');
  box.textContent = '';
  const set = ui.meta.rule_sets.find((r) => r.name === setName);
  for (const { key, values } of ui.meta.option_keys) {
    const label = document.createElement('label');
    label.htmlFor = `opt-${key}`;
    label.innerHTML = '<code></code>';
    label.firstChild.textContent = key;
    let input;
    if (values === 'N|off') {
      input = document.createElement('input');
      input.type = 'text';
      input.size = 6;
      input.pattern = '[0-9]+|off';
      input.value = set.options[key];
    } else {
      input = document.createElement('select');
      for (const v of values.split('|')) {
        const o = document.createElement('option');
        o.value = o.textContent = v;
        input.appendChild(o);
      }
      input.value = set.options[key];
    }
    input.id = `opt-${key}`;
    input.dataset.key = key;
    input.dataset.base = set.options[key];
    box.append(label, input);
  }
}

function updateNewForm() {
  const engine = formValue('opponent') === 'engine';
  for (const e of document.querySelectorAll('.engine-only')) e.hidden = !engine;
  $('first-me').textContent = engine ? 'You' : 'Black';
  $('first-other').textContent = engine ? 'The engine' : 'White';
  $('level-out').textContent = formValue('level');
  $('starts-box').hidden = $('source').value.trim() !== '';
}

function openNewDialog(load) {
  $('new-error').hidden = true;
  $('dlg-title').textContent = load ? 'Load a game' : 'New game';
  $('more').open = !!load || $('more').open;
  updateNewForm();
  const dlg = $('dlg-new');
  if (!dlg.open) dlg.showModal();
  if (load) $('source').focus();
}

async function startGame(evt) {
  evt.preventDefault();
  const engine = formValue('opponent') === 'engine';
  const me = formValue('colour');
  const other = me === 'black' ? 'white' : 'black';
  const level = parseInt(formValue('level'), 10);
  const req = { rules: formValue('ruleset'), options: {} };
  for (const input of $('options').querySelectorAll('[data-key]')) {
    if (input.value !== input.dataset.base) req.options[input.dataset.key] = input.value.trim();
  }
  if (engine) {
    req[me] = { kind: 'human' };
    req[other] = { kind: 'engine', level };
  } else {
    req.black = { kind: 'human' };
    req.white = { kind: 'human' };
  }
  const source = $('source').value.trim();
  if (source) {
    if (source.startsWith('[') || /\d\.\s/.test(source)) req.record = source;
    else req.position = source;
  } else {
    const first = formValue('first');
    if (first === 'roll') req.first = 'roll';
    else if (engine) req.first = first === 'me' ? me : other;
    else req.first = first === 'me' ? 'black' : 'white';
  }
  try {
    const res = await api('POST', '/api/games', req);
    localStorage.setItem(TOKEN_KEY(res.id), res.token);
    localStorage.setItem(LAST_KEY, res.id);
    $('dlg-new').close();
    $('source').value = '';
    history.pushState({ id: res.id }, '', res.url);
    ui.token = res.token;
    ui.game = null;
    ui.search = null;
    ui.sel = null;
    ui.echo = null;
    ui.engineTrouble = null;
    ui.hintFor = -1;
    setGame(res.state);
    watchGame(res.id);
    ui.flipped = engine && me === 'white';
    if (res.state.rolls.length) {
      const r = res.state.rolls[res.state.rolls.length - 1];
      const starter = r.black > r.white ? 'Black' : 'White';
      toast(`Die roll: Black ${DICE[r.black]} ${r.black}, White ${DICE[r.white]} ${r.white} \u2014 ${starter} starts`);
    }
    render();
    maybeEngine();
  } catch (e) {
    $('new-error').textContent = e.message;
    $('new-error').hidden = false;
  }
}

// ---------------------------------------------------------------------------------------
// Start

function gameIdFromUrl() {
  const m = location.pathname.match(/^\/game\/([a-z0-9]+)$/);
  return m ? m[1] : null;
}

async function init() {
  const svg = $('board');
  svg.addEventListener('pointerdown', onPointerDown);
  svg.addEventListener('pointermove', onPointerMove);
  svg.addEventListener('pointerup', onPointerUp);
  svg.addEventListener('pointercancel', () => { ui.drag = null; render(); });
  $('btn-new').onclick = () => openNewDialog(false);
  $('btn-load').onclick = () => openNewDialog(true);
  $('new-cancel').onclick = () => $('dlg-new').close();
  $('form-new').addEventListener('submit', startGame);
  $('form-new').addEventListener('input', updateNewForm);
  $('ruleset').addEventListener('change', () => buildOptions($('ruleset').value));
  $('source-file').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (f) { $('source').value = (await f.text()).slice(0, 60000); updateNewForm(); }
  });
  $('nav-first').onclick = () => { ui.view = 0; ui.sel = null; render(); };
  $('nav-prev').onclick = () => { if (ui.view > 0) ui.view--; ui.sel = null; render(); };
  $('nav-next').onclick = () => { if (ui.game && ui.view < ui.game.ply) ui.view++; render(); };
  $('nav-last').onclick = () => { if (ui.game) ui.view = ui.game.ply; render(); };
  $('btn-undo').onclick = takeBack;
  $('btn-engine-retry').onclick = askEngineAgain;
  $('btn-hint').onclick = askHint;
  $('btn-flip').onclick = () => { ui.flipped = !ui.flipped; render(); };
  $('btn-download').onclick = download;
  $('chk-eval').checked = localStorage.getItem('kharbaga:eval') === '1';
  $('chk-eval').onchange = () => { localStorage.setItem('kharbaga:eval', $('chk-eval').checked ? '1' : '0'); render(); };
  document.addEventListener('keydown', (e) => {
    if (!ui.game || $('dlg-new').open || e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') $('nav-prev').click();
    else if (e.key === 'ArrowRight') $('nav-next').click();
    else if (e.key === 'Home') $('nav-first').click();
    else if (e.key === 'End') $('nav-last').click();
    else if (e.key === 'Escape' && ui.sel) { ui.sel = null; render(); }
  });
  window.addEventListener('popstate', () => {
    const id = gameIdFromUrl();
    if (id) openGame(id);
  });

  render();
  try {
    ui.meta = await api('GET', '/api/meta');
  } catch (e) {
    toast(e.message, true);
    return;
  }
  const sel = $('ruleset');
  for (const r of ui.meta.rule_sets) {
    const o = document.createElement('option');
    o.value = o.textContent = r.name;
    sel.appendChild(o);
  }
  buildOptions(sel.value);
  const id = gameIdFromUrl();
  const last = localStorage.getItem(LAST_KEY);
  if (id) {
    await openGame(id);
  } else if (last && localStorage.getItem(TOKEN_KEY(last))) {
    history.replaceState({ id: last }, '', `/game/${last}`);
    await openGame(last);
  } else {
    openNewDialog(false);
  }
}

init();
