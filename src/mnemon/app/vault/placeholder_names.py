"""A placeholder's title: the name its links write, not its lower-cased key.

A link to a note nobody has is parked on `placeholder:<key>`, the key case-folded so that `[[Budget]]` and
`[[budget]]` meet; its title was the key, and `show`/`related` said "budget" for a name every note wrote "Budget". The
title is the spelling the links to it write most often, ties going to the first in path order (then in its line), so
it depends on the vault alone: an incremental ingest and a fresh one agree. A run retitles only the placeholders it
wrote or released a link of — the only ones whose spellings can have changed.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace

from ...core.keywords import VAULT_SOURCE_PREFIX
from ...core.vault import placeholder_key
from ...core.vault.links import split_link_target
from ..runtime import Runtime

PLACEHOLDER_PREFIX = "placeholder:"
_WIKILINK = re.compile(r"!?\[\[([^\[\]\n]+?)\]\]")  # (as `display_links` reads a line's links)
_LINK_STATUSES = ("active", "candidate", "killed")  # a killed link is still written in its note


def placeholder_spellings(rt: Runtime, placeholders: Iterable[str]) -> dict[str, str]:
    """placeholder id → the title its links give it (one no link line names is left out). One read for them all: a
    first ingest of a large vault parks links on hundreds of placeholders."""
    wanted = sorted(set(placeholders))
    edges = rt.store.edges_of(wanted, statuses=_LINK_STATUSES, direction="in") if wanted else []
    sources = {i: n.source for i, n in rt.store.get_nodes(sorted({e.src for e in edges})).items()}
    counts: dict[str, Counter[str]] = {}
    first: dict[tuple[str, str], tuple[str, int]] = {}
    for edge in edges:
        key = edge.dst[len(PLACEHOLDER_PREFIX):]
        path = sources.get(edge.src, "").removeprefix(VAULT_SOURCE_PREFIX)
        for match in _WIKILINK.finditer(edge.evidence or ""):
            target = " ".join(split_link_target(match.group(1))[0].split())
            if target and placeholder_key(target) == key:
                counts.setdefault(edge.dst, Counter())[target] += 1
                seen = first.get((edge.dst, target), (path, match.start()))
                first[(edge.dst, target)] = min(seen, (path, match.start()))
    return {ph: min(spellings, key=lambda s: (-spellings[s], first[(ph, s)], s)) for ph, spellings in counts.items()}


def spell_placeholders(rt: Runtime, ids: Iterable[str]) -> int:
    """Retitle these placeholders (other ids are passed over) as their links spell them; how many changed."""
    wanted = sorted({i for i in ids if i.startswith(PLACEHOLDER_PREFIX)})
    spellings = placeholder_spellings(rt, wanted)
    changed = 0
    for node_id, node in rt.store.get_nodes(sorted(spellings)).items():
        if spellings[node_id] != node.title:
            rt.store.update_node(replace(node, title=spellings[node_id]))
            changed += 1
    return changed
