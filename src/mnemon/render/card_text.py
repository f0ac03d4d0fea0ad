"""Text on a thought card: what no card shows, how wide a line is drawn, and where it may be cut.

* the characters XML 1.0 forbids outright (C0 controls but tab and newlines, lone surrogates) are dropped: no escape
  exists for them, and one pasted control character made the whole card unreadable. So are the other controls (DEL,
  C1) and the bidi overrides, embeddings, isolates and marks: a U+202E in a title drew the rest of the line backwards
  (letters of any script stay as they are);
* widths are DejaVu Sans's own for ASCII and estimated per character class elsewhere, never much narrower than drawn,
  so no line runs off the card;
* text that does not fit is cut between words (else after a separator such as `/` or `-`, or between two ideographs
  or emoji), never inside a date or a time of day — "Meeting 2026-1…" read as another date — nor inside a character
  a reader sees as one (an emoji sequence, a flag, a letter and its accents), with "…" marking the cut.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from xml.sax.saxutils import escape

import regex

# Characters no card shows (see the module doc): the ones XML 1.0 forbids, DEL and the C1 controls, the Arabic letter
# mark, LRM/RLM, the bidi embeddings and overrides (U+202A–E), the isolates and the deprecated format controls
# (U+2066–F) and the interlinear annotation marks (they hide text between them). ZWJ/ZWNJ stay: emoji sequences and
# Persian or Indic words need them.
_UNSHOWN_RANGES = ((0x00, 0x08), (0x0B, 0x0C), (0x0E, 0x1F), (0x7F, 0x9F), (0x061C, 0x061C), (0x200E, 0x200F),
                   (0x202A, 0x202E), (0x2066, 0x206F), (0xD800, 0xDFFF), (0xFFF9, 0xFFFB), (0xFFFE, 0xFFFF))
_UNSHOWN = frozenset(chr(c) for lo, hi in _UNSHOWN_RANGES for c in range(lo, hi + 1))
_DROP_UNSHOWN = dict.fromkeys(map(ord, _UNSHOWN))
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
    return sum(_cluster_width(cluster, bold) for cluster in _GRAPHEME.findall(text)) * size


def _cluster_width(cluster: str, bold: bool) -> float:
    """The width of a character made of `cluster`: its first shown one's."""
    for ch in cluster:
        if ch not in _UNSHOWN:
            return _char_width(ch, bold)
    return 0.0


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
    low = _fitting_prefix(text, max_width, size, bold, suffix)
    if low == len(text):
        return low
    return _cut_before(_cut_ranks(text[:low + _CUT_CONTEXT]), low)


def _fits(text: str, max_width: float, size: float, bold: bool) -> bool:
    """Whether `text` fits `max_width`, read only as far as it fits."""
    return _fitting_prefix(text, max_width, size, bold, "") == len(text)


def _fitting_prefix(text: str, max_width: float, size: float, bold: bool, suffix: str) -> int:
    """The length of the longest prefix of whole characters of `text` that, with `suffix`, fits `max_width`, summed
    as `text_width` sums it and read only as far as it fits: a bisection measured the whole text at every step, and
    a sentence without spaces as long as a note took minutes to draw."""
    after = text_width(suffix, size, bold) / size if suffix else 0.0
    used = 0.0
    if text.isascii():
        widths = _WIDTHS[bold]
        for end, ch in enumerate(text):
            used += widths[ch]
            if (used + after) * size > max_width:
                return end
        return len(text)
    end = 0
    for cluster in _GRAPHEME.finditer(text):
        used += _cluster_width(cluster.group(), bold)
        if (used + after) * size > max_width:
            return end
        end = cluster.end()
    return end


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
        if _fits(candidate, max_width, size, bold):
            current = candidate
            continue
        if current:
            # a word wider than a whole line is cut anyway: its head fills this line first — a statement written
            # without spaces (Chinese, Japanese) left the "•" before it alone on the first of a band's lines
            room = max_width - text_width(current + " ", size, bold)
            if room > 0 and not _fits(word, max_width, size, bold):
                head = _fit(word, room, size, bold)
                if head:
                    current, word = f"{current} {word[:head]}", word[head:]
            lines.append(current)
        current = word
        # one word wider than the line: hard-break it, only into the lines kept (a sentence without spaces can be a
        # whole note: breaking all of it took seconds)
        while len(lines) <= max_lines and not _fits(current, max_width, size, bold):
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


def wrap_count(text: str, width: int) -> list[str]:
    """`text` on lines of at most `width` characters a reader sees as one (`_GRAPHEME`), cut as `wrap` cuts: for a
    reader that draws a label by its own font (a graph's DOT), where a count is all there is to go by. `textwrap`
    counted code points and cut a ZWJ family into lone people, a flag into two letters and an accent off its letter."""
    rest = " ".join(str(text).split())
    lines: list[str] = []
    while rest:
        clusters = _GRAPHEME.finditer(rest)
        most = next((m.start() for k, m in enumerate(clusters) if k == width), len(rest))
        if most == len(rest):
            lines.append(rest)
            break
        cut = _cut_before(_cut_ranks(rest[:most + _CUT_CONTEXT]), most) or most
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
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
    head = _cut_before(_cut_ranks(text[:limit + _CUT_CONTEXT]), (limit - 1) // 2)
    least = len(text) - (limit - 1 - head)  # the tail gets what the head did not use
    start = max(0, least - _CUT_CONTEXT)  # (only the ends are read: the middle of a long text is left out anyway)
    tail = start + _cut_after(_cut_ranks(text[start:]), least - start)
    return _trim_end(text[:head]) + "…" + text[tail:].lstrip()


__all__: Sequence[str] = ("clip", "text_width", "unshown_dropped", "wrap", "wrap_count", "xml_text")
