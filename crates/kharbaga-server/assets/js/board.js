// Drawing the board: its lines and points, the pieces of the position shown, the last
// move, the move being entered and the hint.

import { $, ui } from './state.js';
import { FILES, UNIT, LEFT, TOP, SIZE, RADIUS, toScreen, ALL_POINTS, between, parsePosition } from './geometry.js';
import { canMove } from './sides.js';
import { targets, currentSquare } from './input.js';
import { renderPanel } from './panel.js';
import { look, beads } from './look.js';
import { bestMovePoints } from './analysis.js';
import { t, side } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';

// An SVG element with these attributes, added to `parent` if given.
export function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function drawPiece(parent, x, y, piece, extraClass) {
  const g = el('g', { class: extraClass || '' }, parent);
  el('circle', { cx: x, cy: y, r: RADIUS, class: `pc-${piece.color}` }, g);
  el('circle', { cx: x, cy: y, r: RADIUS - 5, class: `ring-${piece.color}` }, g);
  if (piece.mullah && look.mark === 'letter') {
    el('text', { x, y, class: `mark-letter mark-${piece.color}` }, g).textContent = 'M';
  } else if (piece.mullah) {
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
  for (const color of ['black', 'white']) {
    const b = beads(color);
    const grad = el('radialGradient', { id: `g-${color}`, cx: '35%', cy: '30%', r: '75%' }, defs);
    el('stop', { offset: '0%', 'stop-color': b.light }, grad);
    el('stop', { offset: '100%', 'stop-color': b.dark }, grad);
  }
  svg.dataset.beads = `${look.black} ${look.white}`;
  el('rect', { x: 0, y: 0, width: SIZE, height: SIZE, rx: 10, class: 'board-bg' }, svg);
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

export function render() {
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
  // The analysis's best move.
  const best = bestMovePoints();
  if (best) pathLine(best, 'hintline', svg);

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
    for (const target of targets()) {
      const [tx, ty] = toScreen(target);
      if (capturing) el('circle', { cx: tx, cy: ty, r: 15, class: 'target-capture' }, svg).dataset.target = target;
      else el('circle', { cx: tx, cy: ty, r: 10, class: 'target' }, svg).dataset.target = target;
    }
  }
  if (dragFrom) {
    const piece = pos.pieces.get(s && s.from ? s.from : dragFrom);
    if (piece) drawPiece(svg, ui.drag.x, ui.drag.y, piece, 'dragging');
  }
  svg.setAttribute('aria-label', t('board.label', { side: side(pos.turn), position: g.position }));
}
