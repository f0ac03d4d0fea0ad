/* The workbench's canvas: the render loop (one slice of simulation ticks, then a draw, per animation frame), the
 * drawing of links, arrow heads, nodes, rings and labels, resizing, and framing the view. Drawing culls what is off
 * screen and records what it drew in `ui.drawn` and `ui.labelBoxes` (read by tests through `window.workbench`).
 */
import { isRtl } from './details.js';
import { colours, ctx, el, G, NODE_COLOURS, sim, ui, view } from './state.js';
import {
  fitTransform, isCrowded, LABEL_FONT, LABEL_GAP, LABEL_HALF, labelOf, labelShown, linkControl, toScreen,
} from './view.js';

let drawQueued = false;

export function requestDraw() {
  if (drawQueued) return;
  drawQueued = true;
  requestAnimationFrame(step);
}

export function startSimulation(alpha, ticks) {
  sim.start(alpha, ticks, G.nodes.length > 0);
  requestDraw();
}

/** Fit the graph to the canvas and keep it fitted while the layout moves (until the user pans or zooms). */
export function frame() {
  Object.assign(view, fitTransform());
  ui.autoFrame = true;
  requestDraw();
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

export function resize() {
  const rect = el.canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  ui.size = { w: Math.max(1, rect.width), h: Math.max(1, rect.height), dpr };
  el.canvas.width = Math.round(ui.size.w * dpr);
  el.canvas.height = Math.round(ui.size.h * dpr);
  if (ui.autoFrame) Object.assign(view, fitTransform());
  draw();
}

export function draw() {
  const { w, h, dpr } = ui.size;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const drawn = { nodes: 0, links: 0, labels: 0, outside: 0, overNodes: [] };
  ui.drawn = drawn;
  ui.labelBoxes = [];
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
      traceLink(l);
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
      traceLink(l);
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

/** A link's line on the current path: straight, or curved when it shares its two nodes with another (view.js). */
function traceLink(l) {
  ctx.moveTo(l.s.x, l.s.y);
  if (!l.bend) {
    ctx.lineTo(l.t.x, l.t.y);
    return;
  }
  const c = linkControl(l);
  ctx.quadraticCurveTo(c.x, c.y, l.t.x, l.t.y);
}

function arrowHead(l, size) {
  if (Math.hypot(l.t.x - l.s.x, l.t.y - l.s.y) < l.t.r + l.s.r + size) return;
  const from = l.bend ? linkControl(l) : l.s; // a curve arrives along the line from its control point
  const dx = l.t.x - from.x;
  const dy = l.t.y - from.y;
  const d = Math.hypot(dx, dy) || 1;
  const ux = dx / d;
  const uy = dy / d;
  const tipX = l.t.x - ux * (l.t.r + 1 / view.k);
  const tipY = l.t.y - uy * (l.t.r + 1 / view.k);
  ctx.moveTo(tipX, tipY);
  ctx.lineTo(tipX - ux * size - uy * size * 0.45, tipY - uy * size + ux * size * 0.45);
  ctx.lineTo(tipX - ux * size + uy * size * 0.45, tipY - uy * size - ux * size * 0.45);
  ctx.closePath();
}

/** Labels in screen pixels, most important first (focus, selection, hover, then notes by degree), each on the right
 * of its node, else on the left: where it covers no other node (cut to 14 characters if that is what it takes),
 * never over another label nor past the canvas's edge (else it is skipped: a label over a node hides it, and which
 * nodes a cut view draws changes with the graph's ties, so no layout can be counted on to leave room). The
 * important ones are always drawn: at full length (60 characters) where that fits, else short (30, the length
 * framing counts on), covering others only if nothing else fits. Framing leaves room for every label on the
 * right, so `drawn.outside` (labels pushed off their first place by an edge) stays 0 until the view is zoomed or
 * panned. */
function drawLabels(visible, drawn, lit) {
  const { w, h, dpr } = ui.size;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.font = LABEL_FONT;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left'; // the box's left edge, whichever way its text reads
  ctx.lineJoin = 'round';
  const shown = new Set(visible.map((n) => n.id));
  const first = [G.focus, ...lit].filter((id) => id && shown.has(id)).map((id) => G.byId.get(id));
  const crowded = isCrowded(visible.length);
  const boxes = [];
  const cap = 260;
  const discs = nodeGrid(visible);
  const free = (box) => !boxes.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1);
  const clear = (box) => free(box) && discs.covers(box) === null;
  const inside = (box) => box.x0 >= 0 && box.y0 >= 0 && box.x1 <= w && box.y1 <= h;
  for (const n of first.concat(G.labelOrder)) {
    if (drawn.labels >= cap) break;
    if (!shown.has(n.id) || boxes.some((b) => b.id === n.id)) continue;
    const important = first.includes(n);
    if (!important && !labelShown(n, view.k, crowded)) continue;
    const p = toScreen(n.x, n.y);
    const gap = n.r * view.k + LABEL_GAP;
    const y0 = p.y - LABEL_HALF;
    const y1 = p.y + LABEL_HALF;
    const sides = ({ text, width }) => [
      { id: n.id, text, x0: p.x + gap, x1: p.x + gap + width, y0, y1 },
      { id: n.id, text, x0: p.x - gap - width, x1: p.x - gap, y0, y1 },
    ];
    const places = important ? [...sides(labelOf(n, true)), ...sides(labelOf(n, false))] : sides(labelOf(n, false));
    if (!inside(places[0]) && (important || free(places[0]))) drawn.outside++;
    const box = places.find((b) => inside(b) && clear(b)) ||
      (important ? null : sides(labelOf(n, 'tight')).find((b) => inside(b) && clear(b))) ||
      (important ? places.find((b) => inside(b) && free(b)) || places.find(inside) || places[0] : null);
    if (!box) continue;
    const covered = discs.covers(box);
    if (covered !== null) drawn.overNodes.push({ label: n.id, node: covered });
    box.dir = isRtl(box.text) ? 'rtl' : 'ltr'; // else "שלום!" draws its "!" on the right, and "…" after the start
    ctx.direction = box.dir;
    boxes.push(box);
    ctx.lineWidth = 3;
    ctx.strokeStyle = colours.halo;
    ctx.strokeText(box.text, box.x0, p.y);
    ctx.fillStyle = important ? colours.text : colours.label;
    ctx.fillText(box.text, box.x0, p.y);
    drawn.labels++;
  }
  ui.labelBoxes = boxes;
}

const CELL = 32; // pixels

/** The visible nodes big enough to be hidden by a label (4 pixels in radius or more), in a grid of screen cells, so
 * `covers(box)` — which of them but its own node a label box would lie over (an id, or null) — looks at a few cells
 * only. */
function nodeGrid(visible) {
  const cells = new Map();
  const key = (cx, cy) => cx * 65536 + cy;
  for (const n of visible) {
    const r = n.r * view.k;
    if (r < 4) continue;
    const p = toScreen(n.x, n.y);
    const disc = { id: n.id, x: p.x, y: p.y, r, core: r - Math.max(2, r / 3) };
    for (let cx = Math.floor((p.x - r) / CELL); cx <= Math.floor((p.x + r) / CELL); cx++) {
      for (let cy = Math.floor((p.y - r) / CELL); cy <= Math.floor((p.y + r) / CELL); cy++) {
        const cell = cells.get(key(cx, cy));
        if (cell) cell.push(disc);
        else cells.set(key(cx, cy), [disc]);
      }
    }
  }
  return {
    covers(box) {
      for (let cx = Math.floor(box.x0 / CELL); cx <= Math.floor(box.x1 / CELL); cx++) {
        for (let cy = Math.floor(box.y0 / CELL); cy <= Math.floor(box.y1 / CELL); cy++) {
          for (const d of cells.get(key(cx, cy)) || []) {
            if (d.id === box.id) continue;
            const dx = d.x - Math.max(box.x0, Math.min(d.x, box.x1));
            const dy = d.y - Math.max(box.y0, Math.min(d.y, box.y1));
            if (dx * dx + dy * dy < d.core * d.core) return d.id; // over its rim, the outer third, is fine
          }
        }
      }
      return null;
    },
  };
}
