/* The workbench's forgetting and its undo. On a server that allows writes, a memory's details have a Forget… control
 * that first asks the server what a forget would do (`forget` with dry_run: the edges it would retire) and forgets
 * only on a second, confirming press. A memory the store removed shows, in place of its details, when and by what
 * (the `not_found` details of `show`), with Undo where `forget` with undo can bring it back. The Forgotten panel
 * lists the memories `forget` and auto-prune removed (the log's forget and prune rows whose removal still holds),
 * each with Undo. Every text from the store goes in as text (`h`), never as markup. `init` gets the page's own
 * callbacks: load the graph, show a node, refresh the store totals, the focus, a node's title, and mark a search
 * result removed or back.
 */
import { api, post } from './api.js';
import { endName, excerpt, h } from './details.js';
import { el, noteError, reportError, said, setStatus, ui } from './state.js';

const page = {
  loadGraph: null, showNode: null, loadStoreTotals: null, focus: () => null, titleOf: (id) => id,
  resultRemoved: () => {},
};
// the text of each memory the page has shown or listed: once removed, `show` answers when and by what, not its text
const named = new Map();

function nameOf(id) {
  return named.get(id) || page.titleOf(id);
}

export function init(callbacks) {
  Object.assign(page, callbacks);
  el.forgottenOpen.addEventListener('click', () => loadForgotten(true));
  el.forgottenClose.addEventListener('click', () => {
    el.forgottenBox.hidden = true;
    el.forgottenOpen.focus();
  });
}

function badge(text, cls) { return h('span', { class: 'badge ' + (cls || '') }, text); }

function counted(n, noun) { return `${n} ${noun}${n === 1 ? '' : 's'}`; }

/** "2026-12-07T11:45:25.965065Z" → a <time> reading "2026-12-07 11:45:25 UTC" (the store's clock is UTC). */
function when(iso) {
  if (typeof iso !== 'string' || !iso) return 'an unknown time';
  const shown = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? iso.slice(0, 19).replace('T', ' ') + ' UTC' : iso;
  return h('time', { datetime: iso }, shown);
}

/** How a memory was removed, as a person says it: "forgotten", "auto-pruned at the store's cap". */
export function removedHow(by) {
  return by === 'prune' ? 'auto-pruned at the store’s cap'
    : by === 'forget:source' ? 'forgotten with its payload scope' : 'forgotten';
}

// ---------------------------------------------------------------- forget, with its preview

/** The Forget… control of a stored memory's details. Its first press asks the server for the preview (nothing is
 * written) and shows the edges the forget would retire beside "Confirm forget" and Cancel (Escape or Cancel puts it
 * back); only the confirming press forgets. The buttons are disabled while a request runs. */
export function forgetControls(id, title) {
  if (title) named.set(id, title);
  const hint = h('div', { id: 'forget-confirm-hint', class: 'review-hint', role: 'alert', hidden: true });
  const button = h('button', { type: 'button', class: 'danger', 'data-action': 'forget',
    title: 'Soft-delete this memory and retire its edges (shows what it would retire first; Undo brings it back)',
    onclick: () => (armed ? confirm() : preview()) }, 'Forget…');
  const cancel = h('button', { type: 'button', class: 'review-cancel', hidden: true, onclick: () => {
    disarm();
    button.focus();
  } }, 'Cancel');
  let armed = false;
  const disarm = () => {
    armed = false;
    button.textContent = 'Forget…';
    button.classList.remove('armed');
    button.removeAttribute('aria-describedby');
    cancel.hidden = true;
    hint.hidden = true;
    hint.replaceChildren();
  };
  const busy = async (run) => {
    button.disabled = cancel.disabled = true;
    try { await run(); } finally {
      button.disabled = cancel.disabled = false;
      if (button.isConnected && (!document.activeElement || document.activeElement === document.body)) button.focus();
    }
  };
  const preview = () => busy(async () => {
    let dry;
    try {
      dry = await post('forget', { id, dry_run: true });
    } catch (err) {
      if (!goneSince(id, title, err)) reportError('Forget preview', err);
      return;
    }
    armed = true;
    hint.replaceChildren(...previewOf(dry, id).filter(Boolean));  // (replaceChildren would print a null)
    hint.hidden = false;
    button.textContent = 'Confirm forget';
    button.classList.add('armed');
    button.setAttribute('aria-describedby', hint.id);
    cancel.hidden = false;
  });
  const confirm = () => busy(() => forget(id, title));
  return h('section', {
    class: 'review forget', 'aria-labelledby': 'forget-title',
    onkeydown: (ev) => { if (ev.key === 'Escape' && armed) { ev.stopPropagation(); disarm(); button.focus(); } },
  },
  h('h4', { id: 'forget-title' }, 'Forget'),
  h('div', { class: 'review-buttons' }, button, cancel),
  hint);
}

/** A forget refused because the memory was removed since the panel showed it (another tab, the CLI, an
 * auto-prune): said so, and its details become what is left of it, with their Undo. */
function goneSince(id, title, err) {
  const by = err && err.code === 'not_found' && err.details && err.details.removed_by;
  if (!by) return false;
  noteError('Forget', err);
  setStatus(['“', said(excerpt(title || nameOf(id), 60)), `” was already ${removedHow(by)}, at `,
    when(err.details.deleted_at), '.'], 'error');
  page.showNode(id);
  return true;
}

/** What `forget` with dry_run answered, as the confirmation says it: the edges it would retire, each with the
 * other end's title, and a vault memory's note (its line brings it back). */
function previewOf(dry, id) {
  const edges = Array.isArray(dry.edges) ? dry.edges : [];
  const shown = edges.slice(0, 30);
  const retired = Number(dry.edges_retired ?? edges.length) || 0;
  return [
    h('p', null, `Forget this memory? It would retire ${counted(retired, 'edge')}` + (retired ? ':' : '.')),
    shown.length ? h('ul', { class: 'edges preview' }, shown.map((e) => {
      const out = e.source_id === id;
      return h('li', { 'data-edge': e.id }, badge(e.status || '?', e.status), ' ', out ? '→ ' : '← ',
        h('strong', null, e.edge_type || '?'), ' ', endName(out ? e.target_id : e.source_id, 60, page.titleOf));
    })) : null,
    edges.length > shown.length ? h('p', { class: 'muted' }, `and ${edges.length - shown.length} more`) : null,
    typeof dry.vault_note === 'string' ? h('p', { class: 'muted' }, dry.vault_note) : null,
  ];
}

/** Forget it; then say so with an Undo, redraw the graph without it (the overview, if it was the focus), refresh
 * the totals and the Forgotten panel, and show what is left of it: when it went, and its Undo. */
async function forget(id, title) {
  const name = ['“', said(excerpt(title || id, 60)), '”'];
  setStatus(['Forgetting ', ...name, '…'], 'busy');
  let result;
  try {
    result = await post('forget', { id });
  } catch (err) {
    if (!goneSince(id, title, err)) reportError('Forget', err);
    return;
  }
  const again = h('button', { type: 'button', class: 'inline', onclick: () => undo(id, title) }, 'Undo');
  const notice = ['Forgot ', ...name, `: ${counted(Number(result.edges_retired) || 0, 'edge')} retired.`, ' ', again];
  page.resultRemoved(id, true);
  await refresh(id, notice, page.focus() === id);
}

// ---------------------------------------------------------------- undo

/** Bring a removed memory back (`forget` with undo); then say what came back (its edges, and those still waiting
 * for the memory at their other end), redraw the graph, refresh the totals, the Forgotten panel and its details.
 * A vault row comes back only as the next ingest reads its note: the reply's words say so. A refusal (its text
 * remembered again since, a vault row of a note gone, a payload's) is said with its reason: returned, for the
 * caller to show beside its Undo too. */
export async function undo(id, title) {
  const name = ['“', said(excerpt(title || nameOf(id), 60)), '”'];
  setStatus(['Bringing back ', ...name, '…'], 'busy');
  let result;
  try {
    result = await post('forget', { id, undo: true });
  } catch (err) {
    if (!err || err.name === 'AbortError' || err.code === 'network' || !err.details || !err.details.reason) {
      reportError('Undo', err);
    } else {
      noteError('Undo', err);
      setStatus(['Could not bring back ', ...name, ` (${err.details.reason}): `, said(err.message)], 'error');
    }
    return err || new Error('undo failed');
  }
  if (result.status === 'pending_ingest') {  // a vault row: its note is marked, and the next ingest reads it back
    await refresh(id, [said(result.message)], false);
    return null;
  }
  page.resultRemoved(id, false);
  const back = Array.isArray(result.edges_revived) ? result.edges_revived.length : 0;
  const waiting = Array.isArray(result.edges_waiting) ? result.edges_waiting.length : 0;
  const revived = (result.revived || [])[0] || {};
  const text = revived.content ? ['“', said(excerpt(revived.content, 60)), '”'] : name;
  await refresh(id, ['Brought back ', ...text, ` with ${counted(back, 'edge')}` + (waiting
    ? `; ${counted(waiting, 'edge')} stay retired until the memory at their other end comes back.` : '.')], false);
  return null;
}

async function refresh(id, notice, wasFocus) {
  page.loadStoreTotals();
  if (!el.forgottenBox.hidden) loadForgotten(false);
  page.showNode(id);
  await page.loadGraph(wasFocus ? null : page.focus(), false, notice);
}

/** The details of a memory the store removed, from `show`'s not_found: what it was (its title, if the page drew it),
 * when and by what it went, and Undo where it can come back, or why it cannot (its way back in the server's words). */
export function removedDetails(id, err) {
  const d = err.details || {};
  const undoable = d.undo && d.undo.possible === true;
  const title = nameOf(id);
  const problem = h('p', { class: 'review-hint', role: 'alert', hidden: true });
  const button = ui.writable && undoable
    ? undoButton(id, title, problem, { title: 'Bring it back with the edges its removal retired' }, true) : null;
  return [
    h('h3', { dir: 'auto' }, title !== id ? excerpt(title, 90) : id),
    h('div', null, badge('removed', 'killed'), ' ', badge(d.removed_by || 'forget')),
    h('p', { class: 'removed' }, `This memory was ${removedHow(d.removed_by)} at `, when(d.deleted_at), '.'),
    h('dl', null, h('dt', null, 'id'), h('dd', null, h('code', null, id))),
    h('section', { class: 'review undo', 'aria-label': 'Undo' },
      button ? h('div', { class: 'review-buttons' }, button)
        : h('p', { class: 'muted', dir: 'auto' }, undoable ? 'A server started with --allow-writes can bring it back.'
          : d.undo && d.undo.message ? `It cannot be brought back here: ${d.undo.message}` : err.message),
      problem),
  ];
}

/** An Undo button bringing `id` back; a refusal is shown in `problem` and the button offered again (focused when
 * `refocus`: the details pane has no other control to return to). */
function undoButton(id, name, problem, attrs, refocus) {
  const button = h('button', { type: 'button', class: 'primary', 'data-action': 'undo', ...attrs, onclick: async () => {
    button.disabled = true;
    const failed = await undo(id, name);
    if (failed && button.isConnected) {
      button.disabled = false;
      problem.textContent = failed.message || String(failed);
      problem.hidden = false;
      if (refocus) button.focus();
    }
  } }, 'Undo');
  return button;
}

// ---------------------------------------------------------------- the Forgotten panel
let forgottenSeq = 0;

/** Open (or refresh) the Forgotten panel: the newest 50 forget and 50 prune rows of the log whose removal still
 * holds, newest first, each its text, when and by what, and Undo (or why it cannot come back). */
async function loadForgotten(opened) {
  const seq = ++forgottenSeq;
  el.forgottenBox.hidden = false;
  if (opened) el.forgottenList.replaceChildren(h('li', { class: 'muted' }, 'Loading…'));
  let rows;
  try {
    const [forgot, pruned] = await Promise.all([api('log', { op: 'forget', limit: 50 }),
      api('log', { op: 'prune', limit: 50 })]);
    rows = [...(forgot.entries || []), ...(pruned.entries || [])].filter((e) => e.in_effect)
      .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
  } catch (err) {
    if (seq !== forgottenSeq) return;
    el.forgottenList.replaceChildren(h('li', { class: 'muted' }, 'Could not load the log.'));
    reportError('Forgotten', err, () => loadForgotten(false));
    return;
  }
  if (seq !== forgottenSeq) return;
  el.forgottenList.replaceChildren(...(rows.length ? rows.map(forgottenItem)
    : [h('li', { class: 'muted' }, 'Nothing forgotten or auto-pruned lately.')]));
  if (opened) el.forgottenTitle.focus();
}

function forgottenItem(e) {
  const id = e.insight_id;
  const content = (e.detail && typeof e.detail.content === 'string' && e.detail.content) || id;
  if (content !== id) named.set(id, content);
  const undoable = e.undo && e.undo.possible === true;
  const problem = h('p', { class: 'review-hint', role: 'alert', hidden: true });
  const button = ui.writable && undoable
    ? undoButton(id, content, problem, { 'aria-label': `Undo: bring back “${excerpt(content, 60)}”` }, false) : null;
  const cap = e.op === 'prune' && e.detail && e.detail.cap ? ` of ${e.detail.cap}` : '';
  return h('li', { 'data-id': id },
    h('button', { type: 'button', class: 'open', title: id, onclick: () => page.showNode(id) },
      h('bdi', null, excerpt(content, 140)),
      h('span', { class: 'why' }, `${removedHow(e.op)}${cap} · `, when(e.created_at)),
      h('span', { class: 'rid' }, id)),
    button,
    !undoable && e.undo && e.undo.message ? h('p', { class: 'muted', dir: 'auto' }, e.undo.message) : null,
    problem);
}
