// The page's live side: the game's states as the server sends them (Server-Sent Events from
// GET /api/games/<id>/events, docs/api.md), so that a watcher sees each move as it is made
// and no page asks again and again; and the engine's move, tried again after a network
// error, with a message and a button to ask again when it cannot be had. Loaded before
// app.js, whose state (ui) and drawing it uses.
'use strict';

// The waits before each new try of the engine's move after a network error, in ms.
const ENGINE_RETRY_WAITS = [1000, 3000];

const live = {
  source: null, // the EventSource of the game shown
  id: null,
};

// Follows game `id`: its states come to onLiveState. After a network drop the browser
// reconnects by itself, and the server sends the state as it then is.
function watchGame(id) {
  if (live.source && live.id === id) return;
  unwatchGame();
  live.id = id;
  live.source = new EventSource(`/api/games/${id}/events`);
  live.source.addEventListener('state', (evt) => {
    let state = null;
    try { state = JSON.parse(evt.data); } catch (e) { return; }
    onLiveState(state);
  });
}

function unwatchGame() {
  if (live.source) live.source.close();
  live.source = null;
  live.id = null;
}

// Whether two states of a game show the same.
function sameState(a, b) {
  return a.ply === b.ply && a.position === b.position && a.thinking === b.thinking
    && JSON.stringify(a.history) === JSON.stringify(b.history);
}

// A state from the stream. While the page waits for an answer of its own, it keeps to that
// answer (the change it asked for, which the stream sends too); else the state is shown, and
// after a move the engine is asked if it is its turn.
function onLiveState(state) {
  const g = ui.game;
  if (!g || state.id !== g.id || ui.busy || sameState(state, g)) return;
  const moved = state.ply !== g.ply || state.position !== g.position;
  setGame(state);
  render();
  if (moved) maybeEngine();
}

// ---------------------------------------------------------------------------------------
// The engine's move

// Asks the engine to move when it is its turn in the owner's game. A search under way (the
// game's `thinking`) sends its move through the stream.
function maybeEngine() {
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

function troubleText(e) {
  if (networkError(e)) {
    return `The engine\u2019s move did not come: the server cannot be reached (${e.message}). `
      + 'Check the connection, then ask the engine again.';
  }
  return `The engine could not move: ${e.message}.`;
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
      ui.engineTrouble = { ply, retrying: true, text: 'No answer from the server for the engine\u2019s move: trying again\u2026' };
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
function renderEngineTrouble() {
  const t = ui.engineTrouble;
  const g = ui.game;
  const show = !!(t && g && owner() && g.ply === t.ply && !g.outcome && !g.thinking && isEngine(g.turn));
  $('engine-trouble').hidden = !show;
  if (!show) return;
  $('engine-trouble-text').textContent = t.text;
  $('btn-engine-retry').hidden = !!t.retrying;
}

function askEngineAgain() {
  const g = ui.game;
  if (!g || !owner() || ui.busy || g.outcome || !isEngine(g.turn)) return;
  engineMove();
}
