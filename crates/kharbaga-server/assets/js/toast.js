// A short message at the foot of the page.

import { $ } from './state.js';

let toastTimer = null;
export function toast(message, error) {
  const t = $('toast');
  t.textContent = message;
  t.className = error ? 'toast error' : 'toast';
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, error ? 6000 : 4000);
}
