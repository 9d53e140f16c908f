// The new-game dialog: opponent, level, colour, who starts, rules and their options, or a
// position or record to start from.

import { $, ui } from './state.js';
import { api } from './api.js';
import { setGame } from './game.js';
import { render } from './board.js';
import { rollsText } from './scores.js';
import { t, side } from './i18n.js';
import { toast } from './toast.js';
import { watchGame } from './live.js';
import { maybeEngine } from './engine.js';
import { rememberSeat } from './people.js';

function formValue(name) {
  const f = $('form-new');
  return f.elements[name].value;
}

// The rule options of set `setName`, each with its name and what it does in words, the
// set's values chosen; and the set described.
export function buildOptions(setName) {
  const box = $('options');
  box.textContent = '';
  const set = ui.meta.rule_sets.find((r) => r.name === setName);
  $('ruleset-about').textContent = t(`ruleset.${setName}`);
  for (const { key, values } of ui.meta.option_keys) {
    const row = document.createElement('div');
    row.className = 'option';
    const label = document.createElement('label');
    label.htmlFor = `opt-${key}`;
    const code = document.createElement('code');
    code.textContent = key;
    label.append(t(`option.${key}`), ' ', code);
    let input;
    if (values === 'N|off') {
      input = document.createElement('input');
      input.type = 'text';
      input.size = 6;
      input.pattern = '[0-9]+|off';
      input.dir = 'ltr';
    } else {
      input = document.createElement('select');
      for (const v of values.split('|')) {
        const o = document.createElement('option');
        o.value = v;
        o.textContent = t(`value.${v}`);
        input.appendChild(o);
      }
    }
    input.value = set.options[key];
    input.id = `opt-${key}`;
    input.dataset.key = key;
    input.dataset.base = set.options[key];
    const about = document.createElement('p');
    about.className = 'option-about';
    about.id = `opt-${key}-about`;
    about.textContent = t(`option.${key}.about`);
    input.setAttribute('aria-describedby', about.id);
    row.append(label, input, about);
    box.append(row);
  }
}

export function updateNewForm() {
  const engine = formValue('opponent') === 'engine';
  const remote = formValue('opponent') === 'remote';
  for (const e of document.querySelectorAll('.engine-only')) e.hidden = !engine && !(remote && e.classList.contains('colour-box'));
  for (const e of document.querySelectorAll('.remote-only')) e.hidden = !remote;
  $('first-me').textContent = engine || remote ? t('new.first.me') : side('black');
  $('first-other').textContent = engine ? t('new.first.engine') : remote ? t('new.first.opponent') : side('white');
  $('level-out').textContent = formValue('level');
  $('starts-box').hidden = $('source').value.trim() !== '';
}

let loading = false; // the dialog was opened to load a game

export function openNewDialog(load) {
  loading = !!load;
  $('new-error').hidden = true;
  $('dlg-title').textContent = t(loading ? 'new.title.load' : 'new.title');
  $('more').open = loading || $('more').open;
  updateNewForm();
  const dlg = $('dlg-new');
  if (!dlg.open) dlg.showModal();
  if (load) $('source').focus();
}

/** Says the dialog again in the language shown, keeping what was chosen in it. */
export function translateNewDialog() {
  if (!ui.meta) return;
  const chosen = {};
  for (const input of $('options').querySelectorAll('[data-key]')) chosen[input.dataset.key] = input.value;
  buildOptions($('ruleset').value);
  for (const input of $('options').querySelectorAll('[data-key]')) input.value = chosen[input.dataset.key];
  $('dlg-title').textContent = t(loading ? 'new.title.load' : 'new.title');
  updateNewForm();
}

export async function startGame(evt) {
  evt.preventDefault();
  const engine = formValue('opponent') === 'engine';
  const remote = formValue('opponent') === 'remote';
  const me = formValue('colour');
  const other = me === 'black' ? 'white' : 'black';
  const level = parseInt(formValue('level'), 10);
  const req = { rules: formValue('ruleset'), options: {} };
  for (const input of $('options').querySelectorAll('[data-key]')) {
    if (input.value !== input.dataset.base) req.options[input.dataset.key] = input.value.trim();
  }
  if (engine) {
    req[me] = { kind: 'human' };
    req[other] = { kind: 'engine', level };
  } else if (remote) {
    req[me] = { kind: 'human' };
    req[other] = { kind: 'person' };
    if (formValue('clock')) req.clock = formValue('clock');
  } else {
    req.black = { kind: 'human' };
    req.white = { kind: 'human' };
  }
  const source = $('source').value.trim();
  if (source) {
    if (source.startsWith('[') || /\d\.\s/.test(source)) req.record = source;
    else req.position = source;
  } else {
    const first = formValue('first');
    if (first === 'roll') req.first = 'roll';
    else if (engine || remote) req.first = first === 'me' ? me : other;
    else req.first = first === 'me' ? 'black' : 'white';
  }
  try {
    const res = await api('POST', '/api/games', req);
    rememberSeat(res.id, res.token, remote ? me : null, res.invite_url);
    $('dlg-new').close();
    $('source').value = '';
    history.pushState({ id: res.id }, '', res.url);
    ui.token = res.token;
    ui.side = remote ? me : null;
    ui.game = null;
    ui.search = null;
    ui.sel = null;
    ui.echo = null;
    ui.engineTrouble = null;
    ui.hintFor = -1;
    setGame(res.state);
    watchGame(res.id);
    ui.flipped = (engine || remote) && me === 'white';
    if (res.state.rolls.length) {
      const r = res.state.rolls[res.state.rolls.length - 1];
      toast(t('roll.toast', { text: rollsText([r]) }));
    }
    render();
    maybeEngine();
  } catch (e) {
    $('new-error').textContent = e.message;
    $('new-error').hidden = false;
  }
}
