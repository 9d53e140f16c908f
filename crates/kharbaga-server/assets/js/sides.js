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
// The side this browser plays, if one: against the engine or a person elsewhere.
export function mySide() {
  if (!owner()) return null;
  if (ui.side) return ui.side;
  return vsEngine() ? humanColor() : null;
}
export function canMove() {
  const g = ui.game;
  return g && owner() && !ui.busy && !g.thinking && g.status === 'playing' && ui.view === g.ply
    && !isEngine(g.turn) && (!g.person || ui.side === g.turn);
}
