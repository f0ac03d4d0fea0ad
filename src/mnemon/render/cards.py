"""Thought cards: one self-contained SVG per thought (no external fonts, images or scripts), PNG on request.

Layout follows Mneme's card (reference §4) — header badge, score chip, title, a path of numbered nodes joined by
relation chips, evidence / reasoning / next-step bands and a footer — with its weak spots fixed:

* every piece of text is XML-escaped (Mneme interpolated note text into markup, so a `<` or `&` in a note broke
  the file), without the characters no card shows (controls, lone surrogates, bidi overrides: `card_text`);
* wrapping measures text by its drawn width, not a fixed character count, so wide text does not overflow the panel
  and narrow text does not leave half the band empty; it is cut only where `card_text` says a cut reads well;
* the card grows to fit its bands instead of clipping them, and the output is byte-for-byte deterministic for a
  given thought, theme and timestamp (golden-file tests rely on it);
* PNG goes through `resvg-py` when installed (`pip install mnemon[cards]`), else ImageMagick, else none — the
  SVG is always written and the caller is told which rasteriser ran, or why there is no PNG (`png_error`: none
  installed, or what the rasteriser said).
"""
from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import InvalidInput
from ..core.vault.links import display_links
from .card_text import _GRAPHEME, _middle_truncate, clip, text_width, unshown_dropped, wrap, xml_text

WIDTH = 1200
PANEL_X = 40
PANEL_W = WIDTH - 2 * PANEL_X
INNER_X = 90
INNER_W = WIDTH - 2 * INNER_X
FONT = "DejaVu Sans, Inter, Arial, sans-serif"
MAX_PATH_NODES = 7
MAX_EVIDENCE = 5
_WORDS = re.compile(r"\w+")  # what two renderings of one statement share
NO_RASTERISER = "no rasteriser installed (pip install 'mnemon[cards]' for resvg-py, or ImageMagick)"

# Every text meets WCAG 2 AA on what it is drawn over (4.5:1; 3:1 for the large node numbers), in both themes
# (tests/render/test_qa_s33_card_contrast.py): the light theme drew the dark theme's badge colours on light grey
# (amber at 1.5:1) and white numbers on pastel nodes. Badge colours are the theme's (`badge_*`) for that reason.
THEMES: dict[str, dict[str, str]] = {
    "dark": {
        "bg": "#0b1020", "panel": "#111827", "panel_border": "#1f2937", "ink": "#f9fafb", "muted": "#9ca3af",
        "faint": "#808896", "chip_bg": "#1f2937", "chip_ink": "#e5e7eb", "node_ink": "#0b1020",
        "connector": "#4b5563", "evidence_bg": "#0c1a33", "evidence_border": "#1d4ed8", "evidence_accent": "#60a5fa",
        "reasoning_bg": "#1a1033", "reasoning_border": "#6d28d9", "reasoning_accent": "#a78bfa",
        "next_bg": "#2a1d05", "next_border": "#b45309", "next_accent": "#fbbf24", "shadow": "#000000",
        "badge_open_loop": "#fbbf24", "badge_deadline": "#f87171", "badge_surface": "#a78bfa",
        "badge_walk": "#60a5fa",
    },
    "light": {
        "bg": "#eef2f7", "panel": "#ffffff", "panel_border": "#d1d5db", "ink": "#111827", "muted": "#4b5563",
        "faint": "#6b7280", "chip_bg": "#f3f4f6", "chip_ink": "#1f2937", "node_ink": "#111827",
        "connector": "#9ca3af", "evidence_bg": "#eff6ff", "evidence_border": "#93c5fd", "evidence_accent": "#1d4ed8",
        "reasoning_bg": "#f5f3ff", "reasoning_border": "#c4b5fd", "reasoning_accent": "#6d28d9",
        "next_bg": "#fffbeb", "next_border": "#fcd34d", "next_accent": "#b45309", "shadow": "#64748b",
        "badge_open_loop": "#92400e", "badge_deadline": "#b91c1c", "badge_surface": "#6d28d9",
        "badge_walk": "#1d4ed8",
    },
}

NODE_COLOURS: dict[str, str] = {
    "project": "#60a5fa", "person": "#f472b6", "finance": "#34d399", "event": "#fbbf24", "observation": "#fb7185",
    "memory": "#fb7185", "task": "#fb923c", "date": "#a78bfa", "note": "#22d3ee", "placeholder": "#c084fc",
    "heading": "#94a3b8", "email": "#2dd4bf", "tag": "#a3e635", "entity": "#f472b6", "section": "#38bdf8",
    "open_loop": "#f87171", "deadline": "#ef4444",
}
DEFAULT_NODE_COLOUR = "#94a3b8"

BADGES: tuple[tuple[str, str], ...] = (  # (label, the theme's key of its colour)
    ("Open loop", "badge_open_loop"), ("Deadline", "badge_deadline"), ("Surface match", "badge_surface"),
    ("Reasoned walk", "badge_walk"),
)


@dataclass(frozen=True)
class CardFiles:
    svg: Path
    png: Path | None
    rasteriser: str | None
    png_error: str | None = None  # why a PNG that was asked for is missing

    @property
    def image(self) -> Path:
        return self.png or self.svg

    def to_dict(self) -> dict[str, Any]:
        return {"image": str(self.image), "svg": str(self.svg), "png": str(self.png) if self.png else None,
                "rasteriser": self.rasteriser, "png_error": self.png_error}


def resolve_theme(name: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """Explicit name > MNEMON_CARD_THEME > dark, any case. An unknown name is `InvalidInput` naming the themes: it
    used to render dark without a word (the CLI's value is checked by `load_config` before any render)."""
    env = os.environ if environ is None else environ
    given = name or env.get("MNEMON_CARD_THEME") or "dark"
    chosen = given.strip().lower()
    if chosen not in THEMES:
        raise InvalidInput(f"unknown card theme {given!r}; themes: {', '.join(THEMES)}", field="theme",
                           allowed=list(THEMES))
    return chosen


def badge_for(thought: Mapping[str, Any], theme: str = "dark") -> tuple[str, str]:
    """The header badge's label and its colour in `theme`."""
    label, key = _badge(thought)
    return label, THEMES[resolve_theme(theme, {})][key]


# the kinds of thought whose titles start with the kind ("Done: …"; `app.thoughts`) that are neither an open loop nor
# a deadline: the words after the kind are the note's, and a "Done:" card about filing the tax deadline wore the red
# Deadline badge
_OTHER_KINDS = ("done:", "reasoned walk:", "unconfirmed:", "correction to check:", "current state:", "lapsed state:",
                "expected:", "missed expectation:", "unverifiable expectation:", "confirmed expectation:")


def _badge(thought: Mapping[str, Any]) -> tuple[str, str]:
    title = str(thought.get("title") or "").lower()
    if title.startswith("open loop"):
        return BADGES[0]
    if title.startswith(("deadline", "past due")):
        return BADGES[1]
    if not title.startswith(_OTHER_KINDS):  # a title from elsewhere (Mneme's, a caller's): read for its words
        if "open loop" in title:
            return BADGES[0]
        if "deadline" in title:
            return BADGES[1]
    surface = thought.get("surface")
    if isinstance(surface, Mapping) and any(surface.get(k) for k in ("source_id", "source_path", "matched_terms",
                                                                       "prompt")):
        return BADGES[2]
    return BADGES[3]


def _t(x: float, y: float, text: str, *, size: float, fill: str, weight: str = "normal", anchor: str = "start",
       italic: bool = False) -> str:
    style = ' font-style="italic"' if italic else ""
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-family="{FONT}" font-size="{size:.0f}" font-weight="{weight}"'
            f' fill="{fill}" text-anchor="{anchor}"{style}>{xml_text(text)}</text>')


def _chip(x: float, y: float, text: str | Sequence[str], *, size: float, bg: str, ink: str,
          border: str | None = None, anchor_centre: bool = False) -> tuple[str, float]:
    """A pill centred on `y` holding `text`, or its lines one under another."""
    lines = [text] if isinstance(text, str) else list(text)
    w = max(text_width(line, size, bold=True) for line in lines) + size * 1.4
    step = size * LINE_SPACING
    h = size * 1.9 + step * (len(lines) - 1)
    left = x - w / 2 if anchor_centre else x
    stroke = f' stroke="{border}" stroke-width="1.5"' if border else ""
    first = y + size * 0.36 - step * (len(lines) - 1) / 2
    rx = min(h, size * 1.9) / 2  # a pill's round ends, whatever its lines
    out = (f'<rect x="{left:.0f}" y="{y - h / 2:.0f}" width="{w:.0f}" height="{h:.0f}" rx="{rx:.0f}"'
           f' fill="{bg}"{stroke}/>'
           + "".join(_t(left + w / 2, first + step * k, line, size=size, fill=ink, anchor="middle", weight="bold")
                     for k, line in enumerate(lines)))
    return out, w


LINE_SPACING = 1.2  # a chip's lines, in font sizes
LABEL_SIZES = (13, 11)  # a relation's chip: its size, and the smaller one a label too wide for it takes
NODE_R = 38


def relation_label(via: str, room: float) -> tuple[list[str], float]:
    """A relation's label on one line in `room` px: at 13 px, else at 11 px, else cut."""
    for size in LABEL_SIZES:
        if text_width(via, size, bold=True) <= room:
            return [via], size
    return wrap(via, room, LABEL_SIZES[-1], 1, bold=True), LABEL_SIZES[-1]


def arc_label(via: str, spacing: float, cy: float) -> tuple[list[str], float, float]:
    """(lines, size, centre y) of the label of an arc between neighbouring nodes `spacing` px apart: on the arc's top
    at 13 px when it fits there; else raised clear of the nodes at 11 px, on one line, or on two a little lower
    (below the lowest elbow line), the nodes leaving the chip the gap between them at its height. On a path of 7
    steps the arc's top had ≈ 60 px, and "has blocked", "has risk" and "has section" all read "has…"."""
    room = max(60.0, spacing - 2 * NODE_R - 34)
    if text_width(via, LABEL_SIZES[0], bold=True) <= room:
        return [via], LABEL_SIZES[0], cy - 30
    size = LABEL_SIZES[-1]
    for lines, clear in ((1, 34), (2, 25)):  # the chip's bottom above the nodes' centres
        half = math.sqrt(max(0.0, NODE_R ** 2 - clear ** 2))  # a node's half width at that height
        room = spacing - 2 * half - 4 - size * 1.4
        if lines == 2 or text_width(via, size, bold=True) <= room:
            label = wrap(via, room, size, lines, bold=True)
            return label, size, cy - clear - (size * 1.9 + size * LINE_SPACING * (len(label) - 1)) / 2
    raise AssertionError("unreachable")


# ── the card ───────────────────────────────────────────────────────────────────────────────────────────────────
def _path_nodes(thought: Mapping[str, Any]) -> list[dict[str, str]]:
    nodes = []
    for step in thought.get("path") or []:
        if isinstance(step, Mapping):
            nodes.append({"name": str(step.get("name") or step.get("id") or "?"), "type": str(step.get("type") or ""),
                          "via": str(step.get("via") or "")})
        else:
            nodes.append({"name": str(step), "type": "", "via": ""})
    return nodes


@dataclass(frozen=True)
class PathLink:
    """One connector a card draws: path step `parent` → step `child` over relation `via`; `reverse` when the stored
    edge points the other way (child → parent), so the arrow is drawn into the parent."""
    parent: int
    child: int
    via: str
    reverse: bool


def path_links(thought: Mapping[str, Any]) -> list[PathLink]:
    """The connectors of a thought's path, one per step that hangs on an earlier one.

    A walk branches (at a dead end it goes on from an earlier node), so a step names the node it was reached from
    (`from`): drawing the path as a chain would claim edges that do not exist. A step without `from` but with a
    relation is an older, chain-shaped path and hangs on the step before it; a step with neither was not reached
    over an edge and gets no connector."""
    steps = [s for s in thought.get("path") or []]
    index: dict[str, int] = {}
    links: list[PathLink] = []
    for i, step in enumerate(steps):
        if not isinstance(step, Mapping):
            if i:
                links.append(PathLink(i - 1, i, "", False))
            continue
        if "from" in step:
            parent = index.get(str(step["from"]))
        else:
            parent = i - 1 if i and (step.get("via") or "id" not in step) else None
        if parent is not None:
            links.append(PathLink(parent, i, str(step.get("via") or ""), bool(step.get("reverse"))))
        if step.get("id") is not None:
            index.setdefault(str(step["id"]), i)
    return links


def _branch_levels(links: Sequence[PathLink]) -> dict[int, int]:
    """child → level (1 = lowest) for each connector that skips over nodes: shorter spans sit lower, and two spans
    that overlap or meet at a node never share a level, so two connectors never read as one line. (A walk's spans
    nest or are apart — it backs up only from a node with nothing left to visit — so no two lines cross.)"""
    levels: dict[int, int] = {}
    placed: list[tuple[int, int, int]] = []
    for link in sorted((lk for lk in links if lk.child - lk.parent > 1), key=lambda lk: (lk.child - lk.parent,
                                                                                           lk.child)):
        level = 1 + max((lv for a, b, lv in placed if a <= link.child and link.parent <= b), default=0)
        placed.append((link.parent, link.child, level))
        levels[link.child] = level
    return levels


def _evidence_lines(thought: Mapping[str, Any]) -> tuple[list[str], int]:
    """The observations (as a card reads them), then any evidence saying something else: one line per statement,
    a section's raw text and its readable form counting as one (same words, other markup). A wikilink reads as the
    name it displays, as in the title and the reasoning (the JSON's evidence keeps the source text)."""
    seen: dict[tuple[str, ...], str] = {}
    for key in ("observations", "evidence"):
        for entry in thought.get(key) or []:
            text = entry.get("text") if isinstance(entry, Mapping) else entry
            text = " ".join(display_links(str(text or "")).split())
            if text:
                seen.setdefault(tuple(_WORDS.findall(text.casefold())), text)
    items = list(seen.values())
    return items[:MAX_EVIDENCE], max(0, len(items) - MAX_EVIDENCE)


def render_svg(thought: Mapping[str, Any], *, theme: str = "dark", generated_at: str = "") -> str:
    pal = THEMES[resolve_theme(theme, {})]
    parts: list[str] = []
    y = 0.0

    # header
    badge, badge_colour = badge_for(thought, theme)
    parts.append(_t(INNER_X, 118, "MNEMON", size=22, fill=pal["muted"], weight="bold"))
    chip, _ = _chip(230, 111, badge, size=18, bg=pal["chip_bg"], ink=badge_colour, border=badge_colour)
    parts.append(chip)
    score = thought.get("score")
    score_text = f"score {float(score):.2f}" if isinstance(score, (int, float)) else "score –"
    w = text_width(score_text, 18, bold=True) + 18 * 1.4
    chip, _ = _chip(WIDTH - INNER_X - w, 111, score_text, size=18, bg=pal["chip_bg"], ink=pal["chip_ink"])
    parts.append(chip)
    title_lines = wrap(str(thought.get("title") or "Untitled thought"), INNER_W, 40, 2, bold=True)
    y = 190
    for line in title_lines:
        parts.append(_t(INNER_X, y, line, size=40, fill=pal["ink"], weight="bold"))
        y += 50

    # path: a step drawn after the one it hangs on gets an arc; one hanging on an earlier step gets an elbow
    # line above the nodes it skips (a walk branches at dead ends, and a chain would claim edges that do not exist)
    nodes = _path_nodes(thought)
    shown = nodes[:MAX_PATH_NODES]
    links = [lk for lk in path_links(thought) if lk.child < len(shown)]
    levels = _branch_levels(links)
    top = max(levels.values(), default=0)
    overflow = len(nodes) > MAX_PATH_NODES
    y += 20
    cy = y + 50 + (30 * top + 20 + (30 if overflow else 0) if top else 0)
    if nodes:
        n = len(shown)
        span = INNER_W - 120
        xs = [INNER_X + 60 + (span * i / (n - 1) if n > 1 else span / 2) for i in range(n)]
        for link in links:
            a, b = link.parent, link.child
            via = unshown_dropped(link.via).replace("_", " ").strip()  # " " had no line to wrap: IndexError
            if b - a == 1:
                x0, x1 = xs[a] + 40, xs[b] - 40
                labels, size, chip_y = arc_label(via, xs[b] - xs[a], cy) if via else ([], 13.0, cy - 30)
                mid, apex = (x0 + x1) / 2, cy - 34 - 2 * (cy - 30 - chip_y)  # a raised label raises the arc's top
                ends = (x1, x0) if link.reverse else (x0, x1)
                parts.append(f'<path d="M{ends[0]:.0f},{cy:.0f} Q{mid:.0f},{apex:.0f} {ends[1]:.0f},{cy:.0f}"'
                             f' fill="none" stroke="{pal["connector"]}" stroke-width="3" marker-end="url(#arrow)"/>')
            else:
                # an elbow: up from the right of the parent's top, across, down into the left of the child's top, so
                # a node's incoming and outgoing lines never share a vertical; the label gets the gap between them
                chip_y = cy - 62 - 30 * (levels[b] - 1)
                x0, x1 = xs[b - 1] + 18, xs[b] - 18
                mid = (x0 + x1) / 2
                ends = (xs[b] - 14, xs[a] + 14) if link.reverse else (xs[a] + 14, xs[b] - 14)
                parts.append(f'<path d="M{ends[0]:.0f},{cy - 36:.0f} V{chip_y:.0f} H{ends[1]:.0f} V{cy - 42:.0f}"'
                             f' fill="none" stroke="{pal["connector"]}" stroke-width="3" stroke-linejoin="round"'
                             f' marker-end="url(#arrow)"/>')
                labels, size = relation_label(via, max(60.0, x1 - x0 - 30))
            if via:
                chip, _ = _chip(mid, chip_y, labels, size=size, bg=pal["chip_bg"], ink=pal["chip_ink"],
                                border=pal["connector"], anchor_centre=True)
                parts.append(chip)  # drawn in order: no later line runs through an earlier chip (see above)
        for i, (x, node) in enumerate(zip(xs, shown), start=1):
            colour = NODE_COLOURS.get(node["type"], DEFAULT_NODE_COLOUR)
            parts.append(f'<circle cx="{x:.0f}" cy="{cy:.0f}" r="38" fill="{colour}"/>')
            parts.append(_t(x, cy + 10, str(i), size=28, fill=pal["node_ink"], weight="bold", anchor="middle"))
            ly = cy + 66
            room = min(150.0, span / max(1, n - 1) - 10 if n > 1 else 300.0)
            for line in wrap(node["name"], room, 15, 3):
                parts.append(_t(x, ly, line, size=15, fill=pal["ink"], anchor="middle"))
                ly += 19
            # the type is the note's own (front matter `type`), any length: on one line it ran off the card
            for line in wrap(node["type"], room, 13, 1):
                parts.append(_t(x, ly + 2, line, size=13, fill=pal["muted"], anchor="middle", italic=True))
        if overflow:
            more = f"+{len(nodes) - MAX_PATH_NODES} more"
            more_y = cy - 62 - 30 * top if top else cy - 70
            chip, _ = _chip(WIDTH - INNER_X - text_width(more, 13, True) - 13 * 1.4, more_y, more, size=13,
                            bg=pal["chip_bg"], ink=pal["chip_ink"])
            parts.append(chip)
        y = cy + 150
    else:
        parts.append(_t(WIDTH / 2, cy, "No graph path: this thought comes from a single memory.", size=18,
                        fill=pal["faint"], anchor="middle", italic=True))
        y = cy + 50

    # bands
    def band(label: str, lines: list[str], key: str, size: float = 18) -> None:
        nonlocal y
        height = 56 + 26 * len(lines)
        parts.append(f'<rect x="{INNER_X - 20}" y="{y:.0f}" width="{INNER_W + 40}" height="{height:.0f}" rx="18"'
                     f' fill="{pal[key + "_bg"]}" stroke="{pal[key + "_border"]}" stroke-width="1.5"/>')
        parts.append(_t(INNER_X, y + 32, label.upper(), size=14, fill=pal[key + "_accent"], weight="bold"))
        ly = y + 60
        for line in lines:
            parts.append(_t(INNER_X, ly, line, size=size, fill=pal["ink"]))
            ly += 26
        y += height + 22

    evidence, extra = _evidence_lines(thought)
    if evidence:
        lines: list[str] = []
        for item in evidence:
            lines += wrap("• " + item, INNER_W, 17, 2)
        if extra:
            lines.append(f"+{extra} more in the JSON output")
        band("Evidence", lines, "evidence", 17)
    band("Reasoning", wrap(str(thought.get("insight") or "—"), INNER_W, 18, 3), "reasoning")
    band("Next", wrap(str(thought.get("action") or "—"), INNER_W, 18, 2), "next")

    # footer
    surface = thought.get("surface") if isinstance(thought.get("surface"), Mapping) else {}
    bits = []
    if thought.get("why_now"):
        bits.append("Why now: " + _middle_truncate(str(thought["why_now"]), 140))
    src = thought.get("source_path") or (surface or {}).get("source_path")
    if src:
        bits.append("src: " + _middle_truncate(str(src), 80))
    matched = (surface or {}).get("matched_terms") or []
    if matched and not thought.get("why_now"):  # (a card's "why now" names them as typed: "batteri" was said again)
        bits.append("matched: " + ", ".join(str(m) for m in list(matched)[:5]))
    y += 6
    for line in wrap(" · ".join(bits), INNER_W, 14, 2) if bits else []:
        parts.append(_t(INNER_X, y, line, size=14, fill=pal["muted"]))
        y += 20
    stamp = f"Generated {generated_at} from a local mnemon graph." if generated_at else "Generated from a local mnemon graph."
    parts.append(_t(WIDTH - INNER_X, y + 14, stamp, size=12, fill=pal["faint"], anchor="end"))
    panel_h = y + 44 - 40
    height = int(panel_h + 80)

    # the title in full, as a screen reader reads the card, up to a length a title has (a note's text can be a title)
    label = xml_text(clip(str(thought.get("title") or "thought card"), 300)).replace('"', "&quot;")
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}"'
        f' role="img" aria-label="{label}">'
        f'<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7"'
        f' orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{pal["connector"]}"/></marker></defs>'
        f'<rect width="{WIDTH}" height="{height}" fill="{pal["bg"]}"/>'
        + _panel_shadow(panel_h, pal["shadow"]) +
        f'<rect x="{PANEL_X}" y="40" width="{PANEL_W}" height="{panel_h:.0f}" rx="36" fill="{pal["panel"]}"'
        f' stroke="{pal["panel_border"]}" stroke-width="2"/>'
    )
    return head + "".join(parts) + "</svg>\n"


# the panel's shadow: dropped 10 px, at most 35 % of the shadow colour, fading over a Gaussian edge of σ 12 px
SHADOW_DROP, SHADOW_OPACITY, SHADOW_SIGMA, SHADOW_STEP = 10, 0.35, 12.0, 2.5


def _panel_shadow(panel_h: float, colour: str) -> str:
    """A soft shadow under the panel drawn as outlines of the dropped panel, each a step further out and fainter as
    a blurred edge fades (erfc). A blur filter looks the same but made rasterising a card take 0.76 s instead of
    0.2–0.3 s: resvg blurs the whole panel. The outlines are twice a step wide, so each point lies under two of them and
    no seam shows between neighbours; each one's opacity is what makes two of them compose to the edge's."""
    rings = []
    # from just inside the dropped panel's edge (the drop shows there, below the panel) to 3 σ outside it
    for i in range(-math.ceil(SHADOW_DROP / SHADOW_STEP) - 1, int(3 * SHADOW_SIGMA / SHADOW_STEP) + 1):
        grow = i * SHADOW_STEP
        edge = SHADOW_OPACITY * 0.5 * math.erfc(grow / (SHADOW_SIGMA * math.sqrt(2)))
        opacity = round(1 - math.sqrt(1 - edge), 3)
        if opacity < 0.003:
            continue
        rings.append(f'<rect x="{PANEL_X - grow:g}" y="{40 + SHADOW_DROP - grow:g}" width="{PANEL_W + 2 * grow:g}"'
                     f' height="{panel_h + 2 * grow:.0f}" rx="{max(0.0, 36 + grow):g}" fill="none" stroke="{colour}"'
                     f' stroke-opacity="{opacity}" stroke-width="{2 * SHADOW_STEP:g}"/>')
    return "".join(rings)


# ── files ──────────────────────────────────────────────────────────────────────────────────────────────────────
def rasterise(svg: str, png_path: Path) -> tuple[str | None, str | None]:
    """(rasteriser used, None), or (None, why there is no PNG): none installed, or what each one tried said. The
    SVG stands either way; the reason is reported because a failure that looks like "nothing installed" sent people
    installing a rasteriser they had."""
    failures: list[str] = []
    try:
        import resvg_py  # optional extra `cards`
    except ImportError:
        resvg_py = None  # type: ignore[assignment]  # the optional extra is not installed
    if resvg_py is not None:
        try:
            data = resvg_py.svg_to_bytes(svg_string=svg)
            png_path.write_bytes(bytes(data))
            return "resvg-py", None
        except Exception as exc:  # noqa: BLE001 — whatever a third-party rasteriser raises, the card stands as SVG
            failures.append(f"resvg-py: {type(exc).__name__}: {exc}")
    for binary in ("magick", "convert"):
        exe = shutil.which(binary)
        if not exe:
            continue
        svg_tmp = png_path.with_suffix(".tmp.svg")
        try:
            svg_tmp.write_text(svg, encoding="utf-8")
            subprocess.run([exe, str(svg_tmp), str(png_path)], check=True, capture_output=True, timeout=30)
            return f"imagemagick:{binary}", None
        except subprocess.CalledProcessError as exc:
            said = (exc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
            failures.append(f"imagemagick:{binary}: " + (said[-1] if said else f"exit {exc.returncode}"))
        except (OSError, subprocess.SubprocessError) as exc:
            failures.append(f"imagemagick:{binary}: {type(exc).__name__}: {exc}")
        finally:
            svg_tmp.unlink(missing_ok=True)
    return None, ("rasterising failed: " + "; ".join(failures)) if failures else NO_RASTERISER


def svg_to_png(svg: str, png_path: Path) -> str | None:
    """Rasterise; returns the rasteriser used, or None when none is available or it failed (the SVG still stands;
    `rasterise` says why)."""
    return rasterise(svg, png_path)[0]


CARD_SUFFIXES = (".svg", ".png")


def check_out_dir(out_dir: str | Path, *, config: str | Path | None = None) -> Path:
    """`out_dir` as a card folder, or `InvalidInput` when it (or a folder on its way) is a file: checked before any
    work, so a command does not ingest a vault or walk the graph only to fail at the end (`FileExistsError` was an
    `internal` error). `config`: the config file the value came from (its `out`), which the refusal names instead of
    an `--out` nobody typed."""
    named = "--out" if config is None else f"setting out in config file {config}"
    where = {"out": str(out_dir)} if config is None else {"out": str(out_dir), "setting": "out", "config": str(config)}
    if not str(out_dir).strip():
        # a script's unset "$OUT": " " made a folder named by a space in the working directory, and wrote there
        raise InvalidInput(f"{named} must name a folder, not be blank", **where)
    if str(out_dir).strip() == "-":
        # read as "stdout" elsewhere; here it made a folder named `-` and wrote the cards into it
        raise InvalidInput(f"{named} names the folder cards are written to (an .svg and a .png each), not a stream: "
                           "'-' is not a folder, and stdout carries the one JSON document the command prints (each "
                           "card's path is in it); give a folder, or ./- for one named '-'", **where)
    path = Path(out_dir).expanduser()
    for place in (path, *path.parents):
        if place.exists():
            if not place.is_dir():
                raise InvalidInput(f"{named} must be a directory; {place} is a file", **where)
            break
    if path.suffix.casefold() in CARD_SUFFIXES and not path.is_dir():
        # (`thought --out card.svg` made a folder of that name and wrote the card inside it, without a word)
        fix = f"`--out {path.parent}`" if config is None else f"{path.parent}, or give --out"
        raise InvalidInput(f"{named} names the folder cards are written to (each card is thought_<time>.svg and .png "
                           f"in it), not a card file: {out_dir} is not a folder; give a folder, such as {fix}", **where)
    return path


def make_out_dir(out_dir: str | Path) -> Path:
    """`check_out_dir`, then the folder made: one this user may not create (`--out /srv/cards`) is refused before any
    work too. It failed only when the card was written, after `run-once` had ingested the whole vault under a reply
    saying the run failed. The `OSError` is the interfaces' "cannot use PATH: Permission denied"."""
    path = check_out_dir(out_dir)
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextlib.contextmanager
def out_dir_for_run(out_dir: str | Path) -> Iterator[Path]:
    """`make_out_dir` for work that may still be refused after it (`run-once`: a missing vault, a bad --max-notes):
    when the work fails, each folder made here that is still empty is removed again, so a refused call leaves
    nothing behind (`run-once --vault MISSING --out NEWDIR` left NEWDIR)."""
    path = check_out_dir(out_dir)
    made: list[Path] = []  # the deepest first
    for place in (path, *path.parents):
        if os.path.lexists(place):
            break
        made.append(place)
    path.mkdir(parents=True, exist_ok=True)
    try:
        yield path
    except BaseException:
        for folder in made:
            try:
                folder.rmdir()  # (only an empty one: a card written meanwhile is kept)
            except OSError:
                break
        raise


# a card's name keeps the letters, marks and digits of its stamp in any script ("Ωmega" lost its Ω, a Japanese title
# all of it); anything else — a path's `/`, Windows' `\ : * ? " < > |`, controls, spaces, dots — becomes "_"
_NAME_RUNS = re.compile(r"_+")
NAME_MAX_CHARS = 80
# in UTF-8 bytes, under a 255-byte file system's limit with "thought_", a "_<n>" of `_claim_name` and ".svg.tmp"
NAME_MAX_BYTES = 200


def card_name(stamp: str) -> str:
    """The part of a card's file name taken from `stamp`: NFC, safe on macOS, Windows and Linux, at most
    `NAME_MAX_CHARS` characters a reader sees and `NAME_MAX_BYTES` bytes, cut between such characters; "card" when
    nothing is left. The same stamp always gives the same name."""
    kept = "".join(ch if unicodedata.category(ch)[0] in "LMN" or ch == "-" else "_"
                   for ch in unicodedata.normalize("NFC", stamp))
    name, size = "", 0
    for n, cluster in enumerate(_GRAPHEME.findall(_NAME_RUNS.sub("_", kept).strip("_"))):
        size += len(cluster.encode("utf-8"))
        if n == NAME_MAX_CHARS or size > NAME_MAX_BYTES:
            break
        name += cluster
    return name.rstrip("_") or "card"


def write_card(thought: Mapping[str, Any], out_dir: str | Path, *, stamp: str, theme: str | None = None,
               png: bool = True, generated_at: str = "") -> CardFiles:
    """Write `<out_dir>/thought_<stamp>.svg` (and .png). `stamp` is made a safe name (`card_name`), so no title can
    escape `out_dir`."""
    out = check_out_dir(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    safe = card_name(stamp)
    svg_text = render_svg(thought, theme=resolve_theme(theme), generated_at=generated_at)
    base = _claim_name(out, f"thought_{safe}")
    svg_path = out / f"{base}.svg"
    tmp = svg_path.with_suffix(".svg.tmp")
    tmp.write_text(svg_text, encoding="utf-8")
    os.replace(tmp, svg_path)
    png_path: Path | None = None
    used: str | None = None
    why: str | None = None
    if png:
        candidate = out / f"{base}.png"
        used, why = rasterise(svg_text, candidate)
        png_path = candidate if used else None
    return CardFiles(svg_path, png_path, used, why)


def _claim_name(out: Path, base: str) -> str:
    """A card name no other card has: two thoughts in the same second (a loop, a cron job) overwrote each other's
    files, and the first answer then named the second card. The SVG's name is claimed by creating it (O_EXCL)."""
    for attempt in range(1, 1000):
        name = base if attempt == 1 else f"{base}_{attempt}"
        try:
            os.close(os.open(out / f"{name}.svg", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return name
    raise InvalidInput(f"too many cards named {base} in {out}")


def sample_thought() -> dict[str, Any]:
    """A fixed thought for golden tests and `--help` examples (fictional content)."""
    return {
        "title": "Open loop hiding in the graph: school confirmation",
        "insight": "The move is waiting on the school's confirmation, and the application deadline is May 1; "
                   "the apartment choice depends on both.",
        "action": "Email the school office for the confirmation, then shortlist apartments near the school.",
        "score": 7.25,
        "path": [
            {"name": "Example Move Project", "type": "project"},
            {"name": "Waiting for school confirmation before choosing an apartment", "type": "observation",
             "via": "has_blocked"},
            {"name": "School Search", "type": "note", "via": "links_to"},
            {"name": "2026-05-01", "type": "date", "via": "mentions_date"},
        ],
        "evidence": ["Waiting for school confirmation before choosing an apartment",
                     "Application deadline due May 1 <with & markup>"],
        "observations": ["Waiting for school confirmation before choosing an apartment"],
        "why_now": "open loop; deadline within 30 days; matched hint: school",
        "source_path": "Projects/move.md",
        "surface": {"matched_terms": ["school", "confirm"]},
    }


__all__: Sequence[str] = ("CardFiles", "PathLink", "THEMES", "badge_for", "check_out_dir", "make_out_dir", "path_links",
                          "rasterise", "render_svg", "resolve_theme", "svg_to_png", "write_card", "sample_thought",
                          "text_width", "wrap", "clip", "xml_text")
