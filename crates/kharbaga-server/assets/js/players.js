// The player bars above and below the board: each side's bead, name or engine level, and
// a clock slot (`.clock`, its `data-color` the bar's side). The bar of the side to move is
// highlighted, so whose turn it is shows at a glance; at the end the winner's bar says so.

import { $, ui } from './state.js';
import { player, owner, vsEngine } from './sides.js';
import { t, side } from './i18n.js';

function playerLabel(color) {
  const p = player(color);
  if (p.kind === 'engine') return t('player.engine', { level: p.level });
  if (!owner()) return side(color);
  if (ui.side) return t(color === ui.side ? 'player.you.side' : 'player.opponent', { side: side(color) });
  return vsEngine() ? t('player.you') : side(color);
}

// What the bar of `color` says after the name: to move, thinking, or the winner.
function turnTag(g, color) {
  if (ui.view !== g.ply) return '';
  if (g.outcome) return g.outcome.winner === color ? t('player.winner') : '';
  if (g.turn !== color) return '';
  return g.thinking ? t('player.thinking') : t('player.to-move');
}

export function renderPlayers() {
  const g = ui.game;
  const bottom = ui.flipped ? 'white' : 'black';
  const top = bottom === 'black' ? 'white' : 'black';
  for (const [id, color] of [['player-top', top], ['player-bottom', bottom]]) {
    const bar = $(id);
    bar.hidden = !g;
    if (!g) continue;
    bar.dataset.color = color;
    bar.querySelector('.clock').dataset.color = color;
    bar.querySelector('.chip').className = `chip ${color}`;
    bar.querySelector('.player-name').textContent = playerLabel(color);
    const tag = turnTag(g, color);
    bar.querySelector('.turn-tag').textContent = tag;
    const active = !g.outcome && g.turn === color && ui.view === g.ply;
    bar.classList.toggle('active', active);
    bar.classList.toggle('winner', !!g.outcome && g.outcome.winner === color && ui.view === g.ply);
    bar.setAttribute('aria-current', active ? 'true' : 'false');
  }
}
