// Everything around the board: the status line, the move list, the endgame tables'
// values, the evaluation bar, the hint, the game's details and the buttons.

import { $, ui } from './state.js';
import { owner, isEngine, canMove } from './sides.js';
import { blackScore, tableText, outcomeText, rollsText } from './scores.js';
import { t, side } from './i18n.js';
import { takeBackCount } from './game.js';
import { renderEngineTrouble } from './engine.js';
import { renderPlayers } from './players.js';
import { beadColor } from './look.js';
import { render } from './board.js';
import { renderAnalysis, shownAnalysis } from './analysis.js';
import { renderPeople } from './people.js';

// The window's title says when it is the player's move, for a page in another tab.
function renderTitle() {
  document.title = ui.game && canMove() ? t('page.title.your-move') : t('page.title');
}

function renderStatus() {
  const g = ui.game;
  const st = $('status');
  st.className = 'status';
  if (!g) { st.textContent = t('status.none'); return; }
  if (g.outcome && ui.view === g.ply) {
    st.classList.add('result');
    st.textContent = `${outcomeText(g)} (${g.outcome.result})`;
  } else if (g.thinking) {
    st.classList.add('thinking');
    st.textContent = t('status.thinking');
  } else if (ui.view !== g.ply) {
    st.textContent = t('status.past', { n: ui.view, total: g.ply });
  } else {
    let text = t('status.to-move', { side: side(g.turn) });
    if (!owner()) text = t('status.watching', { text });
    else if (isEngine(g.turn)) text = t('status.engine', { text });
    if (g.must_capture && owner() && !isEngine(g.turn)) text = t('status.must-capture', { text });
    st.textContent = t('status.end', { text });
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
    td.textContent = g ? t('moves.none') : '';
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
    td.title = `${side(h.color)}: ${h.move}`;
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
  const tb = g && ui.view === g.ply && !g.outcome ? g.tables : null;
  box.hidden = !tb;
  if (!tb) return;
  $('tables-value').textContent = t('tables.value', { text: tableText(tb.value, g.turn) });
  const list = $('tables-moves');
  list.textContent = '';
  const from = ui.sel ? ui.sel.from : null;
  for (const tm of tb.moves) {
    const legal = g.legal.find((m) => m.move === tm.move);
    const li = document.createElement('li');
    li.className = `tb-${tm.value.split(' ')[0]}` + (legal && legal.from === from ? ' sel' : '');
    const code = document.createElement('code');
    code.textContent = tm.move;
    const val = document.createElement('span');
    val.textContent = tm.value;
    li.append(code, ' ', val);
    li.title = t('tables.after', { move: tm.move, text: tableText(tm.value, g.turn) });
    list.appendChild(li);
  }
}

function renderEval() {
  const g = ui.game;
  const bar = $('evalbar');
  const analysed = shownAnalysis();
  const search = analysed ? analysed.search : ui.search && ui.search.search;
  const show = g && search && (analysed || $('chk-eval').checked || ui.hintFor === g.ply);
  bar.hidden = !show;
  if (!show) return;
  const sc = blackScore(search);
  let frac = Number.isFinite(sc.value) ? 1 / (1 + Math.exp(-sc.value / 250)) : sc.value > 0 ? 1 : 0;
  if (ui.flipped) frac = 1 - frac;
  const fill = $('evalfill');
  fill.style.height = `${(frac * 100).toFixed(1)}%`;
  fill.style.background = beadColor(ui.flipped ? 'white' : 'black');
  bar.style.background = beadColor(ui.flipped ? 'black' : 'white');
  $('evaltext').textContent = sc.short || sc.text;
  bar.title = t('eval.for-black', { text: sc.text });
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
  const line = document.createElement('div');
  line.textContent = t('hint.line', { line: r.pv.join(' ') || '\u2014' });
  const meta = document.createElement('div');
  meta.textContent = sc.plain
    ? t('hint.tables', { text: sc.plain })
    : r.book
      ? t('hint.book', { text: sc.text })
      : t('hint.eval', { text: sc.text, depth: r.depth, nodes: r.nodes.toLocaleString() });
  box.append(labelled('hint.best', r.best || '\u2014', 'code'), line, meta);
}

// A line of text: the label `key`, then `value` in an element `tag` (code, a, span).
function labelled(key, value, tag) {
  const d = document.createElement('div');
  const v = document.createElement(tag);
  v.textContent = value;
  d.append(t(key), ' ', v);
  return d;
}

function renderInfo() {
  const g = ui.game;
  const info = $('info');
  info.textContent = '';
  if (!g) return;
  info.append(labelled('info.rules', g.rules, 'code'));
  if (g.rolls.length) info.append(labelled('info.roll', rollsText(g.rolls), 'span'));
  const address = labelled('info.address', location.origin + g.url, 'a');
  address.querySelector('a').href = g.url;
  info.append(address);
  if (!owner()) {
    const d = document.createElement('div');
    d.textContent = t('info.watching');
    info.append(d);
  }
  if (ui.search && ui.search.search.book && ui.search.ply === g.ply - 1 && ui.hintFor !== g.ply) {
    const d = document.createElement('div');
    d.id = 'book-note';
    d.textContent = t('info.book', { move: ui.search.search.best });
    info.append(d);
  }
  const shown = ui.view === g.ply ? g.position : g.history[ui.view - 1] ? g.history[ui.view - 1].position : g.start;
  const position = labelled('info.position', shown, 'code');
  position.querySelector('code').dir = 'ltr';
  info.append(position);
}

export function renderPanel() {
  const g = ui.game;
  renderPlayers();
  renderStatus();
  renderTitle();
  renderTables();
  renderMoves();
  renderEval();
  renderHint();
  renderInfo();
  renderEngineTrouble();
  renderAnalysis();
  const has = !!g;
  $('nav-first').disabled = !has || ui.view === 0;
  $('nav-prev').disabled = !has || ui.view === 0;
  $('nav-next').disabled = !has || ui.view >= g.ply;
  $('nav-last').disabled = !has || ui.view >= g.ply;
  $('btn-undo').disabled = !has || !owner() || ui.busy || g.thinking || takeBackCount() === 0;
  $('btn-hint').disabled = !has || !owner() || ui.busy || g.thinking || !!g.outcome || ui.view !== g.ply;
  $('btn-download').disabled = !has;
  $('btn-flip').disabled = !has;
  renderPeople();
}
