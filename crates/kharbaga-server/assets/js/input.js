// Move entry: selecting a piece and its landing points by clicking or dragging on the
// board, and sending the move when only one fits.

import { $, ui } from './state.js';
import { ALL_POINTS, toScreen } from './geometry.js';
import { api } from './api.js';
import { canMove } from './sides.js';
import { refresh, setGame } from './game.js';
import { render } from './board.js';
import { toast } from './toast.js';
import { maybeEngine } from './engine.js';

// How soon after the click before it a click on the next point of a capture already sent
// finishes that capture (rather than starting something new), in ms.
const ECHO_MS = 3000;

export function candidatesFrom(from) {
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

export function targets() {
  if (!ui.sel) return [];
  const n = ui.sel.partial.length;
  const set = new Set();
  for (const c of ui.sel.cands) if (c.path.length > n) set.add(c.path[n]);
  return [...set];
}

export function currentSquare() {
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

export function onPointerDown(evt) {
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

export function onPointerMove(evt) {
  const d = ui.drag;
  if (!d || evt.pointerId !== d.pointerId) return;
  const { x, y } = pointerPoint(evt);
  if (!d.moved && (x - d.sx) ** 2 + (y - d.sy) ** 2 < 36) return;
  d.moved = true;
  d.x = x;
  d.y = y;
  render();
}

export function onPointerUp(evt) {
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
