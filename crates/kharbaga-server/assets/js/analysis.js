// Analysis after a game: step through it (the move list, the arrows) and see, for each
// position, the engine's evaluation and best line, and the endgame tables' value where they
// cover it (POST /api/games/<id>/analysis, docs/api.md). Each position is analysed once.

import { $, ui } from './state.js';
import { api } from './api.js';
import { t, side } from './i18n.js';
import { blackScore, tableText } from './scores.js';
import { parsePosition } from './geometry.js';
import { render } from './board.js';

// How long the engine looks at each position, in ms.
const ANALYSIS_MS = 500;

const analysis = {
  on: false,
  id: null, // the game analysed
  results: new Map(), // ply -> the server's answer, or {error}
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
  render();
}

// Asks for the analysis of the position shown if it has none yet (one request at a time;
// the position shown when it comes is asked for next).
async function fetchShown() {
  if (!analysing() || analysis.pending !== null) return;
  const ply = ui.view;
  const id = analysis.id;
  if (analysis.results.has(ply)) return;
  analysis.pending = ply;
  let result;
  try {
    result = await api('POST', `/api/games/${id}/analysis`, { ply, movetime_ms: ANALYSIS_MS });
  } catch (e) {
    result = { error: e.message };
  }
  if (analysis.id !== id) return;
  analysis.pending = null;
  analysis.results.set(ply, result);
  render();
}

/** The analysis of the position shown, once it has come. */
export function shownAnalysis() {
  if (!analysing()) return null;
  const r = analysis.results.get(ui.view);
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
  const r = analysis.results.get(ui.view);
  if (!r) {
    body.append(t('analysis.thinking'));
    body.className = 'analysis-body thinking';
    fetchShown();
    return;
  }
  body.className = 'analysis-body';
  if (r.error) {
    body.append(t('analysis.failed', { error: r.error }));
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
}
