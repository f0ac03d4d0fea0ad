"""Where a note edit would land out of every reader's sight: after a code fence, an Obsidian ``%%`` comment or a
``<pre>`` (script, style, textarea) that is never closed (the parser reads the rest of the note as code, hides it, as
Obsidian does, or reads it as HTML, as CommonMark does), or in content that opens one and so takes the rest of the
note with it. Written there, the edit reported success while the graph
never saw it and Obsidian never showed it (and an upsert appended the same section again each time)."""
from __future__ import annotations

import re
from typing import Sequence

from ..core.errors import InvalidInput
from ..core.vault.frontmatter import split_front_matter
from ..core.vault.html import html_block_lines
from ..core.vault.parser import blank_comments, code_blanked_lines, unclosed_comment, without_html_blocks

# how each kind of opener is named in a refusal: what it is, and what the rest of the note would be
_WHAT = {"fence": ("code fence", "code"), "comment": ("%% comment", ""),
         "html": ("HTML block (a <pre>, <script>, <style> or <textarea>)", "HTML")}
_HTML_OPENER = re.compile(r"(?i)<(pre|script|style|textarea)(?=[\s>]|$)")


def _named(kind: str, lines: Sequence[str], line: int) -> str:
    """The opener at 1-based `line` of `lines` as a refusal names it: an HTML block by its own tag ("<pre> block"),
    the list of the four only when its line does not show one."""
    if kind == "html" and 0 < line <= len(lines) and (tag := _HTML_OPENER.search(lines[line - 1])):
        return f"<{tag.group(1).lower()}> block"
    return _WHAT[kind][0]


def hidden_from(lines: Sequence[str], *, note: bool = True) -> tuple[str, int] | None:
    """("fence", "comment" or "html", its 1-based line) of the unclosed code fence, ``%%`` comment or ``<pre>`` that
    hides the rest of `lines` (endings kept or not), or None. `note`: the lines are a whole note, which may open with
    front matter."""
    plain = [line.rstrip("\r\n") for line in lines]
    body_start = split_front_matter(plain)[1] if note and plain and plain[0].startswith("---") else 0
    coded, warning = code_blanked_lines(plain, body_start)
    if warning is not None and warning.line is not None:
        return "fence", warning.line
    joined = "\n".join(coded)
    opener = unclosed_comment(joined)
    if opener != -1:
        return "comment", joined.count("\n", 0, opener) + 1
    html = without_html_blocks(blank_comments(joined), coded)[2] if "<" in joined else None
    return ("html", html.line) if html is not None and html.line is not None else None


def html_gap(lines: Sequence[str], at: int, first: str, nl: str) -> list[str]:
    """`[nl]` when `first`, a line put at index `at` of `lines` (the one above ending in a line break), would be read
    as part of the HTML block above it, else `[]`: a `<div>` or `<details>` block runs to the next blank line, its
    closing tag included, so a bullet added right under '</details>' was HTML (no item, no link) to ingest and to
    Obsidian, while the edit said ok."""
    if at == 0 or not first.strip() or not any("<" in line for line in lines[:at]):
        return []
    probe = [line.rstrip("\r\n") for line in lines[:at]] + [first.rstrip("\r\n")]
    body_start = split_front_matter(probe)[1] if probe[0].startswith("---") else 0
    coded = code_blanked_lines(probe, body_start)[0]
    if at not in html_block_lines(blank_comments("\n".join(coded)), coded)[0]:
        return []
    return [blank_line_after(lines[at - 1], nl)]


def blank_line_after(text: str, newline: str) -> str:
    """The line ending that makes a blank line after `text` (which ends in one): `newline`, but a CR after a last
    line ending in a lone CR in an LF note, as that CR and an LF are one CRLF to every reader (no blank line)."""
    return "\r" if newline == "\n" and text.endswith("\r") else newline


def check_not_hidden(lines: Sequence[str], at: int, rel: str) -> None:
    """Refuse to put a heading or a bullet at line index `at` when an unclosed code fence or ``%%`` comment above it
    hides the rest of the note."""
    found = hidden_from(lines)
    if found is None or at < found[1]:
        return
    kind, line = found
    if kind == "fence":
        raise InvalidInput(f"{rel}: the code fence opened at line {line} is never closed, so anything "
                           "added after it would be code; close the fence first", path=rel, fence_line=line)
    if kind == "html":
        raise InvalidInput(f"{rel}: the {_named(kind, lines, line)} opened at line {line} is never closed, so anything"
                           " added after it would be HTML, not Markdown; close it first", path=rel, html_line=line)
    raise InvalidInput(f"{rel}: the %% comment opened at line {line} is never closed, so anything added after it "
                       "would be hidden (Obsidian hides the rest of the note); close the comment first", path=rel,
                       comment_line=line)


def check_content_closes(body_lines: Sequence[str], rel: str) -> None:
    """Refuse content that opens a code fence or a ``%%`` comment it never closes, when more of the note follows."""
    found = hidden_from(body_lines, note=False) if body_lines else None
    if found is not None:
        _content_opens(*found, rel, _named(found[0], body_lines, found[1]))


def check_append_seen(after: Sequence[str], start: int, rel: str) -> None:
    """Refuse a raw append (`note write --mode append`) whose first line, at index `start` of the note as it would
    be (`after`), lands after a code fence or ``%%`` comment never closed above it, or whose content opens one it
    never closes. Content closing the one left open above is the writer's own."""
    found = hidden_from(after)
    if found is None:
        return
    if found[1] <= start:
        check_not_hidden(after, start, rel)
    _content_opens(found[0], found[1] - start, rel, _named(found[0], after, found[1]))


def _content_opens(kind: str, line: int, rel: str, what: str) -> None:
    if kind == "fence":
        raise InvalidInput(f"the content opens a code fence (its line {line}) it never closes, which would turn the "
                           f"rest of {rel} into code; close the fence", path=rel, fence_line=line)
    if kind == "html":
        raise InvalidInput(f"the content opens a {what} (its line {line}) it never closes, which would "
                           f"turn the rest of {rel} into HTML; close it", path=rel, html_line=line)
    raise InvalidInput(f"the content opens a %% comment (its line {line}) it never closes, which would hide the "
                       f"rest of {rel}; close the comment", path=rel, comment_line=line)


def check_edit_hides_nothing(before: str, after: str, rel: str) -> None:
    """Refuse an edit of text in place (`note replace`) that leaves a code fence or ``%%`` comment open in a note
    that had none: everything after it would be code or hidden, while the edit reported one replacement."""
    found = hidden_from(after.splitlines(keepends=True))
    if found is None or hidden_from(before.splitlines(keepends=True)) is not None:
        return
    kind, line = found
    what, rest = _named(kind, after.splitlines(), line), _WHAT[kind][1]
    effect = "hide the rest of the note" if kind == "comment" else f"turn the rest of the note into {rest}"
    raise InvalidInput(f"the replacement leaves a {what} open at line {line} of {rel}, which would {effect}; close it "
                       "in the replacement", path=rel, **{f"{kind}_line": line})
