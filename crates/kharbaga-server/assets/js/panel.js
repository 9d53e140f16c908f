// Everything around the board: the players, the status line, the move list, the endgame
// tables' values, the evaluation bar, the hint, the game's details and the buttons.

import { $, ui } from './state.js';
import { player, owner, vsEngine, isEngine } from './sides.js';
import { blackScore, tableText, cap } from './scores.js';
import { takeBackCount } from './game.js';
import { renderEngineTrouble } from './engine.js';
import { render } from './board.js';

export const DICE = ['', '\u2680', '\u2681', '\u2682', '\u2683', '\u2684', '\u2685'];

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

export function renderPanel() {
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
