// The page's state: the game shown and what the player is doing with it; and the keys of
// what the browser keeps (localStorage).

export const $ = (id) => document.getElementById(id);
export const TOKEN_KEY = (id) => `kharbaga:token:${id}`;
export const LAST_KEY = 'kharbaga:last';
export const SIDE_KEY = (id) => `kharbaga:side:${id}`; // in a game against a person elsewhere

export const ui = {
  meta: null,
  game: null, // the state from the server
  token: null,
  side: null, // the side this browser plays in a game against a person elsewhere
  view: 0, // the ply shown
  flipped: false,
  sel: null, // {from, partial: [points], cands: [{move, path}]}
  drag: null, // {point, x, y, moved, pointerId}
  busy: false,
  search: null, // the last engine report {ply, search}
  hintFor: -1, // the ply the hint was asked for
  engineTrouble: null, // why the engine's move did not come {ply, text, retrying}
  echo: null, // the rest of a capture sent before it was clicked to its end {points, at}
};
