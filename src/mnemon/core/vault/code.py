"""What a note shows as code: fenced blocks (``` and ~~~, any indentation, inside block quotes too), indented blocks,
inline code spans, and math (``$…$``, ``$$…$$``, a ``$$`` block). The parser extracts nothing from any of them.

An indented code block is CommonMark's: lines indented four spaces (or a tab) after a blank line, a heading or at
the start of the body, outside any list. Read as prose, a Markdown example in one (``    - [ ] buy milk``) became an
open loop and its ``[[link]]`` an edge; Obsidian shows it as code. A list's content is indented the same way and
matters more, so a block whose paragraph above is a list item's, or is itself indented, is code only in no item or
four columns past the content of the item it is in (``- a``, a blank line, ``      - [ ] x``: an example).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from typing import AbstractSet, Sequence

from mnemon.core.vault.html import ListItems
from mnemon.core.vault.model import ParseWarning

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")
# a fence may open a list item's content ("- ```python", how Logseq writes every code block); only a bare one closes
_OPENING_FENCE = re.compile(r"^[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(`{3,}|~{3,})(.*)$")
_QUOTE_PREFIX = re.compile(r"^[ \t]*(?:>[ \t]?)+")


def blank_code_spans(line: str) -> str:
    """Replace inline code spans (a run of N backticks up to the next run of exactly N) with spaces.

    Runs are indexed by length first, so each opener finds its closer by bisection: a line of thousands of
    unmatched runs costs O(n log n), not O(n^2).
    """
    if "`" not in line:
        return line
    runs: list[tuple[int, int]] = []
    starts_by_length: dict[int, list[int]] = {}
    length = len(line)
    at = line.find("`")
    while at != -1:
        end = at
        while end < length and line[end] == "`":
            end += 1
        runs.append((at, end - at))
        starts_by_length.setdefault(end - at, []).append(at)
        at = line.find("`", end)
    chars: list[str] | None = None
    position = 0
    for start, run in runs:
        if start < position:
            continue  # inside a span already blanked
        same = starts_by_length[run]
        index = bisect_right(same, start)
        if index == len(same):
            continue  # an unmatched run is literal text
        closing_end = same[index] + run
        if chars is None:
            chars = list(line)
        chars[start:closing_end] = " " * (closing_end - start)
        position = closing_end
    return "".join(chars) if chars is not None else line


def around_code_spans(text: str, prose: Callable[[str], str], code: Callable[[str], str]) -> str:
    """`text` with each stretch outside inline code spans passed through `prose` and each span (its backticks
    included) through `code`: how a heading reads rendered, by the parser and the note editor alike."""
    # spaces masked, so the only spaces `blank_code_spans` leaves are the code spans it blanked
    blanked = blank_code_spans(text.replace(" ", "\x00"))
    parts: list[str] = []
    at = 0
    for span in re.finditer(" +", blanked):
        parts += [prose(text[at:span.start()]), code(text[span.start():span.end()])]
        at = span.end()
    return "".join(parts + [prose(text[at:])])


def _opens_math_block(line: str) -> bool:
    """Whether `line` opens a display math block: ``$$`` first on it (after any quote markers), not closed on it."""
    quote = _QUOTE_PREFIX.match(line) if ">" in line else None
    text = line[quote.end() if quote else 0:].lstrip(" \t")
    return text.startswith("$$") and "$$" not in text[2:]


def blank_math_spans(line: str) -> str:
    """`line` with its inline math blanked like code (same length): ``$$…$$``, and ``$…$`` whose opening ``$`` is
    followed by a non-space and whose closing one follows a non-space and is not followed by a digit (Pandoc's
    rule, so "$5 and $10" is text); ``\\$`` is a dollar sign. Linear: when a ``$`` finds no closing one, no later
    one can."""
    at = line.find("$")
    if at == -1:
        return line
    chars = list(line)
    length = len(line)
    while at != -1:
        if at and line[at - 1] == "\\" or at + 1 == length or line[at + 1] in " \t":
            at = line.find("$", at + 1)
            continue
        if line[at + 1] == "$":
            close = line.find("$$", at + 2)
            end = close + 2 if close != -1 else -1
        else:
            close = line.find("$", at + 1)
            while close != -1 and (line[close - 1] in " \t\\" or line[close + 1:close + 2].isdigit()):
                close = line.find("$", close + 1)
            if close == -1:
                break
            end = close + 1
        if end == -1:
            at = line.find("$", at + 2)
            continue
        chars[at:end] = " " * (end - at)
        at = line.find("$", end)
    return "".join(chars)




def code_blanked_lines(lines: Sequence[str], body_start: int, indented_blocks: bool = True
                       ) -> tuple[list[str], ParseWarning | None]:
    """Lines with front matter, fenced and indented code and display math blocks emptied and inline code and math
    blanked: the same count; a line not emptied keeps its length (inline code and math become spaces).
    `indented_blocks`: False for a Logseq graph's note, where indenting nests a block, however deep, and is never
    code ("title:: x", a blank line, "\t- TODO y" lost its task)."""
    body = lines[body_start:]
    probe = "\n".join(body)  # most notes have none: one C-level test instead of a test per line
    indented = indented_code(lines, body_start, probe) if indented_blocks else frozenset()
    if "`" not in probe and "~" not in probe and "$" not in probe:
        prose = [""] * body_start + list(body)
        for index in indented:
            prose[index] = ""
        return prose, None
    last_math = max((index for index in range(body_start, len(lines)) if "$$" in lines[index]), default=-1)
    prose = [""] * len(lines)
    fence_char, fence_len, fence_line = "", 0, 0
    in_math = False
    for index in range(body_start, len(lines)):
        line = lines[index]
        if in_math:
            in_math = "$$" not in line
            continue
        if indented and index in indented and not fence_char:
            continue  # (a fence inside one is code too: it opens nothing)
        if "$" in line and not fence_char:
            if index < last_math and _opens_math_block(line):
                in_math = True
                continue
            if "`" not in line and "~" not in line:
                prose[index] = blank_math_spans(line)
                continue
        if "`" in line or "~" in line:
            quote = _QUOTE_PREFIX.match(line) if ">" in line else None
            fence = (_FENCE if fence_char else _OPENING_FENCE).match(line[quote.end():] if quote else line)
            if fence_char:
                if fence and fence.group(1)[0] == fence_char and len(fence.group(1)) >= fence_len \
                        and not fence.group(2).strip():
                    fence_char = ""
                continue
            if fence and not (fence.group(1)[0] == "`" and "`" in fence.group(2)):
                fence_char, fence_len, fence_line = fence.group(1)[0], len(fence.group(1)), index + 1
                continue
            prose[index] = blank_math_spans(blank_code_spans(line))
        elif not fence_char:
            prose[index] = line
    warning = None
    if fence_char:
        warning = ParseWarning("unclosed_code_fence", "code fence never closed; the rest is code", fence_line)
    return prose, warning


# a blank line, an ATX heading or a setext underline (or break), then a line indented to column 4 (a tab counts to
# the next multiple of 4): a heading ends its block, so code may follow it directly, as it may not follow a paragraph
_INDENTED_AFTER_BLOCK = re.compile(
    r"\n(?:[ \t]*| {0,3}#{1,6}(?:[ \t][^\n]*)?| {0,3}(?:=+|-+)[ \t]*)\n(?: {4}| {0,3}\t)")
_ATX = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")
_INDENTED = re.compile(r" {4}| {0,3}\t")
# A line that starts a block a setext heading cannot be made of: a paragraph continuing it is the block's own text
# (a list item's, a quote's, a table row's) and the underline under it a thematic break, as CommonMark reads it.
NOT_SETEXT_TEXT = re.compile(r" {0,3}(?:[>|<]|[-*+](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))")
_EQUALS = re.compile(r" {0,3}=+[ \t]*")
_LIST_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")


def _indent(line: str) -> int:
    expanded = line.expandtabs(4) if "\t" in line else line
    return len(expanded) - len(expanded.lstrip(" "))


def _underlines_nothing(lines: Sequence[str], underline: int, body_start: int, items: Callable[[], ListItems],
                        going_on: dict[int, tuple[int, bool]], code: AbstractSet[int]) -> bool:
    """Whether the '=' line `underline` is a paragraph's text, no setext heading's underline: it has no paragraph
    above it, or one that is a list item's or a quote's, or one in a list item it is not indented into (lazily).
    `going_on`: for each '=' line read, where the paragraph goes on below it from and whether it is a block's text;
    the '=' lines of the paragraph above `underline` are read first, in order, so each walk back stops at the last
    (a walk over the whole paragraph per line was quadratic). `code`: the lines of the code blocks above."""
    start = underline
    while start > body_start and lines[start - 1].strip() and not _ATX.match(lines[start - 1]) \
            and start - 1 not in going_on and start - 1 not in code:
        start -= 1
    for index in range(start, underline + 1):
        if index not in going_on and _EQUALS.fullmatch(lines[index]):
            _read_underline(lines, index, body_start, items, going_on, code)
    return going_on[underline][0] != underline + 1


def _read_underline(lines: Sequence[str], underline: int, body_start: int, items: Callable[[], ListItems],
                    going_on: dict[int, tuple[int, bool]], code: AbstractSet[int]) -> None:
    first, block_text = underline, False
    while first > body_start and lines[first - 1].strip() and not _ATX.match(lines[first - 1]) \
            and first - 1 not in code:
        if first - 1 in going_on:
            first, block_text = going_on[first - 1]
            break
        first -= 1
        if NOT_SETEXT_TEXT.match(lines[first]):
            block_text = True
            break
    going_on[underline] = first, block_text
    if block_text or first == underline:
        return
    if lines[first][:1] in (" ", "\t") and (holder := items().holder(first, _indent(lines[first]))) is not None \
            and _indent(lines[underline]) < holder:
        return
    going_on[underline] = underline + 1, False  # (a heading's underline: a paragraph below starts after it)


def _code_column(lines: Sequence[str], at: int, body_start: int, items: Callable[[], ListItems],
                 going_on: dict[int, tuple[int, bool]], code: AbstractSet[int]) -> int | None:
    """The indentation the lines of a code block opening at the indented line `at` (after a blank line, a heading or
    an underline, or first in the body) have, or None when it opens none. Right after an ATX heading at the margin
    it opens one; else when the paragraph above it, back to the blank line before that (an underline's heading text
    with it), is at the margin and no list item's; else when it is in no list item or four columns past the content
    of the one it is in (`items`, made when first needed)."""
    above = at - 1
    if above >= body_start and _EQUALS.fullmatch(lines[above]) and _underlines_nothing(lines, above, body_start,
                                                                                      items, going_on, code):
        return None  # (the paragraph goes on: the line is its text)
    if above >= body_start and lines[above][:1] in ("#", " ") and _ATX.match(lines[above]):
        return None if lines[above][0].isspace() else 4  # (an indented one may be a list item's content)
    while above >= body_start and not lines[above].strip():
        above -= 1
    while above >= body_start and lines[above].strip():
        line = lines[above]
        if line[0] in " \t" or _LIST_MARKER.match(line):
            lead = _indent(lines[at])
            holder = items().holder(at, lead)
            if holder is None:
                return 4  # (no item holds it: the paragraph above is indented, or a list's that ended)
            return holder + 4 if lead - holder >= 4 else None
        above -= 1
    return 4


def indented_code(lines: Sequence[str], body_start: int, body: str) -> AbstractSet[int]:
    """The indexes in `lines` of the lines of indented code blocks; `body` is the lines from `body_start` joined."""
    if "    " not in body and "\t" not in body:
        return frozenset()
    starts = [body_start] if _INDENTED.match(body) else []
    line, counted = body_start - 1, 0
    padded = "\n" + body  # (so a blank first line counts as one above)
    for found in _INDENTED_AFTER_BLOCK.finditer(padded):
        line += padded.count("\n", counted, found.end())
        counted = found.end()
        starts.append(line)
    code: set[int] = set()
    end = 0
    tracked: list[ListItems] = []
    going_on: dict[int, tuple[int, bool]] = {}

    def items() -> ListItems:  # (the front matter's lines are no items)
        if not tracked:
            tracked.append(ListItems([""] * body_start + list(lines[body_start:])))
        return tracked[0]

    for start in starts:
        if start < end or (column := _code_column(lines, start, body_start, items, going_on, code)) is None:
            continue
        end = start
        while end < len(lines) and (not lines[end].strip() or (_INDENTED.match(lines[end]) if column == 4
                                                               else _indent(lines[end]) >= column)):
            end += 1
        code.update(range(start, end))
    return code
