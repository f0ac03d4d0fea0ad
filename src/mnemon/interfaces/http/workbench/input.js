/* The workbench's input on the canvas: mouse, touch and pen through pointer events (click or tap selects, drag pans
 * or moves a node, pinch zooms, double-click or double-tap focuses on a node or frames the graph from empty space),
 * the wheel (zoom at the pointer), and keys (n and p step through the nodes, Shift+arrow picks the nearest node that
 * way, Enter focuses on the picked node, arrows pan, + and - zoom, 0 or f frames, Escape clears the selection, /
 * anywhere jumps to the search box). What a click does to the page comes in as `actions` from workbench.js.
 */
import { frame, requestDraw, startSimulation } from './draw.js';
import { el, G, ui, view } from './state.js';
import { canvasSize, clampScale, hitTest, toScreen, toWorld } from './view.js';

/** What input asks of the page: {showNode(id), showLink(id), focusOn(id), clearSelection()}. */
let actions = null;

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
  if (g.hit && g.hit.node) actions.showNode(g.hit.node.id);
  else if (g.hit && g.hit.link) actions.showLink(g.hit.link.id);
}

function doubleAt(p) {
  const hit = hitTest(p.x, p.y);
  if (hit && hit.node) actions.focusOn(hit.node.id);
  else frame();
}

function hover(p) {
  const hit = hitTest(p.x, p.y);
  const node = hit && hit.node ? hit.node : null;
  el.canvas.classList.toggle('over-item', !!hit);
  el.canvas.title = hit ? (hit.node ? hit.node.title : `${hit.link.type} (${hit.link.status})`) : '';
  if (node !== ui.hover) { ui.hover = node; requestDraw(); }
}

// ---------------------------------------------------------------- picking nodes with the keyboard
// Without these a keyboard or screen-reader user could reach a node only through search: the canvas has no elements
// to tab to. `n` / `p` step through the nodes in the order their labels rank them (the focus, then notes by
// degree), Shift+arrow picks the nearest node that way, and each pick is shown like a click, kept in view and said
// in a live region.

function pickedNode() {
  return ui.selected && ui.selected.type === 'node' ? G.byId.get(ui.selected.id) || null : null;
}

function keyboardOrder() {
  const focus = G.focus && G.byId.get(G.focus);
  return focus ? [focus, ...G.labelOrder.filter((n) => n !== focus)] : G.labelOrder;
}

function pick(node, position) {
  const { w, h } = canvasSize();
  const p = toScreen(node.x, node.y);
  const margin = Math.min(60, w / 4, h / 4);
  if (p.x < margin || p.y < margin || p.x > w - margin || p.y > h - margin) { // off screen or at its edge: centre it
    view.x = w / 2 - node.x * view.k;
    view.y = h / 2 - node.y * view.k;
    ui.autoFrame = false;
    requestDraw();
  }
  actions.showNode(node.id);
  const links = node.links === 1 ? '1 link shown' : `${node.links} links shown`;
  el.announce.textContent = `${node.title}: ${node.type || node.kind}, ${links}${position ? `, ${position}` : ''}.` +
    (node.id === G.focus ? '' : ' Enter focuses the graph on it.');
}

function stepPick(delta) {
  const order = keyboardOrder();
  if (!order.length) return;
  const at = order.indexOf(pickedNode());
  const i = at < 0 ? (delta > 0 ? 0 : order.length - 1) : (at + delta + order.length) % order.length;
  pick(order[i], `${i + 1} of ${order.length}`);
}

/** The nearest node from the picked one (or the view's centre) in the direction (dx, dy): within 60 degrees of it,
 * a node straight ahead counting nearer than one as far off to the side. */
function pickToward(dx, dy) {
  const from = pickedNode();
  const { w, h } = canvasSize();
  const origin = from || toWorld(w / 2, h / 2);
  let best = null;
  let bestScore = Infinity;
  for (const n of G.nodes) {
    if (n === from) continue;
    const vx = n.x - origin.x;
    const vy = n.y - origin.y;
    const along = vx * dx + vy * dy;
    const across = Math.abs(vx * dy - vy * dx);
    if (along <= 0 || across > along * 1.75) continue;
    const score = along + 2 * across;
    if (score < bestScore) { best = n; bestScore = score; }
  }
  if (best) pick(best);
  else el.announce.textContent = 'No node that way.';
}

/** Start listening on the canvas (and for the / key on the page), with the page's `actions`. Once. */
export function listen(pageActions) {
  actions = pageActions;
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

  el.canvas.addEventListener('pointerup', pointerEnd);
  el.canvas.addEventListener('pointercancel', pointerEnd);
  el.canvas.addEventListener('pointerleave', () => {
    if (ui.hover && !pointers.size) { ui.hover = null; requestDraw(); }
  });
  el.canvas.addEventListener('dblclick', (e) => { e.preventDefault(); doubleAt(local(e)); });

  el.canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const p = local(e);
    const dy = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1);
    zoomAt(p.x, p.y, Math.exp(-dy * (e.ctrlKey ? 0.01 : 0.0015)));
  }, { passive: false });

  el.canvas.addEventListener('keydown', (e) => {
    // Ctrl/Cmd/Alt with these keys are the browser's (find, page zoom, history): the canvas must not take them
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const { w, h: height } = canvasSize();
    const pan = (dx, dy) => { view.x += dx; view.y += dy; ui.autoFrame = false; requestDraw(); };
    if (e.shiftKey && e.key.startsWith('Arrow')) {
      const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      pickToward(dx, dy);
      e.preventDefault();
      return;
    }
    const picked = pickedNode();
    switch (e.key) {
      case 'n': case ']': stepPick(1); break;
      case 'p': case '[': stepPick(-1); break;
      case 'Enter': if (!picked) return; actions.focusOn(picked.id); break;
      case 'ArrowLeft': pan(40, 0); break;
      case 'ArrowRight': pan(-40, 0); break;
      case 'ArrowUp': pan(0, 40); break;
      case 'ArrowDown': pan(0, -40); break;
      case '+': case '=': zoomAt(w / 2, height / 2, 1.25); break;
      case '-': case '_': zoomAt(w / 2, height / 2, 0.8); break;
      case '0': case 'f': frame(); break;
      case 'Escape': actions.clearSelection(); el.announce.textContent = ''; break;
      default: return;
    }
    e.preventDefault();
  });

  document.addEventListener('keydown', (e) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement && document.activeElement.tagName);
    if (e.key === '/' && !typing) { e.preventDefault(); el.q.focus(); el.q.select(); }
  });
}
