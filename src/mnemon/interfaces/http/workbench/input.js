/* The workbench's input on the canvas: mouse, touch and pen through pointer events (click or tap selects, drag pans
 * or moves a node, pinch zooms, double-click or double-tap focuses on a node or frames the graph from empty space),
 * the wheel (zoom at the pointer), and keys (arrows pan, + and - zoom, 0 or f frames, Escape clears the selection,
 * / anywhere jumps to the search box). What a click does to the page comes in as `actions` from workbench.js.
 */
import { frame, requestDraw, startSimulation } from './draw.js';
import { el, ui, view } from './state.js';
import { canvasSize, clampScale, hitTest, toWorld } from './view.js';

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
    switch (e.key) {
      case 'ArrowLeft': pan(40, 0); break;
      case 'ArrowRight': pan(-40, 0); break;
      case 'ArrowUp': pan(0, 40); break;
      case 'ArrowDown': pan(0, -40); break;
      case '+': case '=': zoomAt(w / 2, height / 2, 1.25); break;
      case '-': case '_': zoomAt(w / 2, height / 2, 0.8); break;
      case '0': case 'f': frame(); break;
      case 'Escape': actions.clearSelection(); break;
      default: return;
    }
    e.preventDefault();
  });

  document.addEventListener('keydown', (e) => {
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement && document.activeElement.tagName);
    if (e.key === '/' && !typing) { e.preventDefault(); el.q.focus(); el.q.select(); }
  });
}
