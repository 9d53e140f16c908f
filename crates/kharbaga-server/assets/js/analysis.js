// Analysis after a game: step through it (the move list, the arrows) and see, for each
// position, the engine's evaluation and best line, and the endgame tables' value where they
// cover it (POST /api/games/<id>/analysis, docs/api.md). Each position is analysed once:
// the one shown first, then the others, and a graph shows the evaluation through the game.

import { $, ui } from './state.js';
import { api } from './api.js';
import { t, side } from './i18n.js';
import { blackScore, tableText } from './scores.js';
import { parsePosition } from './geometry.js';
import { render, el } from './board.js';

// How long the engine looks at each position, in ms.
const ANALYSIS_MS = 500;

const analysis = {
  on: false,
  id: null, // the game analysed
  results: new Map(), // key(ply) -> the server's answer, or {error}
  pending: null, // the ply being analysed
};

/** Whether the game shown can be analysed: it is over. */
export function canAnalyse() {
  return !!(ui.game && ui.game.outcome);
}

/** Whether the analysis is shown. */
export function analysing() {
  return analysis.on && canAnalyse() && analysis.id === ui.game.id;
}

/** Shows or hides the analysis of the game shown. */
export function toggleAnalysis() {
  if (!canAnalyse()) return;
  if (analysis.id !== ui.game.id) {
    analysis.id = ui.game.id;
    analysis.results = new Map();
    analysis.pending = null;
    analysis.on = false;
  }
  analysis.on = !analysis.on;
  // Positions whose analysis failed (a busy server) are asked for again.
  for (const [k, r] of analysis.results) if (r.error) analysis.results.delete(k);
  render();
}

// The key of the position after `ply` moves: its number and the position itself, so that
// the analysis of a game taken back and played on differently is not mixed up.
function key(ply) {
  const g = ui.game;
  return `${ply} ${ply === 0 ? g.start : g.history[ply - 1].position}`;
}

// The analysis of the position after `ply` moves, if it has come.
function resultAt(ply) {
  return analysis.results.get(key(ply));
}

// The next position to analyse: the one shown, else the nearest one not analysed yet (so
// the whole game's graph fills in while the player looks around), or null when all are.
function nextPly() {
  const last = ui.game.ply;
  for (let d = 0; d <= last; d++) {
    for (const ply of [ui.view - d, ui.view + d]) {
      if (ply >= 0 && ply <= last && !analysis.results.has(key(ply))) return ply;
    }
  }
  return null;
}

// Asks for the analysis of the next position without one (one request at a time; the
// answer asks for the next).
async function fetchNext() {
  if (!analysing() || analysis.pending !== null) return;
  const ply = nextPly();
  if (ply === null) return;
  const id = analysis.id;
  const k = key(ply);
  analysis.pending = ply;
  let result;
  try {
    result = await api('POST', `/api/games/${id}/analysis`, { ply, movetime_ms: ANALYSIS_MS });
  } catch (e) {
    result = { error: e.message };
  }
  if (analysis.id !== id) return;
  analysis.pending = null;
  // Kept under the position the server analysed (the game may have changed meanwhile).
  analysis.results.set(result.error ? k : `${result.ply} ${result.position}`, result);
  render();
}

// Black's share of the position after `ply` moves (1 won, 0 lost, 0.5 even), or null if
// it is not analysed.
function blackShare(ply) {
  const r = resultAt(ply);
  if (!r || r.error) return null;
  if (!r.search) {
    const w = ui.game.outcome && ply === ui.game.ply ? ui.game.outcome.winner : null;
    return w === 'black' ? 1 : w === 'white' ? 0 : 0.5;
  }
  const sc = blackScore(r.search);
  return Number.isFinite(sc.value) ? 1 / (1 + Math.exp(-sc.value / 250)) : sc.value > 0 ? 1 : 0;
}

const GRAPH_W = 300;
const GRAPH_H = 56;

// The evaluation through the game: Black's share as the area below the line, the
// position shown marked; a click goes to that position.
function renderGraph() {
  const svg = $('analysis-graph');
  svg.textContent = '';
  const last = Math.max(ui.game.ply, 1);
  const x = (ply) => (ply / last) * GRAPH_W;
  el('rect', { x: 0, y: 0, width: GRAPH_W, height: GRAPH_H, class: 'graph-white' }, svg);
  const points = [];
  for (let ply = 0; ply <= ui.game.ply; ply++) {
    const share = blackShare(ply);
    if (share !== null) points.push([x(ply), GRAPH_H * (1 - share)]);
  }
  if (points.length) {
    const line = points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(' L');
    const first = points[0][0].toFixed(1);
    const end = points[points.length - 1][0].toFixed(1);
    el('path', { d: `M${first},${GRAPH_H} L${line} L${end},${GRAPH_H} Z`, class: 'graph-black' }, svg);
  }
  el('line', { x1: 0, y1: GRAPH_H / 2, x2: GRAPH_W, y2: GRAPH_H / 2, class: 'graph-mid' }, svg);
  el('line', { x1: x(ui.view), y1: 0, x2: x(ui.view), y2: GRAPH_H, class: 'graph-now' }, svg);
  svg.dataset.analysed = String(points.length);
}

/** Goes to the position under a click on the graph. */
export function onGraphClick(evt) {
  if (!analysing()) return;
  const box = $('analysis-graph').getBoundingClientRect();
  const share = Math.min(1, Math.max(0, (evt.clientX - box.left) / box.width));
  ui.view = Math.round(share * ui.game.ply);
  ui.sel = null;
  render();
}

/** The analysis of the position shown, once it has come. */
export function shownAnalysis() {
  if (!analysing()) return null;
  const r = resultAt(ui.view);
  return r && !r.error ? r : null;
}

/** The points of the best move in the position shown, to draw, or null. */
export function bestMovePoints() {
  const r = shownAnalysis();
  if (!r || !r.search || !r.search.best) return null;
  return r.search.best.split(/[-x]/);
}

function line(label, value, tag) {
  const d = document.createElement('div');
  const v = document.createElement(tag || 'span');
  v.textContent = value;
  d.append(label, ' ', v);
  return d;
}

/** The analysis box: where in the game, and what the engine and the tables say. */
export function renderAnalysis() {
  const g = ui.game;
  $('btn-analyse').hidden = !canAnalyse();
  $('btn-analyse').textContent = t(analysing() ? 'action.analyse.stop' : 'action.analyse');
  $('btn-analyse').setAttribute('aria-pressed', analysing() ? 'true' : 'false');
  const box = $('analysis');
  box.hidden = !analysing();
  if (!analysing()) return;
  const last = ui.view > 0 ? g.history[ui.view - 1] : null;
  $('analysis-where').textContent = last
    ? t('analysis.after', { n: ui.view, side: side(last.color), move: last.move })
    : t('analysis.start');
  const body = $('analysis-body');
  body.textContent = '';
  const r = resultAt(ui.view);
  if (!r) {
    body.append(t('analysis.thinking'));
    body.className = 'analysis-body thinking';
    renderGraph();
    fetchNext();
    return;
  }
  body.className = 'analysis-body';
  if (r.error) {
    body.append(t('analysis.failed', { error: r.error }));
    renderGraph();
    return;
  }
  const mover = parsePosition(r.position).turn;
  if (r.search) {
    const sc = blackScore(r.search);
    body.append(line(t('analysis.eval'), sc.text, 'strong'));
    body.append(line(t('hint.best'), r.search.best || '\u2014', 'code'));
    body.append(line(t('analysis.line'), r.search.pv.join(' ') || '\u2014', 'code'));
    body.lastChild.lastChild.dir = 'ltr';
  } else {
    body.append(t('analysis.over'));
  }
  if (r.tables) body.append(line(t('analysis.tables'), tableText(r.tables.value, mover), 'strong'));
  body.dataset.ply = r.ply;
  body.dataset.position = r.position;
  renderGraph();
  fetchNext();
}
