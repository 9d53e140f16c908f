// The server's JSON API (docs/api.md): one request, its answer or a clear error, in the
// page's language when the page knows the error's code (else in the server's words).

import { ui } from './state.js';
import { t, hasText } from './i18n.js';

export async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (ui.token) headers['X-Kharbaga-Token'] = ui.token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    // No answer at all (the network failed): an error without a status.
    const err = new Error(t('error.network', { error: e.message }));
    err.cause = e;
    throw err;
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (!res.ok) {
    const key = data && data.code ? `error.${data.code}` : null;
    const said = (data && data.error) || `${res.status} ${res.statusText}`;
    const err = new Error(key && hasText(key) ? t(key) : said);
    err.status = res.status;
    err.code = data && data.code;
    throw err;
  }
  return data;
}
