// Games against a person elsewhere (docs/api.md): taking the seat of an invitation link,
// the link to send with its copy button, the clocks counted down from the server's figures,
// and the players' buttons: resign, offer a draw, accept or decline one, abort before the
// second move, rematch with the colours swapped.

import { $, ui, TOKEN_KEY, SIDE_KEY, LAST_KEY } from './state.js';
import { api } from './api.js';
import { setGame, openGame } from './game.js';
import { render } from './board.js';
import { toast } from './toast.js';
import { t, side } from './i18n.js';

const INVITE_KEY = (id) => `kharbaga:invite:${id}`;

const other = (color) => (color === 'black' ? 'white' : 'black');

// Remembers this browser's seat in a game: its token, the side it plays against a person
// elsewhere, and the invitation link to send (the creator's only).
export function rememberSeat(id, token, side, inviteUrl) {
  localStorage.setItem(TOKEN_KEY(id), token);
  if (side) localStorage.setItem(SIDE_KEY(id), side);
  localStorage.setItem(LAST_KEY, id);
  if (inviteUrl) localStorage.setItem(INVITE_KEY(id), inviteUrl);
}

// Opened by an invitation link (`/game/<id>#join=<secret>`): takes the seat, unless this
// browser has one in the game already. The secret leaves the address bar either way.
export async function joinFromLink(id) {
  const m = location.hash.match(/^#join=([0-9a-f]+)$/);
  if (!m) return;
  history.replaceState(history.state, '', location.pathname);
  if (localStorage.getItem(TOKEN_KEY(id))) return;
  try {
    const res = await api('POST', `/api/games/${id}/join`, { invite: m[1] });
    rememberSeat(id, res.token, res.side);
    toast(t('people.joined', { side: side(res.side) }));
  } catch (e) {
    toast(e.code === 'seat_taken' ? t('people.taken') : t('people.join-failed', { error: e.message }), true);
  }
}

// A clock reading: minutes and seconds, with tenths under ten seconds.
function clockText(ms) {
  const t = Math.max(0, Math.ceil(ms / 100));
  const s = Math.floor(t / 10);
  const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  return s < 10 ? `${text}.${t % 10}` : text;
}

// The state the clocks count down from, and when it came.
const clocks = { state: null, at: 0 };

// The clock slot of `color`'s player bar.
function clockOf(color) {
  return document.querySelector(`.player-bar .clock[data-color=${color}]`);
}

// Shows the time left on each clock: the server's figures, less the time since they came
// for the running one. The server ends the game when a clock runs out and says so.
function tick() {
  const g = ui.game;
  if (!g || !g.clock) return;
  if (clocks.state !== g) { clocks.state = g; clocks.at = performance.now(); }
  const spent = performance.now() - clocks.at;
  for (const color of ['black', 'white']) {
    const box = clockOf(color);
    if (!box) continue;
    const running = g.clock.running === color;
    const ms = Math.max(0, g.clock[`${color}_ms`] - (running ? spent : 0));
    box.textContent = clockText(ms);
    box.classList.toggle('running', running);
    box.classList.toggle('low', running && ms < 10000);
  }
}
setInterval(tick, 100);

// Shows the clocks in the player bars, in a game that has them.
function showClocks(g) {
  for (const box of document.querySelectorAll('.player-bar .clock')) {
    box.hidden = !g || !g.clock;
    if (!box.hidden) box.title = t('people.clock', { side: side(box.dataset.color), control: g.clock.control });
  }
  tick();
}

// What the players' box says: the invitation, an offer, how the game ended.
function note(g) {
  const mine = ui.side;
  if (g.status === 'waiting') {
    return mine ? t('people.send') : t('people.waiting', { side: side(g.person.side) });
  }
  if (g.status === 'aborted') return t('people.aborted');
  if (g.draw_offer && g.status === 'playing') {
    if (!mine) return t('people.offers', { side: side(g.draw_offer) });
    return g.draw_offer === mine ? t('people.offered') : t('people.opponent-offers');
  }
  if (g.rematch) return t('people.rematch-started');
  return '';
}

function show(id, on) {
  $(id).hidden = !on;
}

// Draws the players' box of a game against a person; sets the buttons that do not apply to
// such a game aside.
export function renderPeople() {
  const g = ui.game;
  showClocks(g);
  const box = $('people');
  box.hidden = !(g && g.person);
  if (box.hidden) return;
  const mine = owner() && ui.side;
  const playing = g.status === 'playing';
  const invite = localStorage.getItem(INVITE_KEY(g.id));
  show('invite', g.status === 'waiting' && mine && invite);
  if (invite) $('invite-link').value = location.origin + invite;
  const text = note(g);
  $('people-note').textContent = text;
  show('people-note', text !== '');
  const theirs = g.draw_offer && g.draw_offer !== ui.side;
  show('btn-resign', mine && playing);
  show('btn-draw', mine && playing && !g.draw_offer);
  show('btn-accept', mine && playing && theirs);
  show('btn-decline', mine && playing && theirs);
  show('btn-abort', mine && (playing || g.status === 'waiting') && g.ply < 2);
  show('btn-rematch', mine && (g.status === 'over' || g.status === 'aborted') && g.person.joined && !g.rematch);
  show('btn-to-rematch', !!g.rematch);
  for (const b of box.querySelectorAll('button')) b.disabled = ui.busy;
  box.hidden = [...box.querySelectorAll('.invite, .note, button')].every((e) => e.hidden);
  $('btn-resign').textContent = t(resigning.armed ? 'people.resign.confirm' : 'people.resign');
  // No take-backs, and no hints while the game goes on.
  $('btn-undo').disabled = true;
  if (playing || g.status === 'waiting') $('btn-hint').disabled = true;
  if (g.status === 'aborted') $('status').textContent = t('people.status.aborted');
  else if (g.status === 'waiting') $('status').textContent = t('people.waiting', { side: side(g.person.side) });
}

function owner() {
  return !!ui.token;
}

// Sends a player's request about the game shown; its answer is the new state.
async function act(path) {
  const g = ui.game;
  ui.busy = true;
  render();
  try {
    setGame(await api('POST', `/api/games/${g.id}/${path}`, {}));
  } catch (e) {
    toast(e.message, true);
  } finally {
    ui.busy = false;
    render();
  }
}

// Resigning takes a second click within a few seconds.
const resigning = { armed: false, timer: null };
function resign() {
  if (!resigning.armed) {
    resigning.armed = true;
    render();
    resigning.timer = setTimeout(() => { resigning.armed = false; render(); }, 4000);
    return;
  }
  clearTimeout(resigning.timer);
  resigning.armed = false;
  act('resign');
}

// Opens the rematch of the game shown, with this browser's seat in it (the same token,
// the other colour).
async function goToRematch(id) {
  const g = ui.game;
  if (ui.token && ui.side && !localStorage.getItem(TOKEN_KEY(id))) {
    rememberSeat(id, ui.token, other(ui.side));
  }
  history.pushState({ id }, '', `/game/${id}`);
  await openGame(id);
  if (g && ui.game && ui.game.id === id && ui.side) toast(t('people.rematch-side', { side: side(ui.side) }));
}

async function rematch() {
  const g = ui.game;
  ui.busy = true;
  render();
  try {
    const res = await api('POST', `/api/games/${g.id}/rematch`, {});
    ui.busy = false;
    await goToRematch(res.id);
  } catch (e) {
    ui.busy = false;
    toast(e.message, true);
    render();
  }
}

async function copyInvite() {
  const input = $('invite-link');
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (e) {
    // Without the clipboard API (a page not served over https or from localhost).
    input.select();
    if (!document.execCommand('copy')) {
      toast(t('people.copy-by-hand'), true);
      return;
    }
  }
  toast(t('people.copied'));
}

// Wires the box's buttons.
export function initPeople() {
  $('btn-copy-invite').onclick = copyInvite;
  $('invite-link').onfocus = (e) => e.target.select();
  $('btn-resign').onclick = resign;
  $('btn-draw').onclick = () => act('draw/offer');
  $('btn-accept').onclick = () => act('draw/accept');
  $('btn-decline').onclick = () => act('draw/decline');
  $('btn-abort').onclick = () => act('abort');
  $('btn-rematch').onclick = rematch;
  $('btn-to-rematch').onclick = () => goToRematch(ui.game.rematch);
}
