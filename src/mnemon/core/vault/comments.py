"""A note's lines as a reader sees them: its ``%% … %%`` and ``<!-- … -->`` comments left out, and the block ids
(``^id``) that end its lines, which Obsidian hides too.

The parser extracts nothing from a comment (`blank_comments`), and what a note's sections say — the section
memories search, recall and packs show — leaves them out too: a word a person hid in a comment was found and shown.
Each line stays a line (a line wholly inside a comment is empty), so a section's lines are still the note's.
"""
from __future__ import annotations

import re
from typing import Callable, Sequence

_SENTINEL = "\x00"  # stands in for a line the code pass emptied: no comment opener or closer holds it


def without_comments(raw: str, coded: str, shown: str) -> str:
    """`raw` (a line as written) without the characters `shown` (its prose, comments blanked) blanked beyond `coded`
    (its prose before): inline code stays, a comment goes, with the space on one of its sides."""
    out: list[str] = []
    dropped = False
    for r, c, v in zip(raw, coded, shown):
        if c != v:
            dropped = True
            continue
        if not (dropped and r in " \t" and (not out or out[-1] in " \t")):
            out.append(r)
        dropped = False
    return ("".join(out) + raw[len(coded):]).rstrip()


def reader_lines(lines: Sequence[str], coded: Sequence[str], shown: Sequence[str], body_start: int,
                 blank: Callable[[str], str]) -> list[str]:
    """`lines` with their comments left out, given the prose lines before (`coded`) and after (`shown`) `blank`
    (`blank_comments`) blanked them. A body line the code pass emptied (in a fence or a math block) goes too when a
    comment holds it: `blank` runs again with such lines standing in as one character each."""
    seen = [without_comments(line, before, after) if before != after else line
            for line, before, after in zip(lines, coded, shown)]
    emptied = [i for i in range(body_start, len(coded)) if not coded[i] and lines[i]]
    if emptied:
        probe = list(coded)
        for i in emptied:
            probe[i] = _SENTINEL
        blanked = blank("\n".join(probe)).split("\n")
        for i in emptied:
            if blanked[i] != _SENTINEL:
                seen[i] = ""
    return seen


# A block id ending a line, or alone on its line (after a table or a quote): a link target, hidden when rendered, so
# no part of what a section says (searching the id found the section, and its text was shown with it)
_LINE_BLOCK_ID = re.compile(r"(?:^|[ \t])\^[A-Za-z0-9-]+[ \t]*$")


def without_block_ids(lines: Sequence[str], prose_lines: Sequence[str]) -> list[str]:
    """`lines` without the block ids that end them, where their prose (code and comments blanked) ends with one
    too: an id written in code stays."""
    return [_LINE_BLOCK_ID.sub("", line) if "^" in line and _LINE_BLOCK_ID.search(prose) else line
            for line, prose in zip(lines, prose_lines)]


def blank_comments(prose: str) -> str:
    """`prose` with its HTML (``<!-- … -->``) and Obsidian (``%% … %%``) comments blanked: same length, newlines kept.

    The earlier opener wins (``%%`` inside an HTML comment is its text, and the other way round). A ``%%`` with no
    closer hides the rest of the note, as Obsidian shows it (it was read as text: a task or link below it was an
    open loop or an edge, its words found, that the note's reader never sees); a ``<!--`` with none is text, and so
    is every later one, so a note full of them costs linear time.
    """
    if "<" not in prose and "%" not in prose:  # (one-character tests are memchr scans: a tenth of the cost)
        return prose
    spans = _comment_spans(prose)[0]
    if not spans:
        return prose
    pieces: list[str] = []
    done = 0
    for start, end in spans:
        pieces.append(prose[done:start])
        pieces.append("\n".join(" " * len(part) for part in prose[start:end].split("\n")))
        done = end
    pieces.append(prose[done:])
    return "".join(pieces)


def unclosed_comment(prose: str) -> int:
    """The offset in `prose` of a ``%%`` no later ``%%`` closes (everything from it on is hidden), or -1."""
    return _comment_spans(prose)[1] if "%%" in prose else -1


def _comment_spans(prose: str) -> tuple[list[tuple[int, int]], int]:
    """`blank_comments`' comments as (start, end) offsets, and where an unclosed ``%%`` opens (-1: none)."""
    spans: list[tuple[int, int]] = []
    at = 0
    end = len(prose)
    # the next opener of each kind: -1 not looked for yet, `end` none left. Each is looked for again only once
    # passed: looked for after every comment of the other kind, the search ran on to the next one, or to the note's
    # end, each time (a line of 200,000 '%' took 20 s to add a bullet below, and ingest as long)
    html = obsidian = -1
    while True:
        if html < at:
            html = prose.find("<!--", at) % (end + 1)  # (-1, not found, is `end`)
        if obsidian < at:
            obsidian = prose.find("%%", at) % (end + 1)
        if html == obsidian == end:
            return spans, -1
        if html < obsidian:
            close = prose.find("-->", html + 2)  # ("<!-->" is an empty comment, as in CommonMark)
            if close == -1:  # no later "<!--" finds a closer either: text, every one
                html = end
                continue
            spans.append((html, close + 3))
        else:
            close = prose.find("%%", obsidian + 2)
            if close == -1:
                spans.append((obsidian, end))
                return spans, obsidian
            spans.append((obsidian, close + 2))
        at = spans[-1][1]


def visible_text(raw: str, coded: str, shown: str) -> str:
    """`raw` (a line as written) without what `shown` (its prose with comments blanked) blanked beyond `coded` (its
    prose before): inline code stays, comments go."""
    return "".join(r if c == v else " " for r, c, v in zip(raw, coded, shown)) + raw[len(coded):]
