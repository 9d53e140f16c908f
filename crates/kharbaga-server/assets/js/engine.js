// The engine's move, tried again after a network error, with a message and a button to ask
// again when it cannot be had.

import { $, ui } from './state.js';
import { api } from './api.js';
import { owner, isEngine } from './sides.js';
import { refresh, setGame } from './game.js';
import { render } from './board.js';
import { t } from './i18n.js';

// The waits before each new try of the engine's move after a network error, in ms.
const ENGINE_RETRY_WAITS = [1000, 3000];

// Asks the engine to move when it is its turn in the owner's game. A search under way (the
// game's `thinking`) sends its move through the stream.
export function maybeEngine() {
  const g = ui.game;
  if (!g || !owner() || g.outcome || ui.busy || g.thinking) return;
  if (isEngine(g.turn)) engineMove();
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// An error without a status: the server gave no answer (the network failed).
function networkError(e) {
  return !e.status;
}

// The game as the server has it now, or null.
async function fetchGame(id) {
  try {
    return await api('GET', `/api/games/${id}`);
  } catch (e) {
    return null;
  }
}

// Why the engine's move did not come, in words.
function troubleText(e) {
  if (networkError(e)) {
    return t('engine.unreachable', { error: e.cause ? e.cause.message : e.message });
  }
  return t('engine.failed', { error: e.message });
}

// Asks the engine for its move. After a network error it looks at the game (the move may
// have been made, or the engine may be thinking still) and asks again, a few times; then it
// says what went wrong and shows a button to ask again.
async function engineMove() {
  const g = ui.game;
  const ply = g.ply;
  const same = () => ui.game && ui.game.id === g.id;
  ui.busy = true;
  ui.engineTrouble = null;
  g.thinking = true;
  render();
  let failure = null;
  try {
    for (let tries = 0; ; tries++) {
      try {
        const res = await api('POST', `/api/games/${g.id}/engine`, { ply });
        if (!same()) return;
        ui.search = { ply: res.state.ply - 1, search: res.search };
        setGame(res.state);
        return;
      } catch (e) {
        if (!same()) return;
        if (e.code === 'thinking' || e.code === 'stale') {
          await refresh();
          return;
        }
        if (!networkError(e) || tries >= ENGINE_RETRY_WAITS.length) {
          failure = e;
          return;
        }
      }
      ui.engineTrouble = { ply, retrying: true, text: t('engine.retrying') };
      ui.game.thinking = false;
      render();
      await sleep(ENGINE_RETRY_WAITS[tries]);
      const now = await fetchGame(g.id);
      if (!same()) return;
      if (now) {
        setGame(now);
        // Moved, thinking (its move will come through the stream), or no longer its turn.
        if (now.ply !== ply || now.thinking || now.outcome || !isEngine(now.turn)) return;
      }
    }
  } finally {
    if (same()) {
      ui.engineTrouble = failure ? { ply, text: troubleText(failure) } : null;
      if (failure) ui.game.thinking = false;
    }
    ui.busy = false;
    render();
    if (failure && !$('engine-trouble').hidden) $('engine-trouble').scrollIntoView({ block: 'nearest' });
  }
}

// The message when the engine's move could not be had, with its button.
export function renderEngineTrouble() {
  const trouble = ui.engineTrouble;
  const g = ui.game;
  const show = !!(trouble && g && owner() && g.ply === trouble.ply && !g.outcome && !g.thinking && isEngine(g.turn));
  $('engine-trouble').hidden = !show;
  if (!show) return;
  $('engine-trouble-text').textContent = trouble.text;
  $('btn-engine-retry').hidden = !!trouble.retrying;
}

export function askEngineAgain() {
  const g = ui.game;
  if (!g || !owner() || ui.busy || g.outcome || !isEngine(g.turn)) return;
  engineMove();
}
