// The game shown: opening it, taking its states from the server, and the owner's actions
// on it (take back, hint, download).

import { $, ui, TOKEN_KEY, SIDE_KEY, LAST_KEY } from './state.js';
import { api } from './api.js';
import { isEngine, owner, vsEngine, mySide } from './sides.js';
import { candidatesFrom } from './input.js';
import { render } from './board.js';
import { toast } from './toast.js';
import { watchGame } from './live.js';
import { maybeEngine } from './engine.js';
import { openNewDialog } from './newgame.js';
import { t } from './i18n.js';

export async function refresh() {
  try {
    setGame(await api('GET', `/api/games/${ui.game.id}`));
  } catch (e) {
    toast(e.message, true);
  }
  render();
}

export async function askHint() {
  const g = ui.game;
  if (!g || !owner() || g.outcome) return;
  ui.busy = true;
  $('hint').hidden = false;
  $('hint').textContent = t('hint.thinking');
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

export function setGame(state) {
  const follow = !ui.game || ui.game.id !== state.id || ui.view >= ui.game.ply;
  ui.game = state;
  if (follow || ui.view > state.ply) ui.view = state.ply;
  if (ui.sel && !candidatesFrom(ui.sel.from).length) ui.sel = null;
}

export async function openGame(id) {
  ui.token = localStorage.getItem(TOKEN_KEY(id));
  ui.side = ui.token && localStorage.getItem(SIDE_KEY(id));
  try {
    const state = await api('GET', `/api/games/${id}`);
    ui.game = null;
    ui.search = null;
    ui.sel = null;
    ui.echo = null;
    ui.engineTrouble = null;
    setGame(state);
    watchGame(id);
    ui.flipped = mySide() === 'white';
    if (owner()) localStorage.setItem(LAST_KEY, id);
    render();
    maybeEngine();
  } catch (e) {
    toast(e.message, true);
    render();
    openNewDialog();
  }
}

export function takeBackCount() {
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

export async function takeBack() {
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

export function download() {
  const g = ui.game;
  if (!g) return;
  const a = document.createElement('a');
  a.href = `/api/games/${g.id}/record`;
  a.download = `kharbaga-${g.id}.pdn`;
  document.body.appendChild(a);
  a.click();
  a.remove();
}
