"""Links as a note's text writes them, for `note move`'s rewrites and link reports: where each wikilink and Markdown
link is (outside code, front matter included) and what it resolves to, as ingest resolves it."""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from ..core.vault.links import LinkIndex, placeholder_key, relative_target, split_link_target
from ..core.vault.model import ATTACHMENT_EXTENSIONS
from ..core.vault.parser import MD_LINK, URL_SCHEME, WIKILINK, code_blanked_lines, resolve_markdown_target
from ..core.vault.references import used_definitions


@dataclass(frozen=True)
class LinkSite:
    """One link as written: `span` is the part a rewrite replaces (a wikilink's target, a Markdown link's path)."""

    kind: str  # "wikilink" | "markdown"
    whole: tuple[int, int]
    span: tuple[int, int]
    line: int
    target: str  # wikilink target text, or the Markdown destination (path plus any #fragment)
    path: str = ""  # Markdown only: the path part as written (still percent-encoded)
    angle: bool = False


# where a wikilink's target ends: at its heading or at its block reference (`core.vault.links.split_link_target`)
_SECTION_OR_BLOCK = re.compile(r"[#^]")


def link_sites(text: str) -> list[LinkSite]:
    """Every wikilink and Markdown link outside code fences and inline code, front matter included (a link in a
    property is a link to the reader, even if the graph does not draw it)."""
    if "[" not in text:
        return []
    lines = text.split("\n")
    # a fenced line comes back empty: padded to its length, so an offset in `prose` is the same offset in `text`
    # (the links after a code block were looked for at the wrong place and skipped)
    prose = "\n".join(p if len(p) == len(line) else " " * len(line)
                       for p, line in zip(code_blanked_lines(lines, 0)[0], lines))
    starts: list[int] = []
    offset = 0
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    sites: list[LinkSite] = []
    if "[[" in prose:
        for m in WIKILINK.finditer(prose):
            if text[m.start():m.end()] != m.group(0):
                continue  # inline code inside the brackets: not a link anyone can follow
            inner = m.group(1)
            target = split_link_target(inner)[0]
            if not target:
                continue
            stem, dot, ext = target.rpartition(".")
            if dot and stem and ext.lower() in ATTACHMENT_EXTENSIONS:
                continue
            head = inner.split("|", 1)[0].rstrip("\\")
            head = _SECTION_OR_BLOCK.split(head, maxsplit=1)[0]  # a rename keeps `#Heading` and `^blockid`
            lead = len(head) - len(head.lstrip())
            begin = m.start() + 2 + lead
            sites.append(LinkSite("wikilink", m.span(), (begin, begin + len(head.strip())),
                                  bisect_right(starts, m.start()), target))
    written = [(m.span(), m.start(2), m.group(2)) for m in MD_LINK.finditer(prose)] if "](" in prose else []
    for at, raw in used_definitions(prose) if "]:" in prose else ():  # (a reference link's path is its definition's)
        written.append(((starts[bisect_right(starts, at) - 1], at + len(raw)), at, raw))
    for whole, at, raw in written:
        destination = raw.strip("<>").strip()
        if text[whole[0]:whole[1]] != prose[whole[0]:whole[1]] or not destination or URL_SCHEME.match(destination) \
                or destination.startswith("#"):
            continue
        path = re.split(r"[#?]", destination, maxsplit=1)[0]
        begin = at + raw.find(destination)
        sites.append(LinkSite("markdown", whole, (begin, begin + len(path)), bisect_right(starts, whole[0]),
                              destination, path, raw.startswith("<")))
    sites.sort(key=lambda s: s.whole)
    return sites


def resolve_site(index: LinkIndex, linker: str, site: LinkSite) -> tuple[str | None, str | None]:
    """(note path, tier) a link resolves to from note `linker`, as ingest resolves it."""
    if site.kind == "wikilink":
        return index.explain_key(placeholder_key(relative_target(site.target, linker)), linker)
    target = resolve_markdown_target(linker, site.target)
    return index.explain_key(placeholder_key(target), linker) if target else (None, None)
