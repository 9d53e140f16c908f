// Scores and table values in words.

// The score for Black in centi-men, or +-Infinity for a forced result (0 for a draw by the
// endgame tables), and its text.
export function blackScore(search) {
  const s = search.score;
  const sign = s.side === 'black' ? 1 : -1;
  if (s.kind === 'centi') {
    const v = sign * s.value;
    return { value: v, text: (v > 0 ? '+' : '') + (v / 100).toFixed(2) };
  }
  if (s.kind === 'tb-draw') return { value: 0, text: 'a draw (endgame tables)', plain: 'a draw', short: '=' };
  const table = s.kind === 'tb-win' || s.kind === 'tb-loss';
  const won = s.kind === 'win' || s.kind === 'tb-win';
  const winner = won === (s.side === 'black') ? 'black' : 'white';
  const value = winner === 'black' ? Infinity : -Infinity;
  // A table score's distance is in plies, and -1 when the tables do not give it.
  const moves = Math.ceil(s.value / 2);
  if (table) {
    const plain = s.value < 0 ? `${cap(winner)} wins` : `${cap(winner)} wins in ${plies(s.value)}`;
    return { value, text: `${plain} (endgame tables)`, plain, short: s.value < 0 ? 'TB' : `#${moves}` };
  }
  return { value, text: `${cap(winner)} wins in ${moves}`, short: `#${moves}` };
}

function plies(n) {
  return n === 1 ? '1 ply' : `${n} plies`;
}

// A table value ('win 17', 'draw', 'loss 8', for `mover`) in words: 'Black wins in 17 plies'.
export function tableText(value, mover) {
  const [kind, n] = value.split(' ');
  if (kind === 'draw') return 'a draw';
  const winner = kind === 'win' ? mover : mover === 'black' ? 'white' : 'black';
  return `${cap(winner)} wins in ${plies(parseInt(n, 10))}`;
}

export function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
