// How the board looks, as the player chose it (kept in localStorage): the board's theme,
// each side's bead colour (the rules text lets the players choose their beads' colour) and
// the Mullah's mark, a crown or the letter M (as the rules text marks it). The sides keep
// their names, Black and White, whatever their beads' colour.

import { $ } from './state.js';
import { t } from './i18n.js';

const LOOK_KEY = 'kharbaga:look';

// The board themes: the board, its lines and its coordinates.
export const THEMES = {
  wood: { board: '#e8cf9c', line: '#6b4a2b', coord: '#8a6a45' },
  cedar: { board: '#c48b5c', line: '#3f2412', coord: '#5a3418' },
  zellige: { board: '#e6edf1', line: '#1f4e79', coord: '#2d5d8a' },
  olive: { board: '#b8c795', line: '#34472a', coord: '#42583a' },
  night: { board: '#2e3236', line: '#cdb98c', coord: '#a99d82' },
};

// The bead colours: the light and dark of the bead's shading, its edge and inner ring, a
// flat colour (the evaluation bar), and the colours of the Mullah's mark on it.
export const BEADS = {
  black: { light: '#5a5a5a', dark: '#111111', edge: '#000000', ring: '#555555', flat: '#222222', mark: '#f2c14e', markEdge: '#7a5a10' },
  white: { light: '#ffffff', dark: '#e6dcc6', edge: '#3a3a3a', ring: '#c9bfa8', flat: '#fbf6ea', mark: '#c8901c', markEdge: '#6b4a10' },
  red: { light: '#e8796c', dark: '#8c1c13', edge: '#4a0d08', ring: '#b8453a', flat: '#a8281c', mark: '#ffd966', markEdge: '#5a4010' },
  blue: { light: '#7aa7e6', dark: '#1b3c78', edge: '#0b1b3a', ring: '#3f67a8', flat: '#24508f', mark: '#ffd966', markEdge: '#3a2c08' },
  green: { light: '#7cc47f', dark: '#1c6329', edge: '#0b3112', ring: '#3f8a48', flat: '#2a7a37', mark: '#ffe27a', markEdge: '#3a2c08' },
  amber: { light: '#ffe7a0', dark: '#d39514', edge: '#6b4a05', ring: '#e8b84a', flat: '#e0a526', mark: '#8c1c13', markEdge: '#4a0d08' },
  brown: { light: '#b98457', dark: '#5a3418', edge: '#2b170a', ring: '#8a5a33', flat: '#6e4322', mark: '#ffd966', markEdge: '#3a2c08' },
};

const DEFAULT = { theme: 'wood', black: 'black', white: 'white', mark: 'crown' };

/** The look chosen: {theme, black, white, mark}, each checked against what exists. */
export const look = readLook();

function readLook() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(LOOK_KEY)); } catch (e) { saved = null; }
  const out = { ...DEFAULT };
  if (saved && typeof saved === 'object') {
    if (THEMES[saved.theme]) out.theme = saved.theme;
    if (BEADS[saved.black]) out.black = saved.black;
    if (BEADS[saved.white] && saved.white !== out.black) out.white = saved.white;
    if (saved.mark === 'crown' || saved.mark === 'letter') out.mark = saved.mark;
  }
  if (out.white === out.black) out.white = out.black === 'white' ? 'black' : 'white';
  return out;
}

/** The colours of the beads of side `color` ('black' or 'white'). */
export function beads(color) {
  return BEADS[look[color]];
}

/** The flat colour of the beads of side `color`. */
export function beadColor(color) {
  return beads(color).flat;
}

/**
 * Puts the look on the page: the theme's and the beads' colours as CSS variables of the
 * page (the board's drawing, the chips and the marks use them).
 */
export function applyLook() {
  const theme = THEMES[look.theme];
  const root = document.documentElement.style;
  root.setProperty('--board', theme.board);
  root.setProperty('--board-line', theme.line);
  root.setProperty('--board-coord', theme.coord);
  for (const color of ['black', 'white']) {
    const b = beads(color);
    root.setProperty(`--${color}-light`, b.light);
    root.setProperty(`--${color}-dark`, b.dark);
    root.setProperty(`--${color}-edge`, b.edge);
    root.setProperty(`--${color}-ring`, b.ring);
    root.setProperty(`--${color}-mark`, b.mark);
    root.setProperty(`--${color}-mark-edge`, b.markEdge);
  }
  document.documentElement.dataset.theme = look.theme;
}

function save() {
  localStorage.setItem(LOOK_KEY, JSON.stringify(look));
}

// A radio button with a swatch and a label, for the dialog.
function choice(name, value, checked, swatchClass, background, label) {
  const l = document.createElement('label');
  l.className = 'swatch-choice';
  const input = document.createElement('input');
  input.type = 'radio';
  input.name = name;
  input.value = value;
  input.checked = checked;
  const swatch = document.createElement('span');
  swatch.className = swatchClass;
  swatch.style.background = background;
  const text = document.createElement('span');
  text.textContent = label;
  l.append(input, swatch, text);
  return l;
}

// Fills the dialog's choices from the look.
function buildLookForm() {
  const themes = $('theme-choices');
  themes.textContent = '';
  for (const name of Object.keys(THEMES)) {
    const th = THEMES[name];
    const lines = `linear-gradient(45deg, transparent 46%, ${th.line} 46% 54%, transparent 54%), ${th.board}`;
    themes.append(choice('theme', name, look.theme === name, 'theme-swatch', lines, t(`theme.${name}`)));
  }
  for (const color of ['black', 'white']) {
    const box = $(`beads-${color}`);
    box.textContent = '';
    const other = look[color === 'black' ? 'white' : 'black'];
    for (const name of Object.keys(BEADS)) {
      const b = BEADS[name];
      const shade = `radial-gradient(circle at 35% 30%, ${b.light}, ${b.dark})`;
      const c = choice(`beads-${color}`, name, look[color] === name, 'bead-swatch', shade, t(`bead.${name}`));
      // Both sides cannot have the same beads.
      c.querySelector('input').disabled = name === other;
      box.append(c);
    }
  }
  for (const input of $('form-look').elements.mark) input.checked = input.value === look.mark;
}

/** Opens the dialog of the board's look; `onChange` redraws the page after each change. */
export function openLookDialog(onChange) {
  buildLookForm();
  const form = $('form-look');
  form.oninput = () => {
    const f = form.elements;
    look.theme = f.theme.value || look.theme;
    look.black = f['beads-black'].value || look.black;
    look.white = f['beads-white'].value || look.white;
    look.mark = f.mark.value || look.mark;
    save();
    applyLook();
    buildLookForm();
    onChange();
  };
  $('dlg-look').showModal();
}
