/* mnemon graph workbench: a view of the memory graph over the HTTP API (`mnemon serve`), and a review tool for its
 * edges when the server allows writes (`GET api` says `read_only: false`). This module loads the graph and turns it
 * into drawable nodes and links, fills the chrome around the canvas (legend, counts, focus label), the details panel
 * and the search results, runs the review actions, wires the controls, exposes `window.workbench`, and starts.
 *
 * No build step, no dependencies: plain ES modules, each about one thing —
 *   state.js   the page's elements and the shared state (graph, view, UI, colours, status line)
 *   api.js     GET api/<operation>, POST for writes, and their errors
 *   view.js    coordinates, hit testing, node labels, and the fit that frames nodes and labels
 *   draw.js    the render loop and the canvas drawing
 *   input.js   pointer, wheel and keyboard input on the canvas
 *   layout.js  the capped force simulation
 *   details.js the details panel's DOM, with the review controls
 *   forgetting.js forget with its preview, a removed memory's details, the Forgotten panel, and Undo
 * Every URL is relative (`api/graph`, `./layout.js`), so the page works under any `--mount` prefix. The simulation runs
 * in slices of ~12 ms per animation frame and stops when settled; drawing culls what is off screen.
 * `window.workbench` exposes the live state for tests and debugging.
 */
import { api, post, serverInfo } from './api.js';
import { excerpt, h, linkDetails, nodeDetails, renameEnds } from './details.js';
import { frame, requestDraw, resize, startSimulation } from './draw.js';
import { forgetControls, init as initForgetting, removedDetails, removedHow } from './forgetting.js';
import { listen } from './input.js';
import { placeNew } from './layout.js';
import {
  el, G, groupOf, linkVisible, NODE_COLOURS, noteError, readColours, reportError, said, setStatus, sim, ui, view,
} from './state.js';
import { bendParallelLinks, canvasSize, fitTransform, hitTest, linkPoint, toScreen, toWorld } from './view.js';

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
  bendParallelLinks(links);
  for (const l of links) {
    l.strength = 1 / Math.min(l.s.links, l.t.links);
    l.bias = l.s.links / (l.s.links + l.t.links);
    l.length = 26 + l.s.r + l.t.r;
  }
  placeNew(nodes, links);
  for (const n of nodes) keepTitle(n);
  G.nodes = nodes;
  G.links = links;
  G.byId = byId;
  G.focus = data.focus || null;
  G.folder = data.folder || null;
  G.folderNote = data.note || null;  // the note an empty folder's name is the path of
  G.loaded = true;
  G.truncated = !!data.truncated;
  G.stats = data.stats || null;
  rebucket();
  G.labelOrder = nodes.slice().sort((a, b) =>
    (b.kind === 'note') - (a.kind === 'note') || b.degree - a.degree || (a.id < b.id ? -1 : 1));
  const kept = nodes.filter((n) => n.placed && old.has(n.id)).length;
  startSimulation(kept > nodes.length / 2 ? 0.5 : 1, 300);
  ui.autoFrame = true;
  ui.hover = null;
  renderChrome();
}

// the title of every node a graph has drawn, kept after a later view leaves it out: the details of a node name the
// other ends of its edges from here (`show` gives their ids alone); the oldest go first past the bound
const knownTitles = new Map();
const KNOWN_TITLES_MAX = 20000;

function keepTitle(node) {
  if (node.title === node.id) return;
  knownTitles.delete(node.id);
  knownTitles.set(node.id, node.title);
  if (knownTitles.size > KNOWN_TITLES_MAX) knownTitles.delete(knownTitles.keys().next().value);
}

/** Sort the links into the drawing's buckets by status (after a load, or after a review changed a status). */
function rebucket() {
  G.buckets = { active: [], candidate: [], killed: [] };
  for (const l of G.links) (G.buckets[l.status] || G.buckets.candidate).push(l);
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
  el.empty.textContent = emptyText();
  const focus = G.focus && G.byId.get(G.focus);
  el.focusLabel.hidden = !focus;
  el.focusLabel.replaceChildren(...(focus ? ['Focus: ', h('bdi', null, excerpt(focus.title, 70))] : []));
  renderCounts();
}

/** Why the canvas is empty, from what the last successful load asked for (not from earlier errors): only the plain
 * overview comes back empty from an empty store, since without notes it falls back to the recent memories. */
function emptyText() {
  if (!G.loaded || G.focus) return 'Nothing to draw.';
  if (G.folder && G.folderNote) return `${G.folder.replace(/\/$/, '')} is a note, not a folder.`;
  if (G.folder) return `No notes under ${G.folder} (folder names are case-sensitive).`;
  return 'Nothing to draw: the store has no graph yet (mnemon ingest --vault PATH).';
}

/** `emptyText` for the status line: a folder that is a note's path offers to focus on the note. */
function emptyStatus() {
  const note = G.folder && G.folderNote;
  if (!note) return [said(emptyText())];
  const focusOnNote = () => { el.folder.value = ''; loadGraph(note.id); };
  return [said(G.folder.replace(/\/$/, '')), ' is a note, not a folder: ',
    h('button', { type: 'button', class: 'inline', onclick: focusOnNote }, 'Focus on ', said(excerpt(note.title, 60))),
    '.'];
}

/** "1 link", "2 links", "0 links"; "1 memory", "3 memories" with the plural given. */
function counted(n, noun, plural) {
  return `${n} ${n === 1 ? noun : plural || noun + 's'}`;
}

function renderCounts() {
  const visibleLinks = G.links.filter(linkVisible).length;
  const parts = [counted(G.nodes.length, 'node'), counted(visibleLinks, 'link')];
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

/** Load the graph around `focus` (or the overview, when null). A load the person asked for is a step in the tab's
 * history, so Back returns to the view before it; one the address asked for (the page opening on a #focus=, Back or
 * Forward, a hash typed in) is where history already is, and only corrects the address. `notice`: status parts to
 * say before what was drawn (why this is not what the address asked for). */
async function loadGraph(focus, fromAddress, notice) {
  const seq = ++graphSeq;
  if (graphAbort) graphAbort.abort();
  graphAbort = new AbortController();
  const params = {
    max_nodes: limit(el.maxNodes, 150),
    max_links: limit(el.maxLinks, 600),
    include_candidates: el.showCandidates.checked,
  };
  if (el.showKilled.checked) params.include_killed = true;
  const folder = el.folder.value.trim();
  if (focus) {
    params.focus = focus;
    params.depth = limit(el.depth, 1);
  } else if (folder) {
    params.folder = folder;  // the overview of one vault folder
  }
  ui.loading = true;
  setStatus(focus ? ['Loading the graph around ', said(focus), '…'] : 'Loading the overview…', 'busy');
  try {
    const data = await api('graph', params, graphAbort.signal);
    if (seq !== graphSeq) return;
    ui.loading = false;
    if (serverInfoFailed) loadServerInfo();
    setGraph(data);
    renameEnds(el.details, titleOf);  // details that `show` answered before this graph named the ends by id
    const hash = data.focus ? '#focus=' + encodeURIComponent(data.focus) : '';
    if (location.hash !== hash) {
      const url = hash || location.pathname + location.search;
      if (fromAddress) history.replaceState(null, '', url);
      else history.pushState(null, '', url);
    }
    const shown = data.focus ? G.byId.get(data.focus) : null;
    const drawn = shown ? ['Focused on “', said(excerpt(shown.title, 60)), '”.'] :
      data.focus ? ['Focused on ', said(data.focus), '.'] :
      !G.nodes.length ? emptyStatus() :
      data.folder ? ['Overview of ', said(data.folder),
        ': its best-connected notes. Double-click a node to focus on it.'] :
      `Overview: the best-connected ${G.nodes.some((n) => n.kind === 'note') ? 'notes' :
        'recent memories (the store has no notes)'}. Double-click a node to focus on it.`;
    setStatus(notice ? [...notice, ' ', ...[].concat(drawn)] : drawn);
  } catch (err) {
    if (seq !== graphSeq) return;
    ui.loading = false;
    if (focus && err && err.code === 'not_found') noFocus(focus, err);
    else reportError('Graph', err, () => loadGraph(focus, fromAddress, notice));
    renderChrome();
  }
}

/** A focus the store has no node for (an id typed in the address, a node deleted since it was listed): the address
 * goes back to what is drawn, and the status line says so in a person's words (the server's speak to a caller of
 * the API); a page that has drawn nothing yet draws the overview instead. */
function noFocus(focus, err) {
  noteError('Graph', err);
  const removed = err && err.details && err.details.removed_by;
  if (removed) showNode(focus);  // its details say when it went, with Undo where it can come back
  const missing = removed ? ['“', said(excerpt(titleOf(focus), 80)), `” was ${removedHow(removed)}`]
    : ['No node “', said(excerpt(focus, 80)), '” in this store'];
  if (!G.loaded) {
    loadGraph(null, true, [...missing, ': the overview is drawn instead.']);
    return;
  }
  const hash = G.focus ? '#focus=' + encodeURIComponent(G.focus) : '';
  if (location.hash !== hash) history.replaceState(null, '', hash || location.pathname + location.search);
  const drawn = G.focus && G.byId.get(G.focus);
  setStatus([...missing, ': still showing ', drawn ? ['“', said(excerpt(drawn.title, 60)), '”'] : 'the overview',
    '. Search above for a note by its name, or press Overview.'].flat(), 'error');
}

function focusFromHash() {
  const match = /^#focus=(.+)$/.exec(location.hash);
  if (!match) return null;
  try { return decodeURIComponent(match[1]); } catch (_) { return null; }
}

async function loadStoreTotals() {
  try {
    const s = await api('status');
    // the edges the page can draw: a forgotten memory's (retired) are in no graph view
    const byStatus = s.edges_by_status || {};
    const edges = ['active', 'candidate', 'killed'].reduce((a, k) => a + (Number(byStatus[k]) || 0), 0);
    const memories = s.total_insights ?? '?';
    ui.storeTotals = `${counted(memories, 'memory', 'memories')}, ${counted(edges, 'edge')}`;
    renderCounts();
  } catch (err) {
    reportError('Status', err, loadStoreTotals);
  }
}

// ---------------------------------------------------------------- details panel
let detailsSeq = 0;
let shownLink = null; // the explain_edge payload in the panel: re-rendered when the server turns out to allow writes
let shownNode = null; // likewise the node in the panel ({m} from show, or {removed}: show's not_found of a removed one)

function select(sel) {
  shownLink = null;
  shownNode = null;
  ui.selected = sel;
  requestDraw();
}

function titleOf(id) {
  const n = G.byId.get(id);
  return n ? n.title : knownTitles.get(id) || id;
}

/** Replace the panel's content; null and false entries are skipped (replaceChildren would print "null"). */
function setDetails(...children) {
  el.details.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

function detailsLoading(text) {
  el.details.replaceChildren(h('p', { class: 'muted' }, text));
}

/** Whether the keyboard is in the details panel: a node or edge opened from there replaces the button it pressed. */
function focusInDetails() {
  return el.details.contains(document.activeElement);
}

/** Put the keyboard back in the panel (its new heading) after its content was replaced under it, which leaves the
 * focus on <body>, where the next Tab starts again from the top of the page. Not if it has gone elsewhere since. */
function refocusDetails() {
  const active = document.activeElement;
  if (active && active !== document.body && !el.details.contains(active)) return;
  const heading = el.details.querySelector('h3') || el.details.querySelector('p');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
}

async function showNode(id) {
  const seq = ++detailsSeq;
  const keyboard = focusInDetails();
  select({ type: 'node', id });
  detailsLoading(`Loading ${id}…`);
  try {
    const memory = await api('show', { id });
    if (seq !== detailsSeq) return;
    renderNode(memory, id);
  } catch (err) {
    if (seq !== detailsSeq) return;
    if (err && err.code === 'not_found' && err.details && err.details.removed_by) renderRemoved(err, id);
    else {
      detailsLoading(`Could not load ${id}.`);
      reportError('Details', err, () => showNode(id));
    }
  }
  if (keyboard) refocusDetails();
}

function renderNode(m, id) {
  shownNode = { m, id };
  setDetails(nodeDetails(m, id, {
    graphNode: G.byId.get(m.id || id), focus: G.focus, titleOf, showLink, focusOn: loadGraph,
    forgetControls: ui.writable ? forgetControls : null,
  }));
}

function renderRemoved(err, id) {
  shownNode = { removed: err, id };
  resultRemoved(id, true);  // (removed since the search listed it: by this page, another one, the CLI)
  setDetails(removedDetails(id, err));
}

async function showLink(id) {
  const seq = ++detailsSeq;
  const keyboard = focusInDetails();
  select({ type: 'link', id });
  detailsLoading(`Loading edge ${id}…`);
  try {
    const explained = await api('explain_edge', { id });
    if (seq !== detailsSeq) return;
    renderLink(explained, id);
  } catch (err) {
    if (seq !== detailsSeq) return;
    detailsLoading(`Could not load edge ${id}.`);
    reportError('Edge', err, () => showLink(id));
  }
  if (keyboard) refocusDetails();
}

function renderLink(x, id) {
  const e = x.edge || x;
  shownLink = { x, id };
  setDetails(linkDetails(x, id, {
    drawnLink: G.links.find((l) => l.id === (e.id ?? id)), titleOf, showNode, focusOn: loadGraph,
    review: ui.writable ? (action, reason) => review(action, e.id ?? id, reason) : null,
  }));
}

function clearSelection() {
  detailsSeq++;
  select(null);
  el.details.replaceChildren(h('p', { class: 'muted' }, 'Click a node or a link.'));
}

// ---------------------------------------------------------------- reviewing edges (a server that allows writes)
const REVIEW = {
  validate: { op: 'validate_edge', doing: 'Validating', what: 'Validate', args: {} },
  weaken: { op: 'weaken_edge', doing: 'Weakening', what: 'Weaken', args: { factor: 0.5 } },
  kill: { op: 'kill_edge', doing: 'Killing', what: 'Kill', args: {} },
};

// `GET api` failed (a refused token, the server out of reach): asked again once a graph gets through, or a server that
// takes writes would show no review or Forget controls until the page was reloaded
let serverInfoFailed = false;

/** Whether this server takes writes, from `GET api` (at start): the review controls appear only if it does. */
async function loadServerInfo() {
  try {
    const info = await serverInfo();
    ui.writable = info.read_only === false;
    serverInfoFailed = false;
  } catch (err) {
    ui.writable = false;
    serverInfoFailed = true;
    reportError('Server info', err, loadServerInfo);
  }
  if (ui.writable && shownLink) renderLink(shownLink.x, shownLink.id);
  if (ui.writable && shownNode) {
    if (shownNode.m) renderNode(shownNode.m, shownNode.id);
    else renderRemoved(shownNode.removed, shownNode.id);
  }
}

/** "edge 12 (Lighthouse → Bram Okafor, links_to)" as status parts, each title isolated. */
function describeLink(l, id) {
  return l ? [`edge ${id} (`, said(excerpt(titleOf(l.src), 40)), ' → ', said(excerpt(titleOf(l.dst), 40)),
    `, ${l.type})`] : [`edge ${id}`];
}

/** Run one review action on an edge; then say what happened, redraw the link with its new status (a killed link
 * goes unless "killed" is ticked), and refresh its details. Errors go to the status line. */
async function review(action, id, reason) {
  const how = REVIEW[action];
  const link = G.links.find((l) => l.id === id);
  const name = describeLink(link, id);
  setStatus([`${how.doing} `, ...name, '…'], 'busy');
  let result;
  try {
    result = await post(how.op, { id, ...how.args, ...(reason ? { reason } : {}) });
  } catch (err) {
    reportError(how.what, err);
    return;
  }
  if (link && result.status) {
    link.status = result.status;
    if (typeof result.strength === 'number') link.weight = result.strength;
    rebucket();
    renderChrome();
    requestDraw();
  }
  let kind = 'info';
  let text;
  if (action === 'validate') {
    const why = Array.isArray(result.reasons) && result.reasons.length ? ` (${result.reasons.join(', ')})` : '';
    if (result.validated) text = ['Validated ', ...name, `: it is ${result.status} now.`];
    else { text = ['Not validated: ', ...name, ` stays ${result.status}${why}.`]; kind = 'error'; }
  } else if (action === 'weaken') {
    text = ['Weakened ', ...name, `: strength ${result.previous_strength} → ${result.strength}` +
      (result.status !== result.previous_status ? `, now ${result.status}.` : '.')];
  } else {
    text = ['Killed ', ...name, '.' + (el.showKilled.checked ? '' : ' Tick “killed” to see it.')];
  }
  setStatus(text, kind);
  await refreshLink(id, action);
}

/** Explain the edge again in place (no "Loading" flash), if it is still the one shown, and put the keyboard focus back
 * on the same review button if it is still there, else on the panel's heading. */
async function refreshLink(id, returnTo) {
  if (!ui.selected || ui.selected.type !== 'link' || ui.selected.id !== id) return;
  const seq = ++detailsSeq;
  try {
    const explained = await api('explain_edge', { id });
    if (seq !== detailsSeq) return;
    const hadFocus = el.details.contains(document.activeElement) || document.activeElement === document.body;
    renderLink(explained, id);
    if (!hadFocus) return;
    const again = el.details.querySelector(`.review button[data-action="${returnTo}"]`) ||
      el.details.querySelector('.review button') || el.details.querySelector('h3');
    if (again) {
      if (again.tagName === 'H3') again.tabIndex = -1;
      again.focus();
    }
  } catch (err) {
    if (seq !== detailsSeq) return;
    reportError('Edge', err);
  }
}

// ---------------------------------------------------------------- search
/** Why recall returned a result, as it says itself: its score and the signals that were not zero. */
function whyFound(r) {
  const signals = Object.entries(r.signals || {}).filter(([, v]) => Number(v) > 0)
    .map(([k, v]) => `${k} ${Number(v).toFixed(2)}`);
  if (r.score === undefined && !signals.length) return '';
  return [r.score !== undefined ? `score ${Number(r.score).toFixed(3)}` : null, ...signals].filter(Boolean).join(' · ');
}

/** The nodes whose title holds the query (any case), from the whole store, not only the drawn ones: notes first, then
 * headings, tags, people and the other named nodes (recall and search look in memory content only). */
async function matchingTitles(query) {
  const data = await api('find_nodes', { query, limit: 10 });
  return (data.nodes || []).map((n) => ({ id: n.id, text: n.title, why: `${n.type} · ${n.source_path || n.id}` }));
}

let searchSeq = 0;

/** The query as find_nodes and recall take it: they refuse one above 2,000 characters, the box's `maxlength`. A
 * paste cuts there; a value a script set is cut here, by code point as the server counts (never half an emoji).
 * `cut` when the box is full or was cut: the status then says only the first 2,000 were searched. */
function withinLimit(query) {
  const limit = el.q.maxLength > 0 ? el.q.maxLength : 2000;
  const chars = Array.from(query);
  if (chars.length > limit) return { query: chars.slice(0, limit).join('').trim(), cut: true, limit };
  return { query, cut: el.q.value.length >= limit, limit };
}

async function runSearch(asked) {
  // a search answered after a newer one was asked must not replace its results (nor its status)
  const seq = ++searchSeq;
  const { query, cut, limit } = withinLimit(asked);
  // (a pasted page of text would fill the status line and squash the canvas)
  const quoted = () => ['“', said(excerpt(query, 80)), '”'];
  setStatus(['Searching for ', ...quoted(), '…'], 'busy');
  try {
    // independent: neither waits for the other
    const [titled, recalled] = await Promise.all([matchingTitles(query), api('recall', { query, limit: 20 })]);
    if (seq !== searchSeq) return;
    let items = (recalled.results || []).map((r) => ({
      id: (r.insight && r.insight.id) || r.id,
      text: (r.insight && r.insight.content) || r.content || r.title || '',
      why: whyFound(r),
    }));
    // what recall said it could not do (no query vector: the model is down, the store has another's vectors)
    const warned = Array.isArray(recalled.warnings) ? recalled.warnings.map(String) : [];
    let how = 'recall';
    if (!items.length) { // recall found nothing: plain keyword matches are still worth listing
      const data = await api('search', { query, limit: 20 });
      if (seq !== searchSeq) return;
      items = (data.results || []).map((r) => ({ id: r.id, text: r.content || r.title || '' }));
      how = 'keyword search';
    }
    items = [...titled, ...items.filter((it) => it.id && !titled.some((n) => n.id === it.id))];
    el.resultsBox.hidden = false;
    el.resultsTitle.replaceChildren('Results for “', said(excerpt(query, 40)), '”');
    el.results.replaceChildren(...warned.map((w) => h('li', { class: 'warning', dir: 'auto' }, w)),
      ...(items.length ? items.map((it) => h('li', null,
      h('button', { type: 'button', 'data-id': it.id, onclick: () => { loadGraph(it.id); showNode(it.id); } },
        h('bdi', null, excerpt(it.text || it.id, 140)), it.why ? h('span', { class: 'why' }, it.why) : null,
        h('span', { class: 'rid' }, it.id)))) :
      [h('li', { class: 'muted' }, 'No matches.')]));
    setStatus([`${items.length} result${items.length === 1 ? '' : 's'} for `, ...quoted(),
      ` (${titled.length ? `${titled.length} by name, ` : ''}${how}).` +
      (warned.length ? ` Recall gave ${warned.length} warning${warned.length === 1 ? '' : 's'}: see the list.` : '') +
      (cut ? ` Only the first ${limit.toLocaleString('en')} characters were searched.` : '')]);
  } catch (err) {
    if (seq === searchSeq) reportError('Search', err, () => runSearch(asked));
  }
}

/** Mark the search result of `id` forgotten (or live again, after Undo): the list is what recall answered before. */
function resultRemoved(id, removed) {
  for (const button of el.results.querySelectorAll('button[data-id]')) {
    if (button.dataset.id !== id) continue;
    button.classList.toggle('removed', removed);
    const mark = button.querySelector('.removed-mark');
    if (removed && !mark) button.prepend(h('span', { class: 'badge killed removed-mark' }, 'forgotten'), ' ');
    if (!removed && mark) { mark.nextSibling.remove(); mark.remove(); }
  }
}

// ---------------------------------------------------------------- controls
listen({ showNode, showLink, focusOn: loadGraph, clearSelection });
initForgetting({ loadGraph, showNode, loadStoreTotals, focus: () => G.focus, titleOf, resultRemoved });
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
el.folder.addEventListener('change', () => loadGraph(null));  // a folder is an overview: it drops the focus
el.overview.addEventListener('click', () => { loadGraph(null); loadStoreTotals(); }); // (written to since?)
el.frame.addEventListener('click', frame);
window.addEventListener('hashchange', () => {
  const focus = focusFromHash();
  if (focus !== G.focus) loadGraph(focus, true);
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
      settled: !sim.running, ticks: sim.ticks, alpha: sim.alpha, perf: { ...ui.perf },
      drawn: { ...ui.drawn, overNodes: ui.drawn.overNodes.map((o) => ({ ...o })) },
      loading: ui.loading, writable: ui.writable,
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
  /** What a click at this client point would pick: {node: id} or {link: id}, or null. */
  hitAt(x, y) {
    const rect = el.canvas.getBoundingClientRect();
    const hit = hitTest(x - rect.left, y - rect.top);
    return hit ? (hit.node ? { node: hit.node.id } : { link: hit.link.id }) : null;
  },
  /** A link's midpoint (on its curve, if it is bent) in client coordinates, or null. */
  linkMidpoint(id) {
    const l = G.links.find((x) => x.id === id);
    if (!l) return null;
    const m = linkPoint(l, 0.5);
    const p = toScreen(m.x, m.y);
    return client(p.x, p.y);
  },
  /** A visible link (of this status, if given) whose midpoint a click would pick (no node or other link in the way):
   * {id, status, x, y}, or null. */
  clickableLink(status) {
    for (const l of G.links) {
      if (!linkVisible(l) || (status && l.status !== status)) continue;
      const m = linkPoint(l, 0.5);
      const p = toScreen(m.x, m.y);
      const hit = inCanvas(p) && hitTest(p.x, p.y);
      if (hit && hit.link === l) return { id: l.id, status: l.status, ...client(p.x, p.y) };
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
  /** The labels the last frame drew, as boxes in canvas pixels: [{id, text, dir, x0, y0, x1, y1}]. */
  labelBoxes: () => ui.labelBoxes.map((b) => ({ ...b })),
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
loadServerInfo();
loadGraph(focusFromHash(), true);
loadStoreTotals();
