"""Which heading a `--heading` names, for the note editor's read, upsert-section and add-bullet.

A heading is named by its text as written (`**Bold** heading`, without its runs of '#') or by the text it displays
(`Bold heading`): an agent reading a rendered note, or a title, gives the latter, and when it did not match the
editor appended a second section with the same visible heading. The display is the parser's where it has one: inline
code found by `blank_code_spans` (its content kept literally, markup and all), a wikilink shown as `display_links`
shows it (alias, else target), a Markdown link (`MD_LINK`) as its text; the parser has no emphasis, so '*', '_' and
'~~' runs that can open or close emphasis go (not a '*' between spaces, not an '_' inside a word), and a
backslash-escaped character is itself. A match by the text as written wins over a match by the text displayed.

Two sections with the same heading: the first is used, as before, and the reply says so (`duplicate_heading`).
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from ..core.vault.code import around_code_spans
from ..core.vault.links import display_links
from ..core.vault.parser import MD_LINK

# an escaped ASCII punctuation character, or a run that may be an emphasis delimiter
_INLINE = re.compile(r"\\([!-/:-@\[-`{-~])|(\*+|_+|~~)")


def _shown_prose(text: str) -> str:
    """Text outside code as displayed: links as their names, emphasis delimiters gone, escapes resolved."""
    text = MD_LINK.sub(lambda m: m.group(1), display_links(text))

    def shown(m: re.Match[str]) -> str:
        if m.group(1):
            return m.group(1)
        before = text[m.start() - 1] if m.start() else " "
        after = text[m.end()] if m.end() < len(text) else " "
        if before.isspace() and after.isspace():
            return m.group(2)  # flanks nothing: a literal '*' ("2 * 3")
        if m.group(2)[0] == "_" and before.isalnum() and after.isalnum():
            return m.group(2)  # inside a word: snake_case
        return ""
    return _INLINE.sub(shown, text)


def displayed(text: str) -> str:
    """Heading text as a reader sees it rendered: inline code as its content, the rest as `_shown_prose`."""
    if "`" not in text:
        return _shown_prose(text)
    return around_code_spans(text, _shown_prose, _code_content)


def _code_content(span: str) -> str:
    code = span.strip("`")
    if code[:1] == code[-1:] == " " and code.strip(" "):
        code = code[1:-1]  # CommonMark drops one space on each side (so `` `a`` can show a backtick)
    return code


def _key(text: str) -> str:
    # NFC: "Café" typed (one code point for é) names the "Café" a macOS or synced note holds as e + accent; compared
    # as code points it did not, and add-bullet appended a second section no reader can tell from the first
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def matching(texts: Sequence[str], wanted: str) -> list[int]:
    """The indexes of the headings `wanted` names (case, Unicode form and runs of whitespace aside): those whose
    text as written is `wanted`, else those whose text displayed is."""
    key = _key(wanted)
    found = [index for index, text in enumerate(texts) if _key(text) == key]
    return found or [index for index, text in enumerate(texts) if _key(displayed(text)) == key]


def twins(rel: str, heading: str, lines: Sequence[int]) -> dict[str, Any]:
    """`{"warnings": [duplicate_heading]}` for a reply when `heading` was found on more than one line (1-based, the
    first used), else nothing."""
    if len(lines) < 2:
        return {}
    return {"warnings": [{"code": "duplicate_heading", "path": rel, "heading": heading, "lines": list(lines),
                          "reason": f"{len(lines)} sections have this heading: the first (line {lines[0]}) was "
                                    "used; rename the others to reach them"}]}
