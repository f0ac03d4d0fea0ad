/* The workbench's view geometry: screen ↔ world coordinates, what is under a point (hit testing), the node labels
 * (their text, width and when one is drawn, shared by drawing and framing), and the fit that frames the whole graph —
 * nodes and their labels — in the part of the canvas the overlays (focus label, legend) leave free. No drawing here.
 */
import { excerpt } from './details.js';
import { ctx, el, G, linkVisible, ui, view } from './state.js';

const MIN_K = 0.02;
const MAX_K = 8;
const FIT_MAX_K = 2.2; // framing never zooms in further than this, however small the graph

export function clampScale(k) { return Math.min(MAX_K, Math.max(MIN_K, k)); }

export function canvasSize() {
  return { w: ui.size.w || el.canvas.clientWidth || 1, h: ui.size.h || el.canvas.clientHeight || 1 };
}

export function toWorld(sx, sy) { return { x: (sx - view.x) / view.k, y: (sy - view.y) / view.k }; }
export function toScreen(wx, wy) { return { x: view.x + wx * view.k, y: view.y + wy * view.k }; }

// ---------------------------------------------------------------- labels
export const LABEL_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
export const LABEL_GAP = 4; // pixels between a node's rim and its label
export const LABEL_HALF = 8; // half a label box's height, in pixels

const LABEL_CHARS = { long: 60, short: 30, tight: 14 };

/** A node's label, {text, width in pixels}: long (60 characters) for the focus, selection and hover, else short (30),
 * or tight (14) where a short one would cover another node. Measured once per node with the canvas context and kept on
 * the node (a reload makes new nodes). `form` is one of those three, or true (long) or false (short). */
export function labelOf(n, form) {
  const size = form === true ? 'long' : form === false ? 'short' : form;
  const key = `label_${size}`;
  if (!n[key]) {
    const text = excerpt(n.title, LABEL_CHARS[size]);
    if (ctx.font !== LABEL_FONT) ctx.font = LABEL_FONT; // setting it costs as much as measuring
    n[key] = { text, width: ctx.measureText(text).width };
  }
  return n[key];
}

/** Whether a node's label is drawn at scale k (the focus, selection and hover always are): not for nodes drawn
 * smaller than 4 pixels, nor, in a crowded graph, for anything but notes until zoomed in. */
export function labelShown(n, k, crowded) {
  return !(n.r * k < 4 || (crowded && n.kind !== 'note' && k < 1.3));
}

export function isCrowded(count) { return count > 120; }

// ---------------------------------------------------------------- framing
/** How far the overlays reach into the canvas, in pixels: the focus label from the top, the legend from the bottom. */
function overlayInsets() {
  const canvas = el.canvas.getBoundingClientRect();
  const box = (node) => (node.hidden || !node.offsetParent ? null : node.getBoundingClientRect());
  const focus = box(el.focusLabel);
  const legend = box(el.legend);
  return {
    top: focus ? Math.max(0, focus.bottom - canvas.top) : 0,
    bottom: legend ? Math.max(0, canvas.bottom - legend.top) : 0,
  };
}

/** The transform that fits every node (with its radius) and every label drawn beside it in the canvas, clear of the
 * overlays, with a margin. Labels keep their size in pixels while the nodes scale, so the scale is found by bisection:
 * the largest k (up to FIT_MAX_K) at which the extent fits, between the fit of the nodes alone (labels only add) and
 * the fit of the nodes plus the widest label. Labels are counted on the right of their node, the side drawLabels
 * prefers; the extent then only grows with k, which the bisection needs. */
export function fitTransform() {
  const { w, h } = canvasSize();
  const nodes = G.nodes;
  if (!nodes.length) return { x: w / 2, y: h / 2, k: 1 };
  const pad = Math.min(20, Math.min(w, h) / 16);
  const cover = overlayInsets();
  const top = Math.max(pad, cover.top ? cover.top + 6 : 0);
  const bottom = Math.max(pad, cover.bottom ? cover.bottom + 6 : 0);
  const room = { w: Math.max(1, w - 2 * pad), h: Math.max(1, h - top - bottom) };
  const crowded = isCrowded(nodes.length);
  const focus = G.focus && G.byId.get(G.focus);
  const widths = nodes.map((n) => labelOf(n, n === focus).width);
  const extent = (k) => {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i];
      const x = n.x * k;
      const y = n.y * k;
      const r = n.r * k;
      const labelled = n === focus || labelShown(n, k, crowded);
      const half = labelled && r < LABEL_HALF ? LABEL_HALF : r;
      if (x - r < x0) x0 = x - r;
      if (y - half < y0) y0 = y - half;
      const right = labelled ? x + r + LABEL_GAP + widths[i] : x + r;
      if (right > x1) x1 = right;
      if (y + half > y1) y1 = y + half;
    }
    return { x0, y0, x1, y1 };
  };
  const fits = (e) => e.x1 - e.x0 <= room.w && e.y1 - e.y0 <= room.h;
  const span = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }; // the nodes alone, in world units
  for (const n of nodes) {
    span.x0 = Math.min(span.x0, n.x - n.r); span.y0 = Math.min(span.y0, n.y - n.r);
    span.x1 = Math.max(span.x1, n.x + n.r); span.y1 = Math.max(span.y1, n.y + n.r);
  }
  const spanX = span.x1 - span.x0;
  const spanY = span.y1 - span.y0;
  const widest = LABEL_GAP + Math.max(...widths);
  let hi = Math.max(MIN_K, Math.min(FIT_MAX_K, room.w / spanX, room.h / spanY));
  let lo = Math.max(MIN_K, Math.min(hi, (room.w - widest) / spanX, (room.h - 2 * LABEL_HALF) / spanY));
  let e = extent(hi);
  if (fits(e)) lo = hi;
  else {
    while (hi / lo > 1.0005) {
      const mid = Math.sqrt(lo * hi);
      if (fits(extent(mid))) lo = mid;
      else hi = mid;
    }
    e = extent(lo);
  }
  return { x: pad + (room.w - e.x0 - e.x1) / 2, y: top + (room.h - e.y0 - e.y1) / 2, k: lo };
}

// ---------------------------------------------------------------- link geometry
// Two or more links between the same two nodes (a→b and b→a, say) would lie on one line, where a click could pick
// either: each gets a `bend` (setGraph), and is drawn as a quadratic curve bowed that far to one side.
const BEND_STEP = 0.4; // between neighbouring links of one pair, as a fraction of the distance between the nodes

/** Give each link its bend: 0 (straight) when it is the only one between its two nodes, else spread around 0. */
export function bendParallelLinks(links) {
  const pairs = new Map();
  for (const l of links) {
    const key = l.src < l.dst ? l.src + '\n' + l.dst : l.dst + '\n' + l.src;
    if (!pairs.has(key)) pairs.set(key, []);
    pairs.get(key).push(l);
  }
  for (const group of pairs.values()) {
    group.forEach((l, i) => { l.bend = (i - (group.length - 1) / 2) * BEND_STEP; });
  }
}

/** A bent link's control point. The side is taken from the pair's own order (lower id first), not the link's
 * direction, so links in opposite directions bow to opposite sides. */
export function linkControl(l) {
  const [a, b] = l.src < l.dst ? [l.s, l.t] : [l.t, l.s];
  return { x: (a.x + b.x) / 2 - (b.y - a.y) * l.bend, y: (a.y + b.y) / 2 + (b.x - a.x) * l.bend };
}

/** The point at `t` (0 at the source, 1 at the target) along the link as drawn. */
export function linkPoint(l, t) {
  if (!l.bend) return { x: l.s.x + (l.t.x - l.s.x) * t, y: l.s.y + (l.t.y - l.s.y) * t };
  const c = linkControl(l);
  const u = 1 - t;
  return { x: u * u * l.s.x + 2 * u * t * c.x + t * t * l.t.x, y: u * u * l.s.y + 2 * u * t * c.y + t * t * l.t.y };
}

function linkDistance(px, py, l) {
  if (!l.bend) return segmentDistance(px, py, l.s.x, l.s.y, l.t.x, l.t.y);
  let best = Infinity;
  let a = l.s;
  for (let i = 1; i <= 12; i++) { // a curve, as the 12 segments that follow it closely enough to click
    const b = linkPoint(l, i / 12);
    best = Math.min(best, segmentDistance(px, py, a.x, a.y, b.x, b.y));
    a = b;
  }
  return best;
}

// ---------------------------------------------------------------- hit testing
/** The node under a screen point (nodes win), else the nearest link within a few pixels, else null. */
export function hitTest(sx, sy) {
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
    const d = linkDistance(p.x, p.y, l);
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
