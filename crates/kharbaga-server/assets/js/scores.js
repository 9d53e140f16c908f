// Scores, table values, die rolls and results in words.

import { t, side } from './i18n.js';
import { parsePosition } from './geometry.js';

// The score for Black in centi-men, or +-Infinity for a forced result (0 for a draw by the
// endgame tables), and its text.
export function blackScore(search) {
  const s = search.score;
  const sign = s.side === 'black' ? 1 : -1;
  if (s.kind === 'centi') {
    const v = sign * s.value;
    return { value: v, text: (v > 0 ? '+' : '') + (v / 100).toFixed(2) };
  }
  if (s.kind === 'tb-draw') return { value: 0, text: t('score.tb-draw'), plain: t('score.draw'), short: '=' };
  const table = s.kind === 'tb-win' || s.kind === 'tb-loss';
  const won = s.kind === 'win' || s.kind === 'tb-win';
  const winner = won === (s.side === 'black') ? 'black' : 'white';
  const value = winner === 'black' ? Infinity : -Infinity;
  // A table score's distance is in plies, and -1 when the tables do not give it.
  const moves = Math.ceil(s.value / 2);
  if (table) {
    const plain = s.value < 0 ? t('score.wins', { side: side(winner) }) : winsInPlies(winner, s.value);
    return { value, text: t('score.tables', { text: plain }), plain, short: s.value < 0 ? 'TB' : `#${moves}` };
  }
  return { value, text: t('score.wins-in', { side: side(winner), n: moves }), short: `#${moves}` };
}

function winsInPlies(winner, n) {
  return t('score.wins-in-plies', { side: side(winner), n });
}

// A table value ('win 17', 'draw', 'loss 8', for `mover`) in words: 'Black wins in 17 plies'.
export function tableText(value, mover) {
  const [kind, n] = value.split(' ');
  if (kind === 'draw') return t('score.draw');
  const winner = kind === 'win' ? mover : mover === 'black' ? 'white' : 'black';
  return winsInPlies(winner, parseInt(n, 10));
}

const DICE = ['', '\u2680', '\u2681', '\u2682', '\u2683', '\u2684', '\u2685'];

// The die rolls for who starts, and who does: 'Black ⚃ 4, White ⚁ 2 — Black starts.'
export function rollsText(rolls) {
  const all = rolls
    .map((r) => t('roll.each', { bd: DICE[r.black], b: r.black, wd: DICE[r.white], w: r.white }))
    .join(t('roll.then'));
  const last = rolls[rolls.length - 1];
  return t('roll.starts', { rolls: all, side: side(last.black > last.white ? 'black' : 'white') });
}

// How the game ended, in words. An ending this page does not know is told in the server's
// words.
export function outcomeText(g) {
  const o = g.outcome;
  const loser = o.winner === 'black' ? 'white' : 'black';
  const names = { winner: o.winner ? side(o.winner) : '', loser: side(loser) };
  switch (o.reason) {
    case 'no-moves': {
      const left = parsePosition(g.position).pieces;
      const none = ![...left.values()].some((p) => p.color === loser);
      return t(none ? 'outcome.no-pieces' : 'outcome.no-moves', names);
    }
    case 'repetition':
      return t('outcome.repetition');
    case 'no-progress':
      return t('outcome.no-progress', { n: parseInt(g.rule_options['no-progress'], 10) });
    case 'resignation':
      return t('outcome.resignation', names);
    case 'agreement':
      return t('outcome.agreement');
    case 'time':
      return t('outcome.time', names);
    default:
      return o.text;
  }
}
