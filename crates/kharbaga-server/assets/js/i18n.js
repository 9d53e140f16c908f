// The page's languages: English, French and Arabic (right to left). The language is the
// one the player chose (kept in localStorage), else the first of the browser's languages
// the page has, else English. Every text the page shows comes from one table per language
// (i18n/en.js, fr.js, ar.js); the elements of index.html name theirs in data-i18n
// attributes. To add a language: a table i18n/<code>.js with every key of en.js (the
// browser test compares them), its entry in LANGUAGES and in the menu of index.html, the
// file in the server's list (src/assets.rs), and the rules page docs/rules.<code>.md in
// the server's RULES.

import en from './i18n/en.js';
import fr from './i18n/fr.js';
import ar from './i18n/ar.js';

// The tables by language code; each names itself (`language.name`) and its direction.
export const LANGUAGES = { en, fr, ar };

const LANG_KEY = 'kharbaga:lang';

let current = chosenLanguage();

// The saved choice, else the browser's first language the page has, else English.
function chosenLanguage() {
  const saved = localStorage.getItem(LANG_KEY);
  if (saved && LANGUAGES[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language]) {
    const base = String(tag || '').toLowerCase().split('-')[0];
    if (LANGUAGES[base]) return base;
  }
  return 'en';
}

/** The language shown: 'en', 'fr' or 'ar'. */
export function language() {
  return current;
}

/** Shows the page in language `code` from now on, and remembers it. */
export function setLanguage(code) {
  if (!LANGUAGES[code]) return;
  current = code;
  localStorage.setItem(LANG_KEY, code);
  applyLanguage();
}

/**
 * The text of `key` in the language shown, with `{name}` replaced by `params.name`. A text
 * that depends on a number has one form per plural category of the language (`one`,
 * `two`, `few`, `many`, `other`), chosen by `params.n`.
 */
export function t(key, params) {
  let text = LANGUAGES[current][key];
  if (text === undefined) text = en[key];
  if (text === undefined) return key;
  if (typeof text === 'object') {
    const form = new Intl.PluralRules(current).select(params.n);
    text = text[form] !== undefined ? text[form] : text.other;
  }
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether the tables have a text for `key`. */
export function hasText(key) {
  return key in en;
}

/** The name of a side ('black' or 'white') in the language shown, capitalised. */
export function side(color) {
  return t(color === 'black' ? 'side.black' : 'side.white');
}

/**
 * Sets the page's language and direction, and the texts of the elements that name theirs:
 * data-i18n (the text), data-i18n-title, data-i18n-label (aria-label), data-i18n-placeholder.
 */
export function applyLanguage() {
  const root = document.documentElement;
  root.lang = current;
  root.dir = LANGUAGES[current]['language.dir'];
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
  for (const el of document.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
  document.title = t('page.title');
  // The page is shown once it speaks its language (style.css hides it until then).
  root.dataset.ready = '';
}
