/* The workbench's shared state: the page's elements, the loaded graph (`G`), the view transform, the simulation, the
 * UI state (selection, hover, status, errors, what the last frame drew), the colours the canvas reads from CSS, and
 * the status line. Plain objects that the other modules read and change in place; no drawing, no requests.
 */
import { h } from './details.js';
import { Simulation } from './layout.js';

// ---------------------------------------------------------------- DOM
const $ = (id) => document.getElementById(id);
export const el = {
  canvas: $('graph'), status: $('status'), counts: $('counts'), details: $('details'), legend: $('legend'),
  empty: $('empty'), focusLabel: $('focus-label'), search: $('search'), q: $('q'), results: $('results'),
  resultsBox: $('results-box'), resultsTitle: $('results-title'), resultsClose: $('results-close'),
  limits: $('limits'), folder: $('folder'), maxNodes: $('max-nodes'), maxLinks: $('max-links'), depth: $('depth'),
  showCandidates: $('show-candidates'), showKilled: $('show-killed'), overview: $('overview'), frame: $('frame'),
  announce: $('announce'), forgottenOpen: $('forgotten-open'), forgottenBox: $('forgotten-box'),
  forgottenTitle: $('forgotten-title'), forgottenList: $('forgotten'), forgottenClose: $('forgotten-close'),
};
export const ctx = el.canvas.getContext('2d');

// ---------------------------------------------------------------- state
// `loaded`: a graph answer has arrived (until then an empty canvas says nothing about the store)
export const G = {
  nodes: [], links: [], byId: new Map(), focus: null, folder: null, loaded: false, truncated: false, stats: null,
  buckets: {},
};
export const view = { x: 0, y: 0, k: 1 };
export const sim = new Simulation();
export const ui = {
  autoFrame: true, selected: null, hover: null, status: { text: '', kind: 'busy' }, errors: [], requests: [],
  loading: false, drawn: { nodes: 0, links: 0, labels: 0, outside: 0, overNodes: [] }, labelBoxes: [],
  size: { w: 0, h: 0, dpr: 1 },
  storeTotals: null, writable: null, perf: { tickMs: 0, drawMs: 0, sliceMs: 0, frames: 0, lastFrame: 0 },
};

export function linkVisible(l) { return l.status !== 'killed' || el.showKilled.checked; }

// ---------------------------------------------------------------- colours
export const NODE_COLOURS = {
  note: '#4e79a7', person: '#e15759', project: '#2a9d8f', place: '#8f6bb3', decision: '#d4a017',
  observation: '#59a14f', task: '#f28e2b', section: '#8d939c', memory: '#7ab86c', heading: '#9c755f',
  date: '#b07aa1', tag: '#5fb3ad', email: '#c9a227', placeholder: '#bdb6b0', other: '#8c8c8c',
};

export function groupOf(node) {
  if (node.kind === 'note') return ['person', 'project', 'place', 'decision'].includes(node.type) ? node.type : 'note';
  if (node.kind === 'memory') return ['observation', 'task', 'section'].includes(node.type) ? node.type : 'memory';
  return NODE_COLOURS[node.kind] ? node.kind : 'other';
}

/** The canvas colours of the current scheme, read from the CSS custom properties (light or dark). */
export const colours = {};

export function readColours() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  Object.assign(colours, {
    accent: v('--accent'), text: v('--text'), muted: v('--muted'), active: v('--link-active'),
    candidate: v('--link-candidate'), killed: v('--link-killed'), label: v('--label'), halo: v('--label-halo'),
    nodeStroke: v('--node-stroke'),
  });
}

// ---------------------------------------------------------------- status line
/** What a person typed or a note is called, quoted in a message: isolated (<bdi>), so that a right-to-left override
 * or a right-to-left title inside it cannot reorder the words around it. */
export function said(text) {
  return h('bdi', null, text);
}

// what to do again when the server can be reached again, by what failed ('Graph', 'Status', …): the last of each
const retries = new Map();

/** The status line: `text` is a string or a list of strings and elements (`said(…)`, a button). A new status that is
 * no error forgets what a Retry would have done: the person has moved on. */
export function setStatus(text, kind) {
  if (kind !== 'error') retries.clear();
  el.status.replaceChildren(...[].concat(text).filter((c) => c !== null && c !== undefined && c !== false));
  ui.status = { text: el.status.textContent, kind: kind || 'info' };
  el.status.className = 'status' + (kind && kind !== 'info' ? ' ' + kind : '');
}

/** Keep an error for `state().errors` (the tests and debugging read them). */
export function noteError(what, err) {
  const code = (err && err.code) || 'error';
  const message = (err && err.message) || String(err);
  ui.errors.push({ what, code, message, status: err && err.status });
  if (ui.errors.length > 50) ui.errors.shift();
  return { code, message };
}

/** Say that `what` failed. The server out of reach is said once, however many requests failed with it, with how to
 * start it again and a Retry that does again each of them that said how (`again`); so is a token it refused (the
 * API's words name a header a person never typed), with a button that asks for the token again and does them again
 * (api.js forgot the refused token: the first of them asks). */
export function reportError(what, err, again) {
  if (err && err.name === 'AbortError') return;
  const { code, message } = noteError(what, err);
  if (code !== 'network' && code !== 'unauthorized') {
    setStatus([`${what} failed (${code}): `, said(message)], 'error');
    return;
  }
  if (again) retries.set(what, again);
  if (code === 'unauthorized') {  // (a refused action that said no `again`: the next one asks)
    const ask = retries.size ? h('button', { type: 'button', class: 'retry', onclick: retryAll }, 'Enter the token')
      : null;
    setStatus(['This server wants the API token it was started with (MNEMON_HTTP_TOKEN), and the one given was ' +
      'refused or none was given. ', ask ? [ask, '.'] : 'The next action asks for it again.'].flat(), 'error');
    return;
  }
  const retry = retries.size ? h('button', { type: 'button', class: 'retry', onclick: retryAll }, 'Retry') : null;
  setStatus([`Cannot reach the mnemon server at ${location.host}: it may have stopped. Start it again (`,
    h('code', null, 'mnemon serve'), ', with the options it had), then ', retry || 'try again', '.'], 'error');
}

function retryAll() {
  const again = [...retries.values()];
  setStatus('Trying again…', 'busy');
  for (const run of again) run();
}

window.addEventListener('error', (e) => reportError('Script', { code: 'script', message: e.message }));
window.addEventListener('unhandledrejection', (e) => reportError('Request', e.reason));
