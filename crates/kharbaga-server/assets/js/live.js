// The page's live side: the game's states as the server sends them (Server-Sent Events from
// GET /api/games/<id>/events, docs/api.md), so that a watcher sees each move as it is made
// and no page asks again and again.

import { ui } from './state.js';
import { setGame } from './game.js';
import { render } from './board.js';
import { maybeEngine } from './engine.js';

const live = {
  source: null, // the EventSource of the game shown
  id: null,
};

// Follows game `id`: its states come to onLiveState. After a network drop the browser
// reconnects by itself, and the server sends the state as it then is.
export function watchGame(id) {
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
    && a.status === b.status && a.draw_offer === b.draw_offer && a.rematch === b.rematch
    && JSON.stringify(a.person) === JSON.stringify(b.person)
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
