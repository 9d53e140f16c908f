// The board's points: their names, coordinates and places on the drawing (which turns with
// the board); the points between two others; and position strings read into pieces.

import { ui } from './state.js';

export const FILES = 'abcdefghi';
export const UNIT = 50; // SVG units per doubled coordinate
export const LEFT = 46; // room for the rank numbers (and, at the bottom, the file letters)
export const TOP = 30;
export const SIZE = LEFT + 8 * UNIT + TOP; // the view box is square
export const RADIUS = 20;

function coords(name) {
  return [name.charCodeAt(0) - 97, parseInt(name.slice(1), 10) - 1];
}
function pointName(x, y) {
  return FILES[x] + (y + 1);
}
export function toScreen(name) {
  let [x, y] = coords(name);
  if (ui.flipped) { x = 8 - x; y = 8 - y; }
  return [LEFT + x * UNIT, TOP + (8 - y) * UNIT];
}
export const ALL_POINTS = [];
for (let y = 0; y < 9; y++) for (let x = 0; x < 9; x++) if ((x + y) % 2 === 0) ALL_POINTS.push(pointName(x, y));

// The points strictly between two points on one line.
export function between(a, b) {
  const [ax, ay] = coords(a);
  const [bx, by] = coords(b);
  const dx = Math.sign(bx - ax);
  const dy = Math.sign(by - ay);
  const step = dx === 0 || dy === 0 ? 2 : 1;
  const out = [];
  let x = ax + dx * step;
  let y = ay + dy * step;
  while ((x !== bx || y !== by) && x >= 0 && x <= 8 && y >= 0 && y <= 8) {
    out.push(pointName(x, y));
    x += dx * step;
    y += dy * step;
  }
  return out;
}

export function parsePosition(fen) {
  const [turn, ...lists] = fen.split(':');
  const pieces = new Map();
  for (const list of lists) {
    const color = list[0] === 'B' ? 'black' : 'white';
    for (const item of list.slice(1).split(',')) {
      if (!item) continue;
      const mullah = item[0] === 'K';
      pieces.set(mullah ? item.slice(1) : item, { color, mullah });
    }
  }
  return { turn: turn === 'B' ? 'black' : 'white', pieces };
}
