// Who is who in the game shown: the players of each colour, whether this browser owns the
// game, and whether the player may move now.

import { ui } from './state.js';

export function player(color) {
  return ui.game.players[color];
}
export function isEngine(color) {
  return player(color).kind === 'engine';
}
export function owner() {
  return !!ui.token;
}
export function vsEngine() {
  return isEngine('black') !== isEngine('white');
}
export function humanColor() {
  return isEngine('black') ? 'white' : 'black';
}
export function canMove() {
  const g = ui.game;
  return g && owner() && !ui.busy && !g.thinking && !g.outcome && ui.view === g.ply && !isEngine(g.turn);
}
