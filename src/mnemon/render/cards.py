"""Thought cards: one self-contained SVG per thought (no external fonts, images or scripts), PNG on request.

Layout follows Mneme's card (reference §4) — header badge, score chip, title, a path of numbered nodes joined by
relation chips, evidence / reasoning / next-step bands and a footer — with its weak spots fixed:

* every piece of text is XML-escaped (Mneme interpolated note text into markup, so a `<` or `&` in a note broke
  the file), and the characters XML 1.0 forbids outright (C0 controls but tab and newlines, lone surrogates) are
  dropped: no escape exists for them, and one pasted control character made the whole card unreadable. So are the
  other controls (DEL, C1) and the bidi overrides, embeddings, isolates and marks: a U+202E in a title drew the rest
  of the line backwards, so a card could read other than its note says (letters of any script stay as they are);
* wrapping uses an estimate of rendered width per character class instead of a fixed character count, so wide
  capitals do not overflow the panel and narrow text does not leave half the band empty; text that does not fit
  is cut between words (else after a separator such as `/` or `-`), never inside a date or a time of day —
  "Meeting 2026-1…" read as another date — with "…" marking the cut;
* the card grows to fit its bands instead of clipping them, and the output is byte-for-byte deterministic for a
  given thought, theme and timestamp (golden-file tests rely on it);
* PNG goes through `resvg-py` when installed (`pip install mnemon[cards]`), else ImageMagick, else none — the
  SVG is always written and the caller is told which rasteriser ran, or why there is no PNG (`png_error`: none
  installed, or what the rasteriser said).
"""
from __future__ import annotations

import functools
import math
import os
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import regex

from ..core.errors import InvalidInput
from ..core.vault.links import display_links

WIDTH = 1200
PANEL_X = 40
PANEL_W = WIDTH - 2 * PANEL_X
INNER_X = 90
INNER_W = WIDTH - 2 * INNER_X
FONT = "DejaVu Sans, Inter, Arial, sans-serif"
MAX_PATH_NODES = 7
MAX_EVIDENCE = 5
_WORDS = re.compile(r"\w+")  # what two renderings of one statement share
# Characters no card shows (see the module doc): the ones XML 1.0 forbids, DEL and the C1 controls, the Arabic letter
# mark, LRM/RLM, the bidi embeddings and overrides (U+202A–E), the isolates and the deprecated format controls
# (U+2066–F) and the interlinear annotation marks (they hide text between them). ZWJ/ZWNJ stay: emoji sequences and
# Persian or Indic words need them.
_UNSHOWN_RANGES = ((0x00, 0x08), (0x0B, 0x0C), (0x0E, 0x1F), (0x7F, 0x9F), (0x061C, 0x061C), (0x200E, 0x200F),
                   (0x202A, 0x202E), (0x2066, 0x206F), (0xD800, 0xDFFF), (0xFFF9, 0xFFFB), (0xFFFE, 0xFFFF))
_UNSHOWN = frozenset(chr(c) for lo, hi in _UNSHOWN_RANGES for c in range(lo, hi + 1))
_DROP_UNSHOWN = dict.fromkeys(map(ord, _UNSHOWN))
_UNSHOWN_TEXT = "".join(sorted(_UNSHOWN))
# dates (an ISO one with its time of day) and times of day, which a cut must not split ("Meeting 2026-1…" reads as
# another date); one pattern each, searched apart, since their matches may overlap ("10-14/2026-10-14")
_DATES_AND_TIMES = tuple(re.compile(p) for p in (
    r"(?<!\d)\d{4}-\d{1,2}-\d{1,2}(?:T\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?(?!\d)",
    r"(?<!\d)(?:\d{4}([/.])\d{1,2}\1\d{1,2}|\d{1,2}([/.])\d{1,2}\2\d{2,4})(?!\d)",  # 2026/10/14, 14.10.2026
    r"(?<!\d)\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?!\d)(?:\s?[AaPp]\.?[Mm]\b\.?)?"))
_SEPARATORS = frozenset("-/_.,;:|\\+&")
# what a reader sees as one character (an emoji sequence joined by ZWJ, a flag's two regional indicators, a letter and
# its accents): a cut inside one drew lone people and a dangling joiner, another country's flag, or a bare accent
_GRAPHEME = regex.compile(r"\X")
# punctuation a line may not start with, or end with (kinsoku): "。" or "）" opening a line, "（" or "「" closing one
_NO_BREAK_BEFORE, _NO_BREAK_AFTER = frozenset(("Pe", "Pf", "Po")), frozenset(("Ps", "Pi"))
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


def _badge(thought: Mapping[str, Any]) -> tuple[str, str]:
    title = str(thought.get("title") or "").lower()
    if "open loop" in title:
        return BADGES[0]
    if "deadline" in title or title.startswith("past due"):
        return BADGES[1]
    surface = thought.get("surface")
    if isinstance(surface, Mapping) and any(surface.get(k) for k in ("source_id", "source_path", "matched_terms",
                                                                       "prompt")):
        return BADGES[2]
    return BADGES[3]


# ── text measuring ─────────────────────────────────────────────────────────────────────────────────────────────
# advance widths in thousandths of an em of DejaVu Sans and DejaVu Sans Bold (the card's first font), for printable
# ASCII from " " to "~": a handful of classes took "<", "=", "+", "#" (838) for 610 and "O" (787) for 680, and a
# note's "=====" or "<<<>>>" ran off the card
_ASCII_EM = (
    "318 401 460 838 637 951 780 275 391 391 500 838 318 361 318 337 637 637 637 637 637 637 637 637 637 637 337 337 "
    "838 838 838 531 1000 685 687 699 771 632 576 775 752 295 295 656 558 863 749 788 604 788 695 635 611 732 685 "
    "989 686 611 686 391 337 391 838 500 500 613 635 550 635 616 353 635 634 278 278 580 278 975 634 612 635 635 412 "
    "521 393 634 592 818 592 592 525 637 337 637 838")
_ASCII_BOLD_EM = (
    "349 457 521 838 696 1002 873 307 458 458 523 838 380 416 380 366 696 696 696 696 696 696 696 696 696 696 400 400 "
    "838 838 838 581 1000 774 763 734 831 684 684 821 837 373 373 775 638 996 837 851 733 851 771 721 683 813 774 "
    "1104 771 725 726 458 366 458 838 500 500 675 716 593 716 679 436 716 712 343 343 666 343 1042 712 688 716 716 "
    "494 596 479 712 652 924 646 652 583 712 366 712 838")


def _ascii_widths(table: str) -> dict[str, float]:
    widths = {chr(32 + i): int(em) / 1000 for i, em in enumerate(table.split())}
    return {**dict.fromkeys(map(chr, range(128)), 0.0), **dict.fromkeys("\t\n\r", widths[" "]), **widths}


_WIDTHS = (_ascii_widths(_ASCII_EM), _ascii_widths(_ASCII_BOLD_EM))
# other characters by class, in em, above most of the class in DejaVu Sans, and the letters and signs much wider than
# their class ("Æ", "Œ", "Ж", "щ": over 1 em); a bold one is 20 % wider. Too wide only leaves a line a little short;
# too narrow runs off the card.
_CLASS_EM = {"Lu": 0.95, "Lt": 0.95, "Ll": 0.7, "Lo": 0.8, "S": 1.0, "N": 0.8}
_OTHER_EM = {**dict.fromkeys("ÆæŒœǄǅǆǱǲǳǇǈǉǊǋǌЉЊЖШЩЮжшщюљњыѾѿѼѽѩ‰‱₧₯₨", 1.2),
             **dict.fromkeys("фмдωώϖϢϣ¼½¾―⁂※", 1.0),
             "…": 1.0, "—": 1.0, "–": 0.5, "•": 0.59, "·": 0.32, "“": 0.55, "”": 0.55, "‘": 0.32, "’": 0.32,
             "«": 0.6, "»": 0.6, "\u00a0": 0.32}
_BOLD = 1.2


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Estimated rendered width of `text` in DejaVu Sans at `size` px: exact for ASCII, an accented letter as its
    letter, other characters by class and never much narrower than drawn. The characters `xml_text` drops take no
    room, and a character made of several (an emoji sequence, a flag, a letter and its accents) takes the room of its
    first: its joiners, modifiers and marks draw nothing beside it."""
    widths = _WIDTHS[bold]
    if text.isascii():
        return sum(map(widths.__getitem__, text)) * size
    total = sum(_char_width(cluster.lstrip(_UNSHOWN_TEXT)[:1], bold) for cluster in _GRAPHEME.findall(text))
    return total * size


@functools.lru_cache(maxsize=4096)
def _char_width(ch: str, bold: bool) -> float:
    widths = _WIDTHS[bold]
    if not ch or ch in _UNSHOWN:
        return 0.0
    if ch in widths:
        return widths[ch]
    base = unicodedata.normalize("NFD", ch)[0]
    if base in widths:  # "é", "Å": the letter under the accent
        return widths[base]
    scale = _BOLD if bold else 1.0
    if ch in _OTHER_EM:
        return _OTHER_EM[ch] * scale
    if _is_wide(ch) or unicodedata.east_asian_width(ch) in ("W", "F"):  # CJK and other full-width scripts, emoji
        return 1.0 * scale
    category = unicodedata.category(ch)
    return _CLASS_EM.get(category, _CLASS_EM.get(category[0], 0.8)) * scale


def _is_wide(ch: str) -> bool:
    return ord(ch) > 0x2E80


def _cut_ranks(text: str) -> list[int]:
    """How good a place each index k is to cut `text` (keeping `text[:k]`): 0 between words, 1 after a separator
    inside a word (a path's `/`, a hyphen) or beside an ideograph or emoji (a sentence written without spaces breaks
    between any two of them), 2 elsewhere inside a word, 3 inside a date or a time of day, 4 inside a character a
    reader sees as one (`_GRAPHEME`)."""
    ranks = [2] * (len(text) + 1)
    ranks[0] = ranks[-1] = 0
    for k in range(1, len(text)):
        if text[k].isspace() or text[k - 1].isspace():
            ranks[k] = 0
        elif text[k - 1] in _SEPARATORS:
            ranks[k] = 1
    for pattern in _DATES_AND_TIMES:
        for m in pattern.finditer(text):
            ranks[m.start() + 1:m.end()] = [3] * (m.end() - m.start() - 1)
    if not text.isascii():
        start = 0
        for cluster in _GRAPHEME.findall(text):
            end = start + len(cluster)
            ranks[start + 1:end] = [4] * (end - start - 1)
            if (start and ranks[start] == 2 and (_is_wide(text[start - 1]) or _is_wide(text[start]))
                    and unicodedata.category(text[start]) not in _NO_BREAK_BEFORE
                    and unicodedata.category(text[start - 1]) not in _NO_BREAK_AFTER):
                ranks[start] = 1
            start = end
    return ranks


def _cut_before(ranks: Sequence[int], most: int) -> int:
    """Where to end a kept head of at most `most` characters: the last word boundary in the latter half of that
    room, else the last separator there (a long path keeps its folders), else the last word boundary or separator
    anywhere, else the last place outside a date or a time, else outside a character (one date wider than the
    room: cutting it is all there is); 0 when there is none (one character wider than the room)."""
    if most <= 0:
        return 0
    half = max(1, most // 2)
    for worst, low in ((0, half), (1, half), (1, 1), (2, 1), (3, 1)):
        for k in range(most, low - 1, -1):
            if ranks[k] <= worst:
                return k
    return 0


def _cut_after(ranks: Sequence[int], least: int) -> int:
    """Where to start a kept tail that begins at `least` or later: `_cut_before`'s choice, mirrored."""
    end = len(ranks) - 1
    if least >= end:
        return end
    half = least + (end - least) // 2
    for worst, high in ((0, half), (1, half), (1, end - 1), (2, end - 1), (3, end - 1)):
        for k in range(least, high + 1):
            if ranks[k] <= worst:
                return k
    return end


def _trim_end(head: str) -> str:
    """A kept head before its "…": no trailing space or clause punctuation ("due:…" reads as if something followed)."""
    return head.rstrip().rstrip(",;:").rstrip()


_CUT_CONTEXT = 80  # how far past a cut a date or a character that it would split can reach


def _fit(text: str, max_width: float, size: float, bold: bool, suffix: str = "") -> int:
    """How much of `text` to keep so that it and `suffix` fit `max_width`, cut where `_cut_before` says."""
    if text_width(text + suffix, size, bold) <= max_width:
        return len(text)
    low, high = 0, len(text)  # the longest prefix that fits, by bisection: width only grows with length
    while low < high:
        mid = (low + high + 1) // 2
        if text_width(text[:mid] + suffix, size, bold) <= max_width:
            low = mid
        else:
            high = mid - 1
    return _cut_before(_cut_ranks(text[:low + _CUT_CONTEXT]), low)


def wrap(text: str, max_width: float, size: float, max_lines: int, bold: bool = False) -> list[str]:
    """Greedy word wrap by estimated width; the last kept line ends with an ellipsis when text was dropped."""
    words = " ".join(str(text).split()).split(" ")
    lines: list[str] = []
    current = ""
    for word in words:
        if len(lines) > max_lines:  # past what is kept: the rest only costs time (a note can be megabytes)
            break
        if not word:
            continue
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold) <= max_width:
            current = candidate
            continue
        if current:
            # a word wider than a whole line is cut anyway: its head fills this line first — a statement written
            # without spaces (Chinese, Japanese) left the "•" before it alone on the first of a band's lines
            room = max_width - text_width(current + " ", size, bold)
            if room > 0 and text_width(word, size, bold) > max_width:
                head = _fit(word, room, size, bold)
                if head:
                    current, word = f"{current} {word[:head]}", word[head:]
            lines.append(current)
        current = word
        # one word wider than the line: hard-break it, only into the lines kept (a sentence without spaces can be a
        # whole note: breaking all of it took seconds)
        while len(lines) <= max_lines and text_width(current, size, bold) > max_width:
            # after a `/` or `-` when it can, not in a date; one character wider than the line is drawn whole
            first = _GRAPHEME.match(current)
            cut = _fit(current, max_width, size, bold) or (first.end() if first else 1)
            lines.append(current[:cut])
            current = current[cut:]
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        kept = lines[:max_lines]
        last = kept[-1]
        kept[-1] = _trim_end(last[:_fit(last, max_width, size, bold, "…")]) + "…"
        return kept
    return lines


def clip(text: str, limit: int) -> str:
    """`text` on one line in at most `limit` characters, cut as `wrap` cuts (between words, never inside a date or
    a time) with "…" marking the cut: `core.text.excerpt` cut anywhere, and titles read "Meeting 2026-1…"."""
    flat = " ".join(str(text).split())
    if len(flat) <= limit:
        return flat
    if limit <= 1:
        return "…"[:limit]
    return _trim_end(flat[:_cut_before(_cut_ranks(flat[:limit + _CUT_CONTEXT]), limit - 1)]) + "…"


def xml_text(text: str) -> str:
    """`text` as XML character data: escaped, and without the characters no card shows (`_UNSHOWN`)."""
    return escape(unshown_dropped(text))


def unshown_dropped(text: str) -> str:
    """`text` without the characters no card shows (`_UNSHOWN`: controls, lone surrogates, bidi overrides)."""
    return text.translate(_DROP_UNSHOWN)


def _middle_truncate(text: str, limit: int) -> str:
    """`text` in at most `limit` characters, its middle left out (a path keeps its top folder and its file name), both
    cuts made as `clip` makes them."""
    if len(text) <= limit:
        return text
    ranks = _cut_ranks(text)
    head = _cut_before(ranks, (limit - 1) // 2)
    tail = _cut_after(ranks, len(text) - (limit - 1 - head))  # the tail gets what the head did not use
    return _trim_end(text[:head]) + "…" + text[tail:].lstrip()


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
            via = link.via.translate(_DROP_UNSHOWN).replace("_", " ").strip()  # " " had no line to wrap: IndexError
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
            for line in wrap(node["name"], min(150.0, span / max(1, n - 1) - 10 if n > 1 else 300.0), 15, 3):
                parts.append(_t(x, ly, line, size=15, fill=pal["ink"], anchor="middle"))
                ly += 19
            if node["type"]:
                parts.append(_t(x, ly + 2, node["type"], size=13, fill=pal["muted"], anchor="middle", italic=True))
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

    label = xml_text(str(thought.get("title") or "thought card")).replace('"', "&quot;")
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


_STAMP_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


def write_card(thought: Mapping[str, Any], out_dir: str | Path, *, stamp: str, theme: str | None = None,
               png: bool = True, generated_at: str = "") -> CardFiles:
    """Write `<out_dir>/thought_<stamp>.svg` (and .png). `stamp` is sanitised, so no title can escape `out_dir`."""
    out = check_out_dir(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    safe = _STAMP_UNSAFE.sub("_", stamp).strip("_")[:80] or "card"
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
