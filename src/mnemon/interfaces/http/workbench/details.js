/* The workbench's details panel: DOM for one node (`show`) or one edge (`explain_edge`), and, on a server that allows
 * writes, the review controls of an edge (validate, weaken, kill with a confirm step, an optional reason). The
 * builders take the payload and an `env` of callbacks and lookups (titleOf, showNode, showLink, focusOn, review, the
 * drawn node or link, and a stored memory's forget controls), and return elements; the caller puts them in the
 * panel. */

/** h('p', {class: 'x', onclick: f}, 'text', child) → an element; null/false children are skipped. */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.className = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function excerpt(text, n) {
  const s = String(text || '').replace(/\s+/g, ' ').trim();
  if (s.length <= n) return s;
  let cut = n - 1;
  const last = s.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // half an emoji (a surrogate pair) draws as a replacement box
  return s.slice(0, cut).replace(/[\s\u200d\ufe0f]+$/, '') + '…'; // nor may a space or a joiner hang on it
}

// The first strong letter decides a text's direction (as dir="auto" does): Hebrew, Arabic, Syriac, Thaana, N'Ko …
const RTL_FIRST = /^[^\p{L}]*[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/u;

/** Whether a text reads right to left: its first letter is from a right-to-left script. */
export function isRtl(text) { return RTL_FIRST.test(String(text || '')); }

function field(label, value) {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length)) return null;
  const shown = value instanceof Node ? value : Array.isArray(value) ? value.join(', ') : String(value);
  return [h('dt', null, label), h('dd', { dir: 'auto' }, shown)]; // a Hebrew path reads right to left
}

function badge(text, cls) { return h('span', { class: 'badge ' + (cls || '') }, text); }

/** The other end of an edge in a list, by its title as far as the page knows it (else its id); marked with its id
 * and length, so that `renameEnds` can name it once a graph that holds it arrives. */
export function endName(id, n, titleOf) {
  return h('bdi', { 'data-node': id, 'data-chars': n }, excerpt(titleOf(id), n));
}

/** Name again the edge ends in `root` (`endName`) that `titleOf` now knows: `show` may answer before the graph. */
export function renameEnds(root, titleOf) {
  for (const end of root.querySelectorAll('bdi[data-node]')) {
    const title = titleOf(end.dataset.node);
    if (title !== end.dataset.node) end.textContent = excerpt(title, Number(end.dataset.chars) || 70);
  }
}

function nodeButton(id, label, env) {
  return h('button', { type: 'button', class: 'link', title: id, onclick: () => env.showNode(id) },
    h('bdi', null, label || env.titleOf(id)));
}

/** The `show` payload of one node: what it is, where it came from, its content and its edges (each a button). */
export function nodeDetails(m, id, env) {
  const meta = m.metadata || {};
  const isMemory = !m.kind || m.kind === 'memory'; // a stored memory (a bullet, a task, a section, a remembered fact)
  const kind = isMemory ? meta.memory_kind || 'memory' : m.kind;
  const type = meta.type || meta.observation_kind || null;  // shown unless it only repeats the kind ("note")
  const graphNode = env.graphNode;
  const sourcePath = meta.path || meta.note || (graphNode && graphNode.source_path) ||
    (typeof m.source === 'string' && m.source.startsWith('vault:') ? m.source.slice(6) : null);
  const title = m.title && !isMemory ? m.title : excerpt(m.content, 90) || m.title || m.id || id;
  const edges = Array.isArray(m.edges) ? m.edges : [];
  const shownEdges = edges.slice(0, 200);
  const me = m.id || id;
  return [
    h('h3', { dir: 'auto' }, title),
    h('div', null, badge(kind), ' ', type && type !== kind ? badge(type) : null, ' ', m.category ? badge(m.category) : null),
    h('dl', null,
      field('id', h('code', null, me)),
      field('source path', sourcePath),
      field('line', meta.line),
      field('heading', Array.isArray(meta.heading_path) ? meta.heading_path.join(' › ') : null),
      field('note', isMemory && m.title ? m.title : null),
      field('source', isMemory && !sourcePath ? m.source : null), // who wrote it: agent, user, a mneme:// scope
      field('tags', m.tags),
      field('entities', m.entities), // what its entity links are made of
      field('aliases', meta.aliases),
      field('dates', meta.dates),
      field('importance', m.importance),
      field('created', m.created_at),
    ),
    m.content && m.content.trim() !== title ? h('div', { class: 'content', dir: 'auto' }, m.content) : null,
    h('div', { class: 'row-actions' },
      env.focus !== me ? h('button', { type: 'button', onclick: () => env.focusOn(me) }, 'Focus graph here') : null),
    isMemory && env.forgetControls ? env.forgetControls(me, title) : null,  // (a server taking writes)
    h('h4', null, `Edges (${edges.length})`),
    edges.length ? h('ul', { class: 'edges' }, shownEdges.map((e) => {
      const out = e.source_id === me;
      const other = out ? e.target_id : e.source_id;
      return h('li', null, h('button', { type: 'button', onclick: () => env.showLink(e.id), title: `edge ${e.id}` },
        badge(e.status || '?', e.status), ' ', out ? '→ ' : '← ',
        h('strong', null, e.edge_type || e.type || '?'), ' ', endName(other, 70, env.titleOf)));
    })) : h('p', { class: 'muted' }, 'No edges.'),
    edges.length > shownEdges.length
      ? h('p', { class: 'muted' }, `and ${edges.length - shownEdges.length} more`) : null,
  ];
}

/** The `explain_edge` payload of one edge: its two ends (as buttons) and its evidence first, then the review controls
 * (if any), then relation, category, status, truth policy, source path, confidence and the audit events. */
export function linkDetails(x, id, env) {
  const e = x.edge || x;
  const rt = e.relationship_type || {};
  const drawnLink = env.drawnLink;
  const events = x.events || x.debug_log || e.events || [];
  const src = e.src || {};
  const dst = e.dst || {};
  const srcId = src.id || e.source_id || (drawnLink && drawnLink.src);
  const dstId = dst.id || e.target_id || (drawnLink && drawnLink.dst);
  const name = (end, endId) =>
    excerpt(end.content && end.kind === 'memory' ? end.content : end.name || env.titleOf(endId), 70);
  const relation = e.relation || e.edge_type || (drawnLink && drawnLink.type) || '?';
  const evidence = e.evidence_text ?? e.evidence;
  return [
    h('h3', { dir: 'auto' }, relation),
    h('div', null, badge(e.status || '?', e.status), ' ',
      badge(rt.category || (drawnLink && drawnLink.category) || 'uncategorised')),
    rt.description ? h('p', { class: 'muted' }, rt.description) : null,
    h('dl', { class: 'fields' },
      field('from', srcId ? nodeButton(srcId, name(src, srcId), env) : null),
      field('to', dstId ? nodeButton(dstId, name(dst, dstId), env) : null),
    ),
    h('h4', null, 'Evidence'),
    evidence ? h('blockquote', { dir: 'auto' }, evidence) : h('p', { class: 'muted' }, 'No evidence text.'),
    sourceNow(e.source_now),
    reviewControls(e, env),
    h('dl', { class: 'fields' },
      field('relation', relation),
      field('category', rt.category || (drawnLink && drawnLink.category)),
      field('status', e.status),
      field('truth policy', e.truth_policy),
      field('needs validation', e.requires_validation === undefined ? null : e.requires_validation ? 'yes' : 'no'),
      field('validated', e.validated === undefined ? null : e.validated ? 'yes' : 'no'),
      field('why validated', e.metadata && e.metadata.validated_reason),
      field('source path', e.source_path),
      field('confidence', e.confidence),
      field('strength', e.strength ?? e.weight),
      field('origin', e.origin),
      field('rule', e.rule),
      field('edge id', h('code', null, String(e.id ?? id))),
      field('created', e.created_at),
    ),
    h('h4', null, `Audit events (${events.length})`),
    events.length ? h('ol', { class: 'events' }, events.map((ev) => {
      const thinking = ev.thinking || ev.details || null;
      const reasons = thinking && Array.isArray(thinking.reasons) ? thinking.reasons.join(', ') : null;
      const reason = thinking && typeof thinking.reason === 'string' && thinking.reason ? thinking.reason : null;
      return h('li', null, h('strong', null, ev.event || ev.type || 'event'),
        ev.actor ? ` by ${ev.actor}` : '', ev.created_at ? h('span', { class: 'muted' }, ` · ${ev.created_at}`) : null,
        reason ? h('div', { class: 'reason' }, `“${reason}”`) : null,
        reasons ? h('div', { class: 'muted' }, reasons) : null);
    })) : h('p', { class: 'muted' }, 'No audit events.'),
    h('div', { class: 'row-actions' },
      srcId ? h('button', { type: 'button', onclick: () => env.focusOn(srcId) }, 'Focus on source') : null,
      dstId ? h('button', { type: 'button', onclick: () => env.focusOn(dstId) }, 'Focus on target') : null),
  ];
}

/** Where a decided edge's line is now (`explain_edge`'s `source_now`): the evidence above is the line as it was
 * killed or validated, and the note has changed since — the line moved or reworded, or gone from the note. */
function sourceNow(now) {
  if (!now || typeof now !== 'object') return null;
  const seen = now.seen_at ? ` (seen by the ingest of ${now.seen_at})` : '';
  if (now.in_note === false) {
    return h('p', { class: 'source-now gone' }, `No longer in its note${seen}: the evidence above is the line as it`
      + ' was decided on.');
  }
  const line = Number.isInteger(now.line) ? ` at line ${now.line}` : '';
  return h('div', { class: 'source-now' },
    h('p', { class: 'muted' }, `Its note has changed since the decision: the line now reads${line}${seen}`),
    now.evidence_text ? h('blockquote', { dir: 'auto' }, now.evidence_text) : null);
}

const REVIEW_TITLES = {
  validate: 'Confirm this link as a person: it becomes active, and rebuilds keep it',
  weaken: 'Halve its strength (×0.5); an active link that drops below 0.10 becomes a candidate',
  kill: 'Reject this link: a tombstone that no rebuild or re-parse brings back (asks first)',
};

/** The review controls of an edge, when `env.review(action, reason)` is given (the server allows writes): a reason
 * and Validate, Weaken and Kill buttons for a candidate or active edge (no Validate once a person validated an
 * active one). Kill asks first: its first press turns it into "Confirm kill" beside a Cancel, with a warning, and
 * hides the other actions (Escape or Cancel brings them back); only the second press kills. The buttons are
 * disabled while a request runs. */
function reviewControls(e, env) {
  if (!env.review) return null;
  if (e.status !== 'active' && e.status !== 'candidate') {
    return h('section', { class: 'review', 'aria-label': 'Review' },
      h('p', { class: 'muted' }, e.status === 'killed'
        ? 'Killed: a tombstone, nothing left to review.' : `Status ${e.status || 'unknown'}: nothing to review.`));
  }
  const reason = h('input', {
    id: 'review-reason', type: 'text', maxlength: 500, autocomplete: 'off', spellcheck: 'true',
    placeholder: 'Reason (optional, kept in the audit log)',
  });
  const hint = h('p', { id: 'review-confirm-hint', class: 'review-hint', role: 'alert', hidden: true },
    'Kill this link? It becomes a tombstone that no rebuild brings back.');
  const buttons = {};
  let armed = false;
  const disarm = () => {
    armed = false;
    for (const b of [buttons.validate, buttons.weaken]) if (b) b.hidden = false;
    buttons.kill.textContent = 'Kill…';
    buttons.kill.classList.remove('armed');
    buttons.kill.removeAttribute('aria-describedby');
    cancel.hidden = true;
    hint.hidden = true;
  };
  const run = async (action) => {
    const controls = [...Object.values(buttons), cancel, reason];
    for (const c of controls) c.disabled = true;
    try {
      await env.review(action, reason.value.trim());
    } finally { // on success the panel is rebuilt and these are gone; on failure they come back as they were
      for (const c of controls) c.disabled = false;
      if (buttons[action].isConnected && (!document.activeElement || document.activeElement === document.body)) {
        buttons[action].focus();
      }
    }
  };
  const button = (action, label, cls, onclick) => {
    buttons[action] = h('button', { type: 'button', class: cls, 'data-action': action, title: REVIEW_TITLES[action],
      onclick }, label);
    return buttons[action];
  };
  const cancel = h('button', { type: 'button', class: 'review-cancel', hidden: true, onclick: () => {
    disarm();
    buttons.kill.focus();
  } }, 'Cancel');
  const validated = e.status === 'active' && e.validated === true;
  return h('section', {
    class: 'review', 'aria-labelledby': 'review-title',
    onkeydown: (ev) => { if (ev.key === 'Escape' && armed) { ev.stopPropagation(); disarm(); buttons.kill.focus(); } },
  },
  h('h4', { id: 'review-title' }, 'Review'),
  h('label', { for: 'review-reason', class: 'visually-hidden' }, 'Reason'),
  reason,
  h('div', { class: 'review-buttons' },
    validated ? null : button('validate', 'Validate', 'primary', () => { disarm(); run('validate'); }),
    button('weaken', 'Weaken', null, () => { disarm(); run('weaken'); }),
    button('kill', 'Kill…', 'danger', () => {
      if (armed) { run('kill'); return; }
      armed = true;
      for (const b of [buttons.validate, buttons.weaken]) if (b) b.hidden = true;
      buttons.kill.textContent = 'Confirm kill';
      buttons.kill.classList.add('armed');
      buttons.kill.setAttribute('aria-describedby', hint.id);
      cancel.hidden = false;
      hint.hidden = false;
    }),
    cancel),
  hint);
}
