/* mnemon graph workbench: a read-only view of the memory graph over the HTTP API (`mnemon serve`).
 *
 * No build step, no dependencies: three ES modules, this one (state, API calls, drawing, pointer and keyboard
 * input, search), layout.js (the capped force simulation) and details.js (the details panel). Every URL is
 * relative (`api/graph`, `./layout.js`), so the page works under any `--mount` prefix. The simulation runs in
 * slices of ~12 ms per animation frame and stops when settled; drawing culls what is off screen.
 * `window.workbench` exposes the live state for tests and debugging.
 */
import { excerpt, h, linkDetails, nodeDetails } from './details.js';
import { placeNew, Simulation } from './layout.js';

// ---------------------------------------------------------------- DOM
const $ = (id) => document.getElementById(id);
const el = {
  canvas: $('graph'), status: $('status'), counts: $('counts'), details: $('details'), legend: $('legend'),
  empty: $('empty'), focusLabel: $('focus-label'), search: $('search'), q: $('q'), results: $('results'),
  resultsBox: $('results-box'), resultsTitle: $('results-title'), resultsClose: $('results-close'),
  limits: $('limits'), maxNodes: $('max-nodes'), maxLinks: $('max-links'), depth: $('depth'),
  showCandidates: $('show-candidates'), showKilled: $('show-killed'), overview: $('overview'), frame: $('frame'),
};
const ctx = el.canvas.getContext('2d');

// ---------------------------------------------------------------- state
const G = { nodes: [], links: [], byId: new Map(), focus: null, truncated: false, stats: null, buckets: {} };
const view = { x: 0, y: 0, k: 1 };
const sim = new Simulation();
const ui = {
  autoFrame: true, selected: null, hover: null, status: { text: '', kind: 'busy' }, errors: [], requests: [],
  loading: false, drawn: { nodes: 0, links: 0, labels: 0 }, size: { w: 0, h: 0, dpr: 1 }, storeTotals: null,
  perf: { tickMs: 0, drawMs: 0, sliceMs: 0, frames: 0, lastFrame: 0 },
};
let colours = {};

// ---------------------------------------------------------------- status line
function setStatus(text, kind) {
  ui.status = { text, kind: kind || 'info' };
  el.status.textContent = text;
  el.status.className = 'status' + (kind && kind !== 'info' ? ' ' + kind : '');
}

function reportError(what, err) {
  if (err && err.name === 'AbortError') return;
  const code = (err && err.code) || 'error';
  const message = (err && err.message) || String(err);
  ui.errors.push({ what, code, message, status: err && err.status });
  if (ui.errors.length > 50) ui.errors.shift();
  setStatus(`${what} failed (${code}): ${message}`, 'error');
}

window.addEventListener('error', (e) => reportError('Script', { code: 'script', message: e.message }));
window.addEventListener('unhandledrejection', (e) => reportError('Request', e.reason));

// ---------------------------------------------------------------- API
class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
  }
}

// A server started with a token (MNEMON_HTTP_TOKEN) answers 401 until the page sends it: asked once, kept for the tab.
const TOKEN_KEY = 'mnemon-token';

function authHeaders() {
  const token = sessionStorage.getItem(TOKEN_KEY);
  return token ? { Accept: 'application/json', Authorization: 'Bearer ' + token } : { Accept: 'application/json' };
}

/** GET api/<name>?params → the payload; the error envelope (or any non-JSON answer) becomes an ApiError. */
async function api(name, params, signal, retried) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params || {})) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  }
  const url = 'api/' + name + (query.toString() ? '?' + query : '');
  ui.requests.push(url);
  if (ui.requests.length > 100) ui.requests.shift();
  let response;
  try {
    response = await fetch(url, { headers: authHeaders(), signal });
  } catch (err) {
    if (err && err.name === 'AbortError') throw err;
    throw new ApiError('network', `cannot reach the server (${err && err.message})`, 0);
  }
  if (response.status === 401 && !retried) {
    const token = window.prompt('This mnemon server needs its API token (MNEMON_HTTP_TOKEN):');
    if (token) {
      sessionStorage.setItem(TOKEN_KEY, token.trim());
      return api(name, params, signal, true);
    }
  }
  const text = await response.text();
  let body = null;
  try { body = JSON.parse(text); } catch (_) { body = null; }
  if (response.ok && body !== null && !(body && body.ok === false)) return body;
  const error = body && body.error;
  if (error && typeof error === 'object') {
    throw new ApiError(error.code || `http_${response.status}`, error.message || response.statusText, response.status);
  }
  if (typeof error === 'string') throw new ApiError(body.code || `http_${response.status}`, error, response.status);
  const message = excerpt(text, 200) || response.statusText || 'not JSON';
  throw new ApiError(`http_${response.status}`, message, response.status);
}

// ---------------------------------------------------------------- colours
const NODE_COLOURS = {
  note: '#4e79a7', person: '#e15759', project: '#2a9d8f', place: '#8f6bb3', decision: '#d4a017',
  observation: '#59a14f', task: '#f28e2b', section: '#8d939c', memory: '#7ab86c', heading: '#9c755f',
  date: '#b07aa1', tag: '#5fb3ad', email: '#c9a227', placeholder: '#bdb6b0', other: '#8c8c8c',
};

function groupOf(node) {
  if (node.kind === 'note') return ['person', 'project', 'place', 'decision'].includes(node.type) ? node.type : 'note';
  if (node.kind === 'memory') return ['observation', 'task', 'section'].includes(node.type) ? node.type : 'memory';
  return NODE_COLOURS[node.kind] ? node.kind : 'other';
}

function readColours() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  colours = {
    accent: v('--accent'), text: v('--text'), muted: v('--muted'), active: v('--link-active'),
    candidate: v('--link-candidate'), killed: v('--link-killed'), label: v('--label'), halo: v('--label-halo'),
    nodeStroke: v('--node-stroke'),
  };
}

// ---------------------------------------------------------------- graph data
function radiusOf(node) {
  return 4.5 + Math.min(9, Math.sqrt(Math.max(0, node.degree || 0)) * 1.6);
}

/** Replace the drawn graph, keeping the positions of nodes that stay (so a refocus does not scramble the map). */
function setGraph(data) {
  const old = G.byId;
  const nodes = (data.nodes || []).map((n) => {
    const prev = old.get(n.id);
    const node = {
      id: n.id, title: n.title || n.id, kind: n.kind || 'node', type: n.type || n.kind || '', degree: n.degree || 0,
      source_path: n.source_path || null, x: 0, y: 0, vx: 0, vy: 0, fx: null, fy: null, placed: false, links: 0,
    };
    node.group = groupOf(node);
    node.r = radiusOf(node) + (n.id === data.focus ? 3 : 0);
    if (prev) { node.x = prev.x; node.y = prev.y; node.placed = true; }
    return node;
  });
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const links = [];
  for (const l of data.links || []) {
    const s = byId.get(l.src);
    const t = byId.get(l.dst);
    if (!s || !t || s === t) continue;
    s.links++;
    t.links++;
    links.push({
      id: l.id, src: l.src, dst: l.dst, type: l.type || '', status: l.status || 'active', category: l.category || '',
      weight: l.weight, confidence: l.confidence, s, t,
    });
  }
  for (const l of links) {
    l.strength = 1 / Math.min(l.s.links, l.t.links);
    l.bias = l.s.links / (l.s.links + l.t.links);
    l.length = 26 + l.s.r + l.t.r;
  }
  placeNew(nodes, links);
  G.nodes = nodes;
  G.links = links;
  G.byId = byId;
  G.focus = data.focus || null;
  G.truncated = !!data.truncated;
  G.stats = data.stats || null;
  G.buckets = { active: [], candidate: [], killed: [] };
  for (const l of links) (G.buckets[l.status] || G.buckets.candidate).push(l);
  G.labelOrder = nodes.slice().sort((a, b) =>
    (b.kind === 'note') - (a.kind === 'note') || b.degree - a.degree || (a.id < b.id ? -1 : 1));
  const kept = nodes.filter((n) => n.placed && old.has(n.id)).length;
  startSimulation(kept > nodes.length / 2 ? 0.5 : 1, 300);
  ui.autoFrame = true;
  ui.hover = null;
  renderChrome();
}

function startSimulation(alpha, ticks) {
  sim.start(alpha, ticks, G.nodes.length > 0);
  requestDraw();
}

// ---------------------------------------------------------------- view
function canvasSize() {
  return { w: ui.size.w || el.canvas.clientWidth || 1, h: ui.size.h || el.canvas.clientHeight || 1 };
}

/** The transform that fits every node (with its radius) in the canvas, with a margin. */
function fitTransform() {
  const { w, h } = canvasSize();
  if (!G.nodes.length) return { x: w / 2, y: h / 2, k: 1 };
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const n of G.nodes) {
    x0 = Math.min(x0, n.x - n.r); y0 = Math.min(y0, n.y - n.r);
    x1 = Math.max(x1, n.x + n.r); y1 = Math.max(y1, n.y + n.r);
  }
  const pad = Math.min(48, Math.min(w, h) / 8);
  const k = clampScale(Math.min((w - 2 * pad) / Math.max(x1 - x0, 1), (h - 2 * pad) / Math.max(y1 - y0, 1), 2.2));
  return { x: w / 2 - (x0 + x1) / 2 * k, y: h / 2 - (y0 + y1) / 2 * k, k };
}

function clampScale(k) { return Math.min(8, Math.max(0.02, k)); }

function frame() {
  Object.assign(view, fitTransform());
  ui.autoFrame = true;
  requestDraw();
}

function zoomAt(sx, sy, factor) {
  const k = clampScale(view.k * factor);
  const wx = (sx - view.x) / view.k;
  const wy = (sy - view.y) / view.k;
  view.x = sx - wx * k;
  view.y = sy - wy * k;
  view.k = k;
  ui.autoFrame = false;
  requestDraw();
}

function toWorld(sx, sy) { return { x: (sx - view.x) / view.k, y: (sy - view.y) / view.k }; }
function toScreen(wx, wy) { return { x: view.x + wx * view.k, y: view.y + wy * view.k }; }

function linkVisible(l) { return l.status !== 'killed' || el.showKilled.checked; }

/** The node under a screen point (nodes win), else the nearest link within a few pixels, else null. */
function hitTest(sx, sy) {
  const p = toWorld(sx, sy);
  const slack = 3 / view.k;
  let best = null;
  let bestD = Infinity;
  for (let i = G.nodes.length - 1; i >= 0; i--) {
    const n = G.nodes[i];
    const d = Math.hypot(n.x - p.x, n.y - p.y);
    if (d <= n.r + slack && d - n.r < bestD) { best = n; bestD = d - n.r; }
  }
  if (best) return { node: best };
  const reach = 5 / view.k;
  let link = null;
  let linkD = reach;
  for (const l of G.links) {
    if (!linkVisible(l)) continue;
    const d = segmentDistance(p.x, p.y, l.s.x, l.s.y, l.t.x, l.t.y);
    if (d <= linkD) { link = l; linkD = d; }
  }
  return link ? { link } : null;
}

function segmentDistance(px, py, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

// ---------------------------------------------------------------- drawing
let drawQueued = false;

function requestDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(step);
}

/** One animation frame: a slice of simulation ticks, then a draw. The slice is ~12 ms, or as long as the browser
 * took to paint the last frame (up to 80 ms) when painting is slow (a software canvas with thousands of links), so
 * the layout still settles in a second or two instead of being held back by the frame rate. */
function step(now) {
  drawQueued = false;
  const gap = ui.perf.lastFrame ? now - ui.perf.lastFrame : 0;
  ui.perf.lastFrame = now;
  if (sim.running) {
    const painting = gap - ui.perf.sliceMs - ui.perf.drawMs;
    const budget = Math.min(80, Math.max(12, painting));
    const start = performance.now();
    const before = sim.ticks;
    do sim.tick(G.nodes, G.links); while (sim.running && performance.now() - start < budget);
    ui.perf.sliceMs = performance.now() - start;
    ui.perf.tickMs = ui.perf.sliceMs / Math.max(1, sim.ticks - before);
    if (ui.autoFrame) Object.assign(view, fitTransform());
  } else {
    ui.perf.sliceMs = 0;
  }
  const start = performance.now();
  draw();
  ui.perf.drawMs = performance.now() - start;
  ui.perf.frames++;
  if (sim.running) requestDraw();
  else ui.perf.lastFrame = 0;
}

function resize() {
  const rect = el.canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  ui.size = { w: Math.max(1, rect.width), h: Math.max(1, rect.height), dpr };
  el.canvas.width = Math.round(ui.size.w * dpr);
  el.canvas.height = Math.round(ui.size.h * dpr);
  if (ui.autoFrame) Object.assign(view, fitTransform());
  draw();
}

function draw() {
  const { w, h, dpr } = ui.size;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const drawn = { nodes: 0, links: 0, labels: 0 };
  ui.drawn = drawn;
  if (!G.nodes.length) return;
  const k = view.k;
  const margin = 16 / k;
  const vx0 = -view.x / k - margin;
  const vy0 = -view.y / k - margin;
  const vx1 = (w - view.x) / k + margin;
  const vy1 = (h - view.y) / k + margin;
  const onScreen = (x0, y0, x1, y1) => x1 >= vx0 && x0 <= vx1 && y1 >= vy0 && y0 <= vy1;
  ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * view.x, dpr * view.y);
  ctx.lineCap = 'round';

  const selectedLink = ui.selected && ui.selected.type === 'link' ? ui.selected.id : null;
  const selectedNode = ui.selected && ui.selected.type === 'node' ? ui.selected.id : null;
  const lit = new Set([selectedNode, ui.hover && ui.hover.id].filter(Boolean));
  const highlighted = [];
  const styles = [
    ['killed', colours.killed, [1.5 / k, 3.5 / k], 1.1],
    ['candidate', colours.candidate, [5 / k, 4 / k], 1.1],
    ['active', colours.active, [], 1.5],
  ];
  const arrows = G.links.length <= 1500 && k > 0.55;
  for (const [status, colour, dash, width] of styles) {
    if (status === 'killed' && !el.showKilled.checked) continue;
    const bucket = G.buckets[status] || [];
    ctx.beginPath();
    const heads = [];
    for (const l of bucket) {
      const s = l.s;
      const t = l.t;
      if (!onScreen(Math.min(s.x, t.x), Math.min(s.y, t.y), Math.max(s.x, t.x), Math.max(s.y, t.y))) continue;
      drawn.links++;
      if (l.id === selectedLink || lit.has(s.id) || lit.has(t.id)) highlighted.push(l);
      ctx.moveTo(s.x, s.y);
      ctx.lineTo(t.x, t.y);
      if (arrows) heads.push(l);
    }
    ctx.setLineDash(dash);
    ctx.strokeStyle = colour;
    ctx.lineWidth = width / k;
    ctx.stroke();
    if (heads.length) {
      ctx.setLineDash([]);
      ctx.fillStyle = colour;
      ctx.beginPath();
      for (const l of heads) arrowHead(l, 6 / k);
      ctx.fill();
    }
  }
  ctx.setLineDash([]);
  if (highlighted.length) {
    ctx.strokeStyle = colours.accent;
    for (const l of highlighted) {
      ctx.lineWidth = (l.id === selectedLink ? 3 : 2) / k;
      ctx.setLineDash(l.status === 'active' ? [] : [5 / k, 4 / k]);
      ctx.beginPath();
      ctx.moveTo(l.s.x, l.s.y);
      ctx.lineTo(l.t.x, l.t.y);
      ctx.stroke();
    }
    ctx.setLineDash([]);
  }

  const visible = [];
  ctx.lineWidth = 1.5 / k;
  ctx.strokeStyle = colours.nodeStroke;
  for (const n of G.nodes) {
    if (!onScreen(n.x - n.r, n.y - n.r, n.x + n.r, n.y + n.r)) continue;
    drawn.nodes++;
    visible.push(n);
    ctx.beginPath();
    ctx.arc(n.x, n.y, n.r, 0, Math.PI * 2);
    ctx.fillStyle = NODE_COLOURS[n.group] || NODE_COLOURS.other;
    ctx.fill();
    ctx.stroke();
  }
  const ring = (id, colour, gap, width) => {
    const n = id && G.byId.get(id);
    if (!n) return;
    ctx.beginPath();
    ctx.arc(n.x, n.y, n.r + gap / k, 0, Math.PI * 2);
    ctx.strokeStyle = colour;
    ctx.lineWidth = width / k;
    ctx.stroke();
  };
  ring(G.focus, colours.text, 3, 1.5);
  ring(selectedNode, colours.accent, 3, 2.5);
  if (ui.hover && ui.hover.id !== selectedNode) ring(ui.hover.id, colours.muted, 2, 1.5);

  drawLabels(visible, drawn, lit);
}

function arrowHead(l, size) {
  const dx = l.t.x - l.s.x;
  const dy = l.t.y - l.s.y;
  const d = Math.hypot(dx, dy);
  if (d < l.t.r + l.s.r + size) return;
  const ux = dx / d;
  const uy = dy / d;
  const tipX = l.t.x - ux * (l.t.r + 1 / view.k);
  const tipY = l.t.y - uy * (l.t.r + 1 / view.k);
  ctx.moveTo(tipX, tipY);
  ctx.lineTo(tipX - ux * size - uy * size * 0.45, tipY - uy * size + ux * size * 0.45);
  ctx.lineTo(tipX - ux * size + uy * size * 0.45, tipY - uy * size - ux * size * 0.45);
  ctx.closePath();
}

/** Labels in screen pixels, most important first, skipping any that would overlap one already drawn. */
function drawLabels(visible, drawn, lit) {
  const { dpr } = ui.size;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  const shown = new Set(visible.map((n) => n.id));
  const first = [G.focus, ...lit].filter((id) => id && shown.has(id)).map((id) => G.byId.get(id));
  const crowded = visible.length > 120;
  const boxes = [];
  const cap = 260;
  for (const n of first.concat(G.labelOrder)) {
    if (drawn.labels >= cap) break;
    if (!shown.has(n.id)) continue;
    const important = first.includes(n);
    if (!important && (n.r * view.k < 4 || (crowded && n.kind !== 'note' && view.k < 1.3))) continue;
    const p = toScreen(n.x, n.y);
    const text = excerpt(n.title, important ? 60 : 30);
    const width = ctx.measureText(text).width;
    if (boxes.some((b) => b.id === n.id)) continue;
    const gap = n.r * view.k + 4;
    const right = { x0: p.x + gap, x1: p.x + gap + width, y0: p.y - 8, y1: p.y + 8, id: n.id };
    const left = { x0: p.x - gap - width, x1: p.x - gap, y0: p.y - 8, y1: p.y + 8, id: n.id };
    const free = (box) => !boxes.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1);
    const box = important || free(right) ? right : free(left) ? left : null;
    if (!box) continue;
    boxes.push(box);
    ctx.lineWidth = 3;
    ctx.strokeStyle = colours.halo;
    ctx.strokeText(text, box.x0, p.y);
    ctx.fillStyle = important ? colours.text : colours.label;
    ctx.fillText(text, box.x0, p.y);
    drawn.labels++;
  }
}

// ---------------------------------------------------------------- chrome around the canvas
function renderChrome() {
  const groups = new Map();
  for (const n of G.nodes) groups.set(n.group, (groups.get(n.group) || 0) + 1);
  const statuses = new Set(G.links.filter(linkVisible).map((l) => l.status));
  el.legend.replaceChildren(
    ...[...groups.keys()].sort().map((g) =>
      h('li', null, h('span', { class: 'dot', style: `background:${NODE_COLOURS[g]}` }), g)),
    ...['active', 'candidate', 'killed'].filter((s) => statuses.has(s)).map((s) =>
      h('li', null, h('span', { class: 'line ' + s }), s)),
  );
  el.empty.hidden = G.nodes.length > 0 || ui.loading;
  el.empty.textContent = G.focus === null && !ui.errors.length
    ? 'Nothing to draw: the store has no graph yet (mnemon ingest --vault PATH).'
    : 'Nothing to draw.';
  const focus = G.focus && G.byId.get(G.focus);
  el.focusLabel.hidden = !focus;
  el.focusLabel.textContent = focus ? `Focus: ${excerpt(focus.title, 70)}` : '';
  renderCounts();
}

function renderCounts() {
  const visibleLinks = G.links.filter(linkVisible).length;
  const parts = [`${G.nodes.length} nodes`, `${visibleLinks} links`];
  if (G.truncated) parts.push('cut by the limits');
  if (ui.storeTotals) parts.push(`store: ${ui.storeTotals}`);
  el.counts.textContent = parts.join(' · ');
}

// ---------------------------------------------------------------- loading
let graphSeq = 0;
let graphAbort = null;

function limit(input, fallback) {
  const min = Number(input.min);
  const max = Number(input.max);
  let value = Math.round(Number(input.value));
  if (!Number.isFinite(value) || input.value === '') value = fallback;
  value = Math.min(max, Math.max(min, value));
  if (String(value) !== input.value) input.value = String(value);
  return value;
}

async function loadGraph(focus) {
  const seq = ++graphSeq;
  if (graphAbort) graphAbort.abort();
  graphAbort = new AbortController();
  const params = {
    max_nodes: limit(el.maxNodes, 150),
    max_links: limit(el.maxLinks, 600),
    include_candidates: el.showCandidates.checked,
  };
  if (el.showKilled.checked) params.include_killed = true;
  if (focus) {
    params.focus = focus;
    params.depth = limit(el.depth, 1);
  }
  ui.loading = true;
  setStatus(focus ? `Loading the graph around ${focus}…` : 'Loading the overview…', 'busy');
  try {
    const data = await api('graph', params, graphAbort.signal);
    if (seq !== graphSeq) return;
    ui.loading = false;
    setGraph(data);
    const hash = data.focus ? '#focus=' + encodeURIComponent(data.focus) : '';
    if (location.hash !== hash) history.replaceState(null, '', hash || location.pathname + location.search);
    const shown = data.focus ? G.byId.get(data.focus) : null;
    setStatus(shown ? `Focused on “${excerpt(shown.title, 60)}”.` : data.focus ? `Focused on ${data.focus}.` :
      'Overview: the best-connected notes. Double-click a node to focus on it.');
  } catch (err) {
    if (seq !== graphSeq) return;
    ui.loading = false;
    reportError('Graph', err);
    renderChrome();
  }
}

function focusFromHash() {
  const match = /^#focus=(.+)$/.exec(location.hash);
  if (!match) return null;
  try { return decodeURIComponent(match[1]); } catch (_) { return null; }
}

async function loadStoreTotals() {
  try {
    const s = await api('status');
    const edges = Object.values(s.edges_by_status || {}).reduce((a, b) => a + (Number(b) || 0), 0);
    ui.storeTotals = `${s.total_insights ?? '?'} memories, ${edges} edges`;
    renderCounts();
  } catch (err) {
    reportError('Status', err);
  }
}

// ---------------------------------------------------------------- details panel
let detailsSeq = 0;

function select(sel) {
  ui.selected = sel;
  requestDraw();
}

function titleOf(id) {
  const n = G.byId.get(id);
  return n ? n.title : id;
}

/** Replace the panel's content; null and false entries are skipped (replaceChildren would print "null"). */
function setDetails(...children) {
  el.details.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

function detailsLoading(text) {
  el.details.replaceChildren(h('p', { class: 'muted' }, text));
}

async function showNode(id) {
  const seq = ++detailsSeq;
  select({ type: 'node', id });
  detailsLoading(`Loading ${id}…`);
  try {
    const memory = await api('show', { id });
    if (seq !== detailsSeq) return;
    renderNode(memory, id);
  } catch (err) {
    if (seq !== detailsSeq) return;
    detailsLoading(`Could not load ${id}.`);
    reportError('Details', err);
  }
}

function renderNode(m, id) {
  setDetails(nodeDetails(m, id, {
    graphNode: G.byId.get(m.id || id), focus: G.focus, titleOf, showLink, focusOn: loadGraph,
  }));
}

async function showLink(id) {
  const seq = ++detailsSeq;
  select({ type: 'link', id });
  detailsLoading(`Loading edge ${id}…`);
  try {
    const explained = await api('explain_edge', { id });
    if (seq !== detailsSeq) return;
    renderLink(explained, id);
  } catch (err) {
    if (seq !== detailsSeq) return;
    detailsLoading(`Could not load edge ${id}.`);
    reportError('Edge', err);
  }
}

function renderLink(x, id) {
  const e = x.edge || x;
  setDetails(linkDetails(x, id, {
    drawnLink: G.links.find((l) => l.id === (e.id ?? id)), titleOf, showNode, focusOn: loadGraph,
  }));
}

function clearSelection() {
  detailsSeq++;
  select(null);
  el.details.replaceChildren(h('p', { class: 'muted' }, 'Click a node or a link.'));
}

// ---------------------------------------------------------------- search
async function runSearch(query) {
  setStatus(`Searching for “${query}”…`, 'busy');
  try {
    let data = await api('recall', { query, limit: 20 });
    let items = (data.results || []).map((r) => ({
      id: (r.insight && r.insight.id) || r.id,
      text: (r.insight && r.insight.content) || r.content || r.title || '',
    }));
    let how = 'recall';
    if (!items.length) { // recall found nothing: plain keyword matches are still worth listing
      data = await api('search', { query, limit: 20 });
      items = (data.results || []).map((r) => ({ id: r.id, text: r.content || r.title || '' }));
      how = 'keyword search';
    }
    items = items.filter((it) => it.id);
    el.resultsBox.hidden = false;
    el.resultsTitle.textContent = `Results for “${excerpt(query, 40)}”`;
    el.results.replaceChildren(...(items.length ? items.map((it) => h('li', null,
      h('button', { type: 'button', 'data-id': it.id, onclick: () => { loadGraph(it.id); showNode(it.id); } },
        excerpt(it.text || it.id, 140), h('span', { class: 'rid' }, it.id)))) :
      [h('li', { class: 'muted' }, 'No matches.')]));
    setStatus(`${items.length} result${items.length === 1 ? '' : 's'} for “${query}” (${how}).`);
  } catch (err) {
    reportError('Search', err);
  }
}

// ---------------------------------------------------------------- pointer, wheel and keys
const pointers = new Map();
let gesture = null;
let lastTap = null;

function local(e) {
  const rect = el.canvas.getBoundingClientRect();
  return { x: e.clientX - rect.left, y: e.clientY - rect.top };
}

function pinchInfo() {
  const [a, b] = [...pointers.values()];
  return { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
}

function releaseNode(g) {
  if (g && g.type === 'node') { g.node.fx = null; g.node.fy = null; }
}

el.canvas.addEventListener('pointerdown', (e) => {
  if (e.pointerType === 'mouse' && e.button !== 0) return;
  try { el.canvas.setPointerCapture(e.pointerId); } catch (_) { /* a pointer already gone: nothing to capture */ }
  const p = local(e);
  pointers.set(e.pointerId, p);
  if (pointers.size === 2) {
    releaseNode(gesture);
    gesture = { type: 'pinch', ...pinchInfo() };
    return;
  }
  if (pointers.size > 2) return;
  const hit = hitTest(p.x, p.y);
  gesture = { type: hit && hit.node ? 'node' : 'pan', hit, node: hit && hit.node, start: p, last: p, moved: false };
  if (gesture.node) { gesture.node.fx = gesture.node.x; gesture.node.fy = gesture.node.y; }
});

el.canvas.addEventListener('pointermove', (e) => {
  const p = local(e);
  if (!pointers.has(e.pointerId)) {
    if (e.pointerType === 'mouse') hover(p);
    return;
  }
  pointers.set(e.pointerId, p);
  if (!gesture) return;
  if (gesture.type === 'pinch') {
    if (pointers.size < 2) return;
    const now = pinchInfo();
    view.x += now.mid.x - gesture.mid.x;
    view.y += now.mid.y - gesture.mid.y;
    zoomAt(now.mid.x, now.mid.y, now.dist / gesture.dist);
    Object.assign(gesture, now);
    return;
  }
  if (!gesture.moved && Math.hypot(p.x - gesture.start.x, p.y - gesture.start.y) > 4) {
    gesture.moved = true;
    el.canvas.classList.add('dragging');
  }
  if (gesture.moved) {
    if (gesture.node) {
      const w = toWorld(p.x, p.y);
      gesture.node.fx = w.x;
      gesture.node.fy = w.y;
      startSimulation(0.25, 150);
    } else {
      view.x += p.x - gesture.last.x;
      view.y += p.y - gesture.last.y;
      requestDraw();
    }
    ui.autoFrame = false;
  }
  gesture.last = p;
});

function pointerEnd(e) {
  if (!pointers.has(e.pointerId)) return;
  pointers.delete(e.pointerId);
  el.canvas.classList.remove('dragging');
  if (!gesture) return;
  if (gesture.type === 'pinch') {
    const rest = [...pointers.values()][0];
    gesture = rest ? { type: 'pan', hit: null, node: null, start: rest, last: rest, moved: true } : null;
    return;
  }
  const g = gesture;
  gesture = null;
  releaseNode(g);
  if (g.moved || e.type !== 'pointerup') return;
  const p = local(e);
  if (e.pointerType !== 'mouse') { // touch and pen: a second tap soon after, nearby, is a double-tap
    const now = performance.now();
    if (lastTap && now - lastTap.t < 350 && Math.hypot(p.x - lastTap.p.x, p.y - lastTap.p.y) < 24) {
      lastTap = null;
      doubleAt(p);
      return;
    }
    lastTap = { t: now, p };
  }
  if (g.hit && g.hit.node) showNode(g.hit.node.id);
  else if (g.hit && g.hit.link) showLink(g.hit.link.id);
}

el.canvas.addEventListener('pointerup', pointerEnd);
el.canvas.addEventListener('pointercancel', pointerEnd);
el.canvas.addEventListener('pointerleave', () => {
  if (ui.hover && !pointers.size) { ui.hover = null; requestDraw(); }
});
el.canvas.addEventListener('dblclick', (e) => { e.preventDefault(); doubleAt(local(e)); });

function doubleAt(p) {
  const hit = hitTest(p.x, p.y);
  if (hit && hit.node) loadGraph(hit.node.id);
  else frame();
}

function hover(p) {
  const hit = hitTest(p.x, p.y);
  const node = hit && hit.node ? hit.node : null;
  el.canvas.classList.toggle('over-item', !!hit);
  el.canvas.title = hit ? (hit.node ? hit.node.title : `${hit.link.type} (${hit.link.status})`) : '';
  if (node !== ui.hover) { ui.hover = node; requestDraw(); }
}

el.canvas.addEventListener('wheel', (e) => {
  e.preventDefault();
  const p = local(e);
  const dy = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1);
  zoomAt(p.x, p.y, Math.exp(-dy * (e.ctrlKey ? 0.01 : 0.0015)));
}, { passive: false });

el.canvas.addEventListener('keydown', (e) => {
  const { w, h: height } = canvasSize();
  const pan = (dx, dy) => { view.x += dx; view.y += dy; ui.autoFrame = false; requestDraw(); };
  switch (e.key) {
    case 'ArrowLeft': pan(40, 0); break;
    case 'ArrowRight': pan(-40, 0); break;
    case 'ArrowUp': pan(0, 40); break;
    case 'ArrowDown': pan(0, -40); break;
    case '+': case '=': zoomAt(w / 2, height / 2, 1.25); break;
    case '-': case '_': zoomAt(w / 2, height / 2, 0.8); break;
    case '0': case 'f': frame(); break;
    case 'Escape': clearSelection(); break;
    default: return;
  }
  e.preventDefault();
});

document.addEventListener('keydown', (e) => {
  const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement && document.activeElement.tagName);
  if (e.key === '/' && !typing) { e.preventDefault(); el.q.focus(); el.q.select(); }
});

// ---------------------------------------------------------------- controls
el.search.addEventListener('submit', (e) => {
  e.preventDefault();
  const query = el.q.value.trim();
  if (query) runSearch(query);
  else setStatus('Type something to search for.', 'error');
});
el.resultsClose.addEventListener('click', () => { el.resultsBox.hidden = true; });
el.limits.addEventListener('submit', (e) => { e.preventDefault(); loadGraph(G.focus); });
for (const input of [el.maxNodes, el.maxLinks, el.depth, el.showCandidates, el.showKilled]) {
  input.addEventListener('change', () => loadGraph(G.focus));
}
el.overview.addEventListener('click', () => loadGraph(null));
el.frame.addEventListener('click', frame);
window.addEventListener('hashchange', () => {
  const focus = focusFromHash();
  if (focus !== G.focus) loadGraph(focus);
});
window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => { readColours(); requestDraw(); });
new ResizeObserver(resize).observe(el.canvas);

// ---------------------------------------------------------------- test and debugging hook
function client(sx, sy) {
  const rect = el.canvas.getBoundingClientRect();
  return { x: rect.left + sx, y: rect.top + sy };
}

function inCanvas(p) {
  const { w, h: height } = canvasSize();
  return p.x > 2 && p.y > 2 && p.x < w - 2 && p.y < height - 2;
}

window.workbench = Object.freeze({
  /** The live state: what is loaded, what was drawn in the last frame, the view transform, the status line. */
  state() {
    return {
      nodes: G.nodes.length, links: G.links.length, visibleLinks: G.links.filter(linkVisible).length,
      focus: G.focus, truncated: G.truncated, stats: G.stats, view: { ...view }, autoFrame: ui.autoFrame,
      settled: !sim.running, ticks: sim.ticks, alpha: sim.alpha, drawn: { ...ui.drawn }, perf: { ...ui.perf },
      loading: ui.loading,
      selected: ui.selected && { ...ui.selected }, status: { ...ui.status }, errors: ui.errors.slice(),
      requests: ui.requests.slice(), canvas: { ...ui.size }, nodeIds: G.nodes.map((n) => n.id),
      linksByStatus: Object.fromEntries(Object.entries(G.buckets).map(([k, v]) => [k, v.map((l) => l.id)])),
    };
  },
  /** A node's centre in client (page) coordinates, or null. */
  nodePoint(id) {
    const n = G.byId.get(id);
    if (!n) return null;
    const p = toScreen(n.x, n.y);
    return client(p.x, p.y);
  },
  /** A link's midpoint in client coordinates, or null. */
  linkMidpoint(id) {
    const l = G.links.find((x) => x.id === id);
    if (!l) return null;
    const p = toScreen((l.s.x + l.t.x) / 2, (l.s.y + l.t.y) / 2);
    return client(p.x, p.y);
  },
  /** A visible link whose midpoint a click would pick (no node or other link in the way): {id, x, y}. */
  clickableLink() {
    for (const l of G.links) {
      if (!linkVisible(l)) continue;
      const p = toScreen((l.s.x + l.t.x) / 2, (l.s.y + l.t.y) / 2);
      const hit = inCanvas(p) && hitTest(p.x, p.y);
      if (hit && hit.link === l) return { id: l.id, ...client(p.x, p.y) };
    }
    return null;
  },
  /** A point on the canvas with nothing under it, in client coordinates. */
  emptyPoint() {
    const { w, h: height } = canvasSize();
    for (let gy = 0.1; gy < 1; gy += 0.1) {
      for (let gx = 0.05; gx < 1; gx += 0.05) {
        const sx = gx * w;
        const sy = gy * height;
        const world = toWorld(sx, sy);
        const clear = G.nodes.every((n) => Math.hypot(n.x - world.x, n.y - world.y) > n.r + 12 / view.k) &&
          !hitTest(sx, sy);
        if (clear) return client(sx, sy);
      }
    }
    return null;
  },
  fitTransform,
  focus: (id) => loadGraph(id),
  overview: () => loadGraph(null),
  frame,
  show: showNode,
  explain: showLink,
});

// ---------------------------------------------------------------- start
readColours();
resize();
loadGraph(focusFromHash());
loadStoreTotals();
