"""A vault note's section that only repeats bullets recall already answers with: folded into them.

A section whose whole text is a bullet ("## Consequences" over "- Gateway firmware updates are manual; …") is stored
twice, as the bullet's observation (a fact, ranked as one) and as the section's context memory, and recall listed
both: the same line twice. A section made only of list items whose texts are observations or tasks of its note among
the results shown says nothing they do not: it leaves the list and the next result takes its place. A section with
any other line (prose, a code fence, an item no shown result states) is context and stays. Only vault rows are read.
"""
from __future__ import annotations

import re
from collections.abc import MutableMapping

from ..core.keywords import VAULT_SOURCE_PREFIX
from ..core.model import Memory
from ..core.recall.rerank import Scored
from ..ports.store.base import Store

# a list item's marker ("-", "*", "+", "3.", "3)") and a task's box ("[ ]", "[x]") after it
_ITEM_START = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[^\]\n]\][ \t]+)?")
_ITEM_KINDS = ("observation", "task")


def item_texts(body: str) -> list[str] | None:
    """The text of each line of `body`, its list marker and task box left out and its whitespace normalised; None
    when a line is no list item (the section says more than its items)."""
    texts: list[str] = []
    for line in body.split("\n"):
        if not line.strip():
            continue
        start = _ITEM_START.match(line)
        if start is None:
            return None
        texts.append(" ".join(line[start.end():].split()))
    return texts or None


def _note_and_kind(memory_id: str) -> tuple[str, str] | None:
    """A vault memory's note and kind, from its id `vault:<path>:<kind>:<digest>`."""
    if not memory_id.startswith(VAULT_SOURCE_PREFIX):
        return None
    note, _, rest = memory_id.rpartition(":")[0].rpartition(":")
    return (note, rest) if note and rest in ("section", *_ITEM_KINDS) else None


def fold_repeated_sections(store: Store, results: list[Scored], rows: MutableMapping[str, Memory],
                           limit: int) -> tuple[list[Scored], dict[str, list[str]]]:
    """The best `limit` of `results` less each section folded into the observations it repeats, and which those
    are (section id → observation ids). A fold lets the next result in, which may fold a section in turn. The rows
    read are added to `rows`."""
    folded: dict[str, list[str]] = {}
    while True:
        shown = [s for s in results if s.id not in folded][:limit]
        kinds = {s.id: parts for s in shown if (parts := _note_and_kind(s.id)) is not None}
        if not any(k == "section" for _, k in kinds.values()) or all(k == "section" for _, k in kinds.values()):
            return shown, folded
        unread = [i for i in kinds if i not in rows]
        if unread:
            rows.update(store.get_nodes(unread))
        said = {(note, " ".join(rows[i].content.split())): i for i, (note, kind) in reversed(kinds.items())
                if kind in _ITEM_KINDS and i in rows}
        new: dict[str, list[str]] = {}
        for i, (note, kind) in kinds.items():
            texts = item_texts(rows[i].content) if kind == "section" and i in rows else None
            if texts and all((note, text) in said for text in texts):
                new[i] = list(dict.fromkeys(said[note, text] for text in texts))
        if not new:
            return shown, folded
        folded.update(new)
