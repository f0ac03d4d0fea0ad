"""The names a recall question asks about: its words as names are written, the multi-word entities it names in
full or by one of their words, the vault notes it names by an alias, and the entity signal grouped by the entity
asked about."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from ..core.entities import NAMES_ALSO_WORDS, NamesInQuery, name_parts, names_in_query
from ..core.keywords import VAULT_SOURCE_PREFIX
from ..core.recall.aliases import titles_named
from ..ports.graph_index import GraphSnapshot
from ..ports.store.base import Store
from .recall_graph import entity_signal_of


def with_capitals(words: set[str], names: set[str]) -> set[str]:
    """A query's words also as a name would be written ("mira" → "Mira", "globex corp" → "Globex Corp"): agents
    often lower-case their questions, and the store keeps an entity as it was first written. Not upper case: "who"
    must not become the WHO; nor a name that is an everyday word ("we mark it done"), unless among `names`, the
    words the question gives a reason to read as one ("ask mark", "mark's")."""
    asked = {w for w in words if w not in NAMES_ALSO_WORDS or w in names}
    return words | {w.capitalize() for w in asked} | {w.title() for w in asked}


# store path → (the entity names read, their name parts): a snapshot's entity vocabulary only grows (its codes stay
# valid), so the next snapshot of a store — one per write — extends the index instead of rebuilding it (≈ 0.3 s at
# 50k multi-word names, once per process). Another vocabulary (a rebuilt graph) is told by its whole prefix: its
# last name read alone matched a rebuilt one holding the same name at that place
NAME_PARTS_CACHE: dict[str, tuple[list[str], dict[str, tuple[str, ...]]]] = {}


def names_asked(store_path: str, snap: GraphSnapshot, query: str) -> NamesInQuery:
    """The multi-word entities of the graph ("Mira Chen") that `query` names in full or by one of their words ("who
    is Mira"): the store knows an entity only by its whole name, so a first name alone found none of its memories."""
    parts = snap.memo.get("name_parts")
    if parts is None:
        parts = snap.memo["name_parts"] = name_parts_of(store_path, snap.entity_vocab)
    return names_in_query(query, parts)


def name_parts_of(store_path: str, vocab: list[str]) -> dict[str, tuple[str, ...]]:
    seen, parts = NAME_PARTS_CACHE.get(store_path, ([], {}))
    read = len(seen)
    if read > len(vocab) or vocab[:read] != seen:  # another vocabulary (a rebuilt graph): start over
        read, parts = 0, {}
    if read < len(vocab):
        parts = dict(parts)  # (an older snapshot may still hold the one it built)
        for part, names in name_parts(vocab[read:]).items():
            parts[part] = tuple(dict.fromkeys((*parts.get(part, ()), *names)))
        NAME_PARTS_CACHE[store_path] = (list(vocab), parts)
    return parts


def entity_groups(exact: frozenset[str], names: NamesInQuery) -> list[frozenset[str]] | None:
    """The query's entities as groups of lower-cased names, one group per entity asked about: a memory matches a
    group by holding any of its names ("Mira" asks about "Mira Chen" or "Mira Patel", not both). None without
    names found in part or in full: each entity is then its own group, the signal as it always was."""
    if not names.whole and not names.partial:
        return None
    singles: dict[str, frozenset[str]] = {e: frozenset((e,)) for e in sorted(exact)}
    for name in names.whole:  # its words that are entities themselves ("Chen") ask about the same one
        words = [w for w in name.split() if w in singles]
        for word in words:
            del singles[word]
        singles[name] = frozenset((name, *words))
    partial = []
    for word, full_names in names.partial:  # "Mira", an entity too, asks about itself or "Mira Chen"
        own = singles.pop(word, None)
        partial.append(frozenset((word, *full_names)) if own is not None else frozenset(full_names))
    return [*singles.values(), *partial]


def grouped_entity_signal(snap: GraphSnapshot, groups: list[frozenset[str]], nodes: np.ndarray) -> np.ndarray:
    """The share of `groups` each node holds a name of."""
    held = np.zeros(len(nodes), dtype=np.float64)
    for group in groups:
        held += entity_signal_of(snap, group, nodes) > 0
    return held / float(max(1, len(groups)))


# store → (its change token, the (title, aliases) of its aliased notes): read again only after a write, since reading
# them cost a recall ≈ 2–4 ms at 2,000 aliased notes
_ALIASED: WeakKeyDictionary[Any, tuple[Any, list[tuple[str, tuple[str, ...]]]]] = WeakKeyDictionary()


def titles_aliased(store: Store, snap: GraphSnapshot, q_tokens: Sequence[str]) -> dict[str, str]:
    """Each vault note's alias the query names → the note's title (`core.recall.aliases`); none without a vault row
    in the graph (the vault tables' module is then never loaded: a recall of memories alone started ≈ 30 ms
    slower). The aliases are today's, under a replay too: the store keeps no older front matter."""
    if not q_tokens or not any(source.startswith(VAULT_SOURCE_PREFIX) for source in snap.sources):
        return {}
    vault = getattr(store, "vault", None)
    if vault is None:
        return {}
    token = store.change_token() if hasattr(store, "change_token") else None
    cached = _ALIASED.get(store)
    if cached is None or token is None or cached[0] != token:
        cached = (token, vault.aliased_notes())
        _ALIASED[store] = cached
    return titles_named(q_tokens, cached[1])
