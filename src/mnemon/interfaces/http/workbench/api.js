/* The workbench's one way to the server: GET api/<operation> with query parameters, or POST one with a JSON body
 * (the review actions, on a server started with --allow-writes); JSON back, and every failure (network, HTTP status,
 * the API's error envelope, a body that is not JSON) as an ApiError with a code. URLs are relative, so the page works
 * under any `--mount` prefix; each one is kept in `ui.requests` for tests (a POST as "POST api/<name>").
 */
import { excerpt } from './details.js';
import { ui } from './state.js';

export class ApiError extends Error {
  constructor(code, message, status, details) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.details = details && typeof details === 'object' ? details : {}; // a removed memory's: when, by what
  }
}

// A server started with a token (MNEMON_HTTP_TOKEN) answers 401 until the page sends it: asked once, kept for the tab.
const TOKEN_KEY = 'mnemon-token';
// Bumped each time the page asks for the token or forgets it. A 401 to a request sent before the last bump is already
// answered (the requests a load starts at once all fail together): it retries with what the tab has now, without
// asking again. window.prompt blocks, so no two 401s can be asking at the same time.
let tokenEpoch = 0;

/** After a 401 to a request sent at `sentEpoch`: the token to retry with, or null (cancelled, or none). */
function tokenAfter401(sentEpoch) {
  if (sentEpoch === tokenEpoch) {
    tokenEpoch++;
    // control characters cannot be in a header: fetch would refuse every request, as if the server were down
    const token = (window.prompt('This mnemon server needs its API token (MNEMON_HTTP_TOKEN):') || '')
      .replace(/[\u0000-\u001f\u007f]/g, '').trim();
    if (token) sessionStorage.setItem(TOKEN_KEY, token);
    else sessionStorage.removeItem(TOKEN_KEY);  // the one sent, if any, was refused
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

/** A retried request got a 401 too: the token it sent is wrong. Forget it (once) so that the next action asks. */
function forgetToken(sentEpoch) {
  if (sentEpoch !== tokenEpoch) return;
  tokenEpoch++;
  sessionStorage.removeItem(TOKEN_KEY);
}

/** The token as its UTF-8 bytes, one character per byte: what the server compares (a header value is bytes, and
 * fetch refuses any character above U+00FF, and would send é as the one byte E9, not UTF-8's C3 A9). */
function headerBytes(text) {
  return Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join('');
}

function authHeaders() {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { Accept: 'application/json', Authorization: 'Bearer ' + headerBytes(token) }
    : { Accept: 'application/json' };
}

/** GET api/<name>?params → the payload; the error envelope (or any non-JSON answer) becomes an ApiError. */
export function api(name, params, signal) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  return request('api/' + name + (query.toString() ? '?' + query : ''), {}, signal);
}

/** GET api → {read_only, operations}: what this server offers, and whether it accepts writes. */
export function serverInfo(signal) {
  return request('api', {}, signal);
}

/** POST api/<name> with the arguments as a JSON object body (a write: only a server started with --allow-writes
 * takes it; a read-only one answers 403 `readonly`) → the payload, or an ApiError as for GET. */
export function post(name, args, signal) {
  return request('api/' + name, { method: 'POST', body: JSON.stringify(args || {}) }, signal);
}

async function request(url, init, signal, retried) {
  const posting = init.method === 'POST';
  ui.requests.push(posting ? 'POST ' + url : url);
  if (ui.requests.length > 100) ui.requests.shift();
  const epoch = tokenEpoch;
  const headers = authHeaders();
  if (posting) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(url, { ...init, headers, signal });
  } catch (err) {
    if (err && err.name === 'AbortError') throw err;
    throw new ApiError('network', `cannot reach the server (${err && err.message})`, 0);
  }
  if (response.status === 401 && !retried) {
    if (tokenAfter401(epoch)) return request(url, init, signal, true);
  } else if (response.status === 401) {
    forgetToken(epoch);
  }
  const text = await response.text();
  let body = null;
  try { body = JSON.parse(text); } catch (_) { body = null; }
  if (response.ok && body !== null && !(body && body.ok === false)) return body;
  const error = body && body.error;
  if (error && typeof error === 'object') {
    throw new ApiError(error.code || `http_${response.status}`, error.message || response.statusText, response.status,
      error.details);
  }
  if (typeof error === 'string') throw new ApiError(body.code || `http_${response.status}`, error, response.status);
  const message = excerpt(text, 200) || response.statusText || 'not JSON';
  throw new ApiError(`http_${response.status}`, message, response.status);
}
