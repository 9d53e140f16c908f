// The Kharbaga page: draws the board, lets the player move by clicking or dragging, and
// talks to the server's JSON API (docs/api.md); live.js follows the game as it changes and
// engine.js asks the engine for its moves. ES modules, no framework, no build step; this
// one starts the page.

import { $, ui, TOKEN_KEY, LAST_KEY } from './state.js';
import { toScreen } from './geometry.js';
import { api } from './api.js';
import { onPointerDown, onPointerMove, onPointerUp } from './input.js';
import { openGame, takeBack, askHint, download } from './game.js';
import { render } from './board.js';
import { toast } from './toast.js';
import { buildOptions, updateNewForm, openNewDialog, startGame, translateNewDialog } from './newgame.js';
import { askEngineAgain } from './engine.js';
import { applyLanguage, language, setLanguage } from './i18n.js';
import { applyLook, openLookDialog } from './look.js';
import { openGamesDialog, unfinishedOwnGame } from './mygames.js';
import { toggleAnalysis, onGraphClick } from './analysis.js';
import { initPeople, joinFromLink } from './people.js';

function gameIdFromUrl() {
  const m = location.pathname.match(/^\/game\/([a-z0-9]+)$/);
  return m ? m[1] : null;
}

// The rules page in the language shown.
function rulesLink() {
  $('link-rules').href = language() === 'en' ? '/rules' : `/rules/${language()}`;
}

async function init() {
  applyLanguage();
  applyLook();
  rulesLink();
  $('lang').value = language();
  $('lang').addEventListener('change', () => {
    setLanguage($('lang').value);
    rulesLink();
    translateNewDialog();
    render();
  });
  const svg = $('board');
  svg.addEventListener('pointerdown', onPointerDown);
  svg.addEventListener('pointermove', onPointerMove);
  svg.addEventListener('pointerup', onPointerUp);
  svg.addEventListener('pointercancel', () => { ui.drag = null; render(); });
  $('btn-new').onclick = () => openNewDialog(false);
  $('btn-load').onclick = () => openNewDialog(true);
  $('btn-games').onclick = openGamesDialog;
  $('btn-look').onclick = () => openLookDialog(render);
  $('btn-analyse').onclick = toggleAnalysis;
  $('analysis-graph').addEventListener('click', onGraphClick);
  $('new-cancel').onclick = () => $('dlg-new').close();
  $('form-new').addEventListener('submit', startGame);
  $('form-new').addEventListener('input', updateNewForm);
  $('ruleset').addEventListener('change', () => buildOptions($('ruleset').value));
  $('source-file').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (f) { $('source').value = (await f.text()).slice(0, 60000); updateNewForm(); }
  });
  $('nav-first').onclick = () => { ui.view = 0; ui.sel = null; render(); };
  $('nav-prev').onclick = () => { if (ui.view > 0) ui.view--; ui.sel = null; render(); };
  $('nav-next').onclick = () => { if (ui.game && ui.view < ui.game.ply) ui.view++; render(); };
  $('nav-last').onclick = () => { if (ui.game) ui.view = ui.game.ply; render(); };
  $('btn-undo').onclick = takeBack;
  $('btn-engine-retry').onclick = askEngineAgain;
  $('btn-hint').onclick = askHint;
  $('btn-flip').onclick = () => { ui.flipped = !ui.flipped; render(); };
  $('btn-download').onclick = download;
  initPeople();
  $('chk-eval').checked = localStorage.getItem('kharbaga:eval') === '1';
  $('chk-eval').onchange = () => { localStorage.setItem('kharbaga:eval', $('chk-eval').checked ? '1' : '0'); render(); };
  document.addEventListener('keydown', (e) => {
    if (!ui.game || document.querySelector('dialog[open]') || e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') $('nav-prev').click();
    else if (e.key === 'ArrowRight') $('nav-next').click();
    else if (e.key === 'Home') $('nav-first').click();
    else if (e.key === 'End') $('nav-last').click();
    else if (e.key === 'Escape' && ui.sel) { ui.sel = null; render(); }
  });
  // Leaving the page in the middle of one's own game asks first (the game stays in My games).
  window.addEventListener('beforeunload', (e) => {
    if (!unfinishedOwnGame()) return;
    e.preventDefault();
    e.returnValue = '';
  });
  window.addEventListener('popstate', () => {
    const id = gameIdFromUrl();
    if (id) openGame(id);
  });

  render();
  try {
    ui.meta = await api('GET', '/api/meta');
  } catch (e) {
    toast(e.message, true);
    return;
  }
  const sel = $('ruleset');
  for (const r of ui.meta.rule_sets) {
    const o = document.createElement('option');
    o.value = o.textContent = r.name;
    sel.appendChild(o);
  }
  buildOptions(sel.value);
  const id = gameIdFromUrl();
  const last = localStorage.getItem(LAST_KEY);
  if (id) {
    await joinFromLink(id);
    await openGame(id);
  } else if (last && localStorage.getItem(TOKEN_KEY(last))) {
    history.replaceState({ id: last }, '', `/game/${last}`);
    await openGame(last);
  } else {
    openNewDialog(false);
  }
}

// The page's state and the board's geometry, for the browser tests (tests/webdriver) and
// the developer console.
Object.assign(window, { ui, toScreen });

init();
