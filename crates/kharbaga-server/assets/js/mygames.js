// "My games": the games this browser started (it keeps their tokens in localStorage), each
// with its state as the server has it now; and whether leaving the page would leave one of
// them unfinished.

import { $, ui, TOKEN_KEY, SIDE_KEY, LAST_KEY } from './state.js';
import { api } from './api.js';
import { owner } from './sides.js';
import { t, side, language } from './i18n.js';
import { outcomeText } from './scores.js';
import { openGame } from './game.js';

const TOKEN_PREFIX = TOKEN_KEY('');

/** The ids of the games whose tokens this browser keeps. */
export function ownedGameIds() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key.startsWith(TOKEN_PREFIX)) ids.push(key.slice(TOKEN_PREFIX.length));
  }
  return ids;
}

/** Whether the game shown is this browser's and not over. */
export function unfinishedOwnGame() {
  return !!(ui.game && owner() && !finished(ui.game));
}

// Whether a game is over or was called off.
function finished(state) {
  return !!state.outcome || state.status === 'aborted';
}

// Forgets game `id`: this browser no longer plays it (the server keeps it). Everything the
// browser keeps about one game is under a key that ends with its id.
function forget(id) {
  const keys = [];
  for (let i = 0; i < localStorage.length; i++) keys.push(localStorage.key(i));
  for (const key of keys) if (key.startsWith('kharbaga:') && key.endsWith(`:${id}`)) localStorage.removeItem(key);
  if (localStorage.getItem(LAST_KEY) === id) localStorage.removeItem(LAST_KEY);
}

// The side this browser plays in a game against a person elsewhere, if it knows it.
function mySide(state) {
  return localStorage.getItem(SIDE_KEY(state.id));
}

// Who plays whom, from this browser's side.
function opponentText(state) {
  const { black, white } = state.players;
  if (black.kind === 'person' || white.kind === 'person') {
    const mine = mySide(state);
    return mine ? t('games.vs-person-as', { side: side(mine) }) : t('games.vs-person');
  }
  if (black.kind === 'engine' && white.kind !== 'engine') return t('games.vs-engine', { level: black.level, side: side('white') });
  if (white.kind === 'engine' && black.kind !== 'engine') return t('games.vs-engine', { level: white.level, side: side('black') });
  return t('games.two-players');
}

// Where the game stands: over (how), or who is to move.
function stateText(state) {
  if (state.outcome) return outcomeText(state);
  if (state.status === 'aborted') return t('games.aborted');
  if (state.status === 'waiting') return t('games.waiting');
  const mine = mySide(state);
  if (mine) return state.turn === mine ? t('games.your-move') : t('games.their-move');
  const mover = state.players[state.turn];
  if (mover.kind === 'engine') return t('games.engine-to-move');
  const other = state.players[state.turn === 'black' ? 'white' : 'black'];
  return other.kind === 'engine' ? t('games.your-move') : t('status.to-move', { side: side(state.turn) });
}

// '5 minutes ago', in the language shown.
function ago(seconds) {
  const rtf = new Intl.RelativeTimeFormat(language(), { numeric: 'auto' });
  const d = Math.round(Date.now() / 1000 - seconds);
  if (d < 60) return rtf.format(-d, 'second');
  if (d < 3600) return rtf.format(-Math.round(d / 60), 'minute');
  if (d < 86400) return rtf.format(-Math.round(d / 3600), 'hour');
  return rtf.format(-Math.round(d / 86400), 'day');
}

function cell(row, text, className) {
  const td = row.insertCell();
  if (className) td.className = className;
  td.textContent = text;
  return td;
}

// The list: the games found, the latest change first, then those the server no longer has
// or that could not be read ({id, text}).
function renderList(found, missing) {
  const box = $('games-list');
  box.textContent = '';
  if (!found.length && !missing.length) {
    const p = document.createElement('p');
    p.className = 'games-empty';
    p.textContent = t('games.none');
    box.append(p);
    return;
  }
  const table = document.createElement('table');
  table.className = 'games';
  const head = table.createTHead().insertRow();
  for (const key of ['games.game', 'games.opponent', 'games.moves', 'games.state', 'games.updated', '']) {
    const th = document.createElement('th');
    th.textContent = key ? t(key) : '';
    head.append(th);
  }
  const body = table.createTBody();
  found.sort((a, b) => b.updated - a.updated);
  for (const state of found) {
    const row = body.insertRow();
    row.dataset.id = state.id;
    row.className = finished(state) ? 'over' : 'playing';
    if (ui.game && ui.game.id === state.id) row.classList.add('shown');
    const link = document.createElement('a');
    link.href = state.url;
    link.textContent = state.id;
    link.addEventListener('click', (e) => {
      e.preventDefault();
      $('dlg-games').close();
      history.pushState({ id: state.id }, '', state.url);
      openGame(state.id);
    });
    row.insertCell().append(link);
    cell(row, opponentText(state));
    cell(row, String(state.ply), 'num').dataset.label = t('games.moves');
    cell(row, stateText(state), 'state');
    cell(row, ago(state.updated)).dataset.label = t('games.updated');
    row.insertCell().append(forgetButton(state.id, !finished(state)));
  }
  for (const { id, text } of missing) {
    const row = body.insertRow();
    row.dataset.id = id;
    row.className = 'missing';
    cell(row, id);
    cell(row, text).colSpan = 4;
    row.insertCell().append(forgetButton(id, false));
  }
  box.append(table);
}

function forgetButton(id, unfinished) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'forget';
  b.textContent = t('games.forget');
  b.title = t('games.forget.title');
  b.addEventListener('click', () => {
    if (unfinished && !window.confirm(t('games.forget.confirm'))) return;
    forget(id);
    b.closest('tr').remove();
  });
  return b;
}

/** Opens "My games", with each game's state fetched from the server. */
export async function openGamesDialog() {
  const box = $('games-list');
  box.textContent = t('games.loading');
  $('dlg-games').showModal();
  const ids = ownedGameIds();
  const found = [];
  const missing = [];
  await Promise.all(ids.map(async (id) => {
    try {
      found.push(await api('GET', `/api/games/${id}`));
    } catch (e) {
      missing.push({ id, text: e.status === 404 ? t('games.gone') : t('games.unreadable', { error: e.message }) });
    }
  }));
  renderList(found, missing);
}
