/* The workbench's layout: where new nodes start, and a small force simulation whose work is capped.
 *
 * Links pull like springs (d3-style strength 1/min(degree) and bias toward the lighter end), every node repels every
 * other through a Barnes–Hut quadtree (cells far enough away act as one mass), a weak pull keeps components near the
 * origin, and velocities decay. `alpha` cools geometrically so a run ends after a fixed number of ticks, or sooner
 * once nothing moves. Pure data in, positions out: no DOM.
 */

const CHARGE = -160; // repulsion between two nodes (negative pushes apart), scaled by alpha
const THETA2 = 0.81; // Barnes–Hut: a cell this small for its distance (0.9²) acts as one mass
const GRAVITY = 0.05; // pull toward the origin, so separate components stay in view
const VELOCITY_KEEP = 0.58; // the velocity a node keeps from one tick to the next (friction)
const ALPHA_MIN = 0.003;
const RUN_TICKS = 300;

export function hash32(s) {
  let x = 2166136261;
  for (let i = 0; i < s.length; i++) { x ^= s.charCodeAt(i); x = Math.imul(x, 16777619); }
  return x >>> 0;
}

/** New nodes: a sunflower spiral when nothing is kept, else next to a neighbour that already has a place. */
export function placeNew(nodes, links) {
  const anyKept = nodes.some((n) => n.placed);
  if (!anyKept) {
    const golden = Math.PI * (3 - Math.sqrt(5));
    nodes.forEach((n, i) => {
      const r = 16 * Math.sqrt(i + 0.5);
      n.x = r * Math.cos(i * golden);
      n.y = r * Math.sin(i * golden);
      n.placed = true;
    });
    return;
  }
  const adjacent = new Map();
  for (const l of links) {
    if (!adjacent.has(l.s.id)) adjacent.set(l.s.id, []);
    if (!adjacent.has(l.t.id)) adjacent.set(l.t.id, []);
    adjacent.get(l.s.id).push(l.t);
    adjacent.get(l.t.id).push(l.s);
  }
  const queue = nodes.filter((n) => n.placed);
  for (let i = 0; i < queue.length; i++) {
    const from = queue[i];
    for (const n of adjacent.get(from.id) || []) {
      if (n.placed) continue;
      const a = (hash32(n.id) % 6283) / 1000;
      n.x = from.x + Math.cos(a) * 30;
      n.y = from.y + Math.sin(a) * 30;
      n.placed = true;
      queue.push(n);
    }
  }
  let cx = 0;
  let cy = 0;
  for (const n of queue) { cx += n.x; cy += n.y; }
  cx /= queue.length || 1;
  cy /= queue.length || 1;
  let i = 0;
  for (const n of nodes) {
    if (n.placed) continue;
    const a = (hash32(n.id) % 6283) / 1000;
    const r = 60 + 14 * Math.sqrt(i++);
    n.x = cx + Math.cos(a) * r;
    n.y = cy + Math.sin(a) * r;
    n.placed = true;
  }
}

/** A quadtree over the nodes whose cells carry their count and centre of mass (Barnes–Hut). */
function buildTree(nodes) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const n of nodes) {
    if (n.x < x0) x0 = n.x;
    if (n.y < y0) y0 = n.y;
    if (n.x > x1) x1 = n.x;
    if (n.y > y1) y1 = n.y;
  }
  const size = Math.max(x1 - x0, y1 - y0, 1) * 1.0001;
  const root = { x0, y0, size, mass: 0, sx: 0, sy: 0, kids: null, items: null };
  for (const n of nodes) insert(root, n, 0);
  return root;
}

function insert(cell, n, depth) {
  for (;;) {
    cell.mass += 1;
    cell.sx += n.x;
    cell.sy += n.y;
    if (cell.kids === null) {
      if (cell.items === null) { cell.items = [n]; return; }
      if (depth >= 24) { cell.items.push(n); return; } // coincident points share a leaf
      const moved = cell.items;
      cell.items = null;
      cell.kids = [null, null, null, null];
      for (const m of moved) {
        const kid = child(cell, m);
        kid.mass += 1; kid.sx += m.x; kid.sy += m.y; kid.items = [m];
      }
    }
    cell = child(cell, n);
    depth++;
    if (cell.items === null && cell.kids === null && cell.mass === 0) {
      cell.mass = 1; cell.sx = n.x; cell.sy = n.y; cell.items = [n];
      return;
    }
  }
}

function child(cell, n) {
  const half = cell.size / 2;
  const right = n.x >= cell.x0 + half ? 1 : 0;
  const down = n.y >= cell.y0 + half ? 1 : 0;
  const i = right + 2 * down;
  if (cell.kids[i] === null) {
    cell.kids[i] = { x0: cell.x0 + right * half, y0: cell.y0 + down * half, size: half, mass: 0, sx: 0, sy: 0,
      kids: null, items: null };
  }
  return cell.kids[i];
}

function repel(cell, n, strength) {
  if (cell === null || cell.mass === 0) return;
  if (cell.kids === null) {
    for (const m of cell.items) {
      if (m === n) continue;
      let dx = m.x - n.x;
      let dy = m.y - n.y;
      let d2 = dx * dx + dy * dy;
      if (d2 < 1e-6) { // same spot: push apart along a direction fixed by the ids
        const a = ((hash32(n.id) ^ hash32(m.id)) % 6283) / 1000;
        dx = Math.cos(a) * 0.1; dy = Math.sin(a) * 0.1; d2 = 0.01;
      }
      d2 = Math.max(d2, 36);
      const f = strength / d2;
      n.vx += dx * f;
      n.vy += dy * f;
    }
    return;
  }
  const dx = cell.sx / cell.mass - n.x;
  const dy = cell.sy / cell.mass - n.y;
  const d2 = dx * dx + dy * dy;
  if (cell.size * cell.size < THETA2 * d2) {
    const f = strength * cell.mass / Math.max(d2, 36);
    n.vx += dx * f;
    n.vy += dy * f;
    return;
  }
  for (const kid of cell.kids) repel(kid, n, strength);
}

/** The simulation's clock: `start` (re)heats it for a bounded number of ticks, `tick` advances the positions. */
export class Simulation {
  constructor() {
    this.running = false;
    this.alpha = 0;
    this.ticks = 0;
    this.maxTicks = RUN_TICKS;
    this.alphaMin = ALPHA_MIN;
    this.decay = 1 - Math.pow(ALPHA_MIN, 1 / RUN_TICKS); // alpha reaches alphaMin after RUN_TICKS ticks
  }

  /** (Re)heat: at most `ticks` more ticks, never cooler than `alpha` (a running simulation keeps its own if hotter). */
  start(alpha, ticks, hasNodes) {
    if (this.running) {
      this.alpha = Math.max(this.alpha, alpha);
      this.maxTicks = Math.max(this.maxTicks, this.ticks + ticks);
    } else {
      this.alpha = alpha;
      this.ticks = 0;
      this.maxTicks = ticks;
    }
    this.running = hasNodes;
  }

  /** One step: springs along the links, Barnes–Hut repulsion, a pull to the origin, then friction. */
  tick(nodes, links) {
    const a = this.alpha;
    for (const l of links) {
      const s = l.s;
      const t = l.t;
      let dx = t.x + t.vx - s.x - s.vx;
      let dy = t.y + t.vy - s.y - s.vy;
      const d = Math.sqrt(dx * dx + dy * dy) || 1e-3;
      const f = (d - l.length) / d * a * l.strength;
      dx *= f;
      dy *= f;
      t.vx -= dx * l.bias;
      t.vy -= dy * l.bias;
      s.vx += dx * (1 - l.bias);
      s.vy += dy * (1 - l.bias);
    }
    if (nodes.length > 1) {
      const tree = buildTree(nodes);
      for (const n of nodes) repel(tree, n, CHARGE * a);
    }
    let fastest = 0;
    for (const n of nodes) {
      n.vx -= n.x * GRAVITY * a;
      n.vy -= n.y * GRAVITY * a;
      if (n.fx !== null) {
        n.x = n.fx; n.y = n.fy; n.vx = 0; n.vy = 0;
        continue;
      }
      n.vx *= VELOCITY_KEEP;
      n.vy *= VELOCITY_KEEP;
      n.x += n.vx;
      n.y += n.vy;
      fastest = Math.max(fastest, Math.abs(n.vx) + Math.abs(n.vy));
    }
    this.alpha += (0 - this.alpha) * this.decay;
    this.ticks++;
    const dragging = nodes.some((n) => n.fx !== null);
    if (this.alpha < this.alphaMin || this.ticks >= this.maxTicks || (!dragging && this.ticks > 40 && fastest < 0.01)) {
      this.running = false;
    }
  }
}
