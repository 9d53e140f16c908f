// The new-game dialog: opponent, level, colour, who starts, rules and their options, or a
// position or record to start from.

import { $, ui, TOKEN_KEY, LAST_KEY } from './state.js';
import { api } from './api.js';
import { setGame } from './game.js';
import { render } from './board.js';
import { DICE } from './panel.js';
import { toast } from './toast.js';
import { watchGame } from './live.js';
import { maybeEngine } from './engine.js';

function formValue(name) {
  const f = $('form-new');
  return f.elements[name].value;
}

export function buildOptions(setName) {
  const box = $('options');
  box.textContent = '';
  const set = ui.meta.rule_sets.find((r) => r.name === setName);
  for (const { key, values } of ui.meta.option_keys) {
    const label = document.createElement('label');
    label.htmlFor = `opt-${key}`;
    label.innerHTML = '<code></code>';
    label.firstChild.textContent = key;
    let input;
    if (values === 'N|off') {
      input = document.createElement('input');
      input.type = 'text';
      input.size = 6;
      input.pattern = '[0-9]+|off';
      input.value = set.options[key];
    } else {
      input = document.createElement('select');
      for (const v of values.split('|')) {
        const o = document.createElement('option');
        o.value = o.textContent = v;
        input.appendChild(o);
      }
      input.value = set.options[key];
    }
    input.id = `opt-${key}`;
    input.dataset.key = key;
    input.dataset.base = set.options[key];
    box.append(label, input);
  }
}

export function updateNewForm() {
  const engine = formValue('opponent') === 'engine';
  for (const e of document.querySelectorAll('.engine-only')) e.hidden = !engine;
  $('first-me').textContent = engine ? 'You' : 'Black';
  $('first-other').textContent = engine ? 'The engine' : 'White';
  $('level-out').textContent = formValue('level');
  $('starts-box').hidden = $('source').value.trim() !== '';
}

export function openNewDialog(load) {
  $('new-error').hidden = true;
  $('dlg-title').textContent = load ? 'Load a game' : 'New game';
  $('more').open = !!load || $('more').open;
  updateNewForm();
  const dlg = $('dlg-new');
  if (!dlg.open) dlg.showModal();
  if (load) $('source').focus();
}

export async function startGame(evt) {
  evt.preventDefault();
  const engine = formValue('opponent') === 'engine';
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
    else if (engine) req.first = first === 'me' ? me : other;
    else req.first = first === 'me' ? 'black' : 'white';
  }
  try {
    const res = await api('POST', '/api/games', req);
    localStorage.setItem(TOKEN_KEY(res.id), res.token);
    localStorage.setItem(LAST_KEY, res.id);
    $('dlg-new').close();
    $('source').value = '';
    history.pushState({ id: res.id }, '', res.url);
    ui.token = res.token;
    ui.game = null;
    ui.search = null;
    ui.sel = null;
    ui.echo = null;
    ui.engineTrouble = null;
    ui.hintFor = -1;
    setGame(res.state);
    watchGame(res.id);
    ui.flipped = engine && me === 'white';
    if (res.state.rolls.length) {
      const r = res.state.rolls[res.state.rolls.length - 1];
      const starter = r.black > r.white ? 'Black' : 'White';
      toast(`Die roll: Black ${DICE[r.black]} ${r.black}, White ${DICE[r.white]} ${r.white} \u2014 ${starter} starts`);
    }
    render();
    maybeEngine();
  } catch (e) {
    $('new-error').textContent = e.message;
    $('new-error').hidden = false;
  }
}
