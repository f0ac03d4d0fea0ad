"""A note's properties section among recall's results: ranked by the properties a query asks about.

Every row of a vault note carries the note's title in its keyword and embedding text, so a query naming the note
matches all of them alike; the properties section — a line or two of `key: value`, nearly all title to an embedder —
then came out closest and answered "who is Ada Quill" with "type: person". Matched by what names the note alone (its
title, and the value of its `type`, which says what kind of note it is: "the sensor uplink decision"), it says
nothing the query asked and follows the note's prose; a query naming a property ("the status of Lighthouse") or a
value ("Northwind Traders") ranks it as before.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..core.keywords import PROPERTIES_KEY, VAULT_SOURCE_PREFIX
from ..core.model import Memory
from ..core.recall.params import NAME_ONLY_PROPERTIES_FACTOR
from ..core.text import tokens
from ..ports.graph_index import GraphSnapshot
from ..ports.store.base import Store


def names_only(row: Memory, q_tokens: Iterable[str]) -> bool:
    """Whether `row` is a note's properties section that the query words match only where they name the note."""
    if (row.metadata or {}).get(PROPERTIES_KEY) is not True:
        return False
    name = set(tokens(row.title or ""))
    said: set[str] = set()
    for line in row.content.split("\n"):
        key, colon, value = line.partition(":")
        if colon and key.strip().casefold() == "type":
            name.update(tokens(value))
            said.update(tokens(key))
        else:
            said.update(tokens(line))
    return not (said - name) & set(q_tokens)


def demote_name_only_properties(store: Store, snap: GraphSnapshot, cand_l: list[int], keep: np.ndarray,
                                score: np.ndarray, q_tokens: Iterable[str],
                                limit: int) -> tuple[list[str], dict[str, Memory]]:
    """Multiply by `NAME_ONLY_PROPERTIES_FACTOR` the score of each properties section the best `limit` of `keep`
    (indexes into `cand_l`) hold that the query matches by its note's name alone, again until the best `limit` hold
    none unread (one demoted lets another row up). Only vault rows are read: a store of memories reads nothing.
    Returns the demoted ids and the rows read."""
    words = frozenset(q_tokens)
    vault_source = [s.startswith(VAULT_SOURCE_PREFIX) for s in snap.sources]
    seen: set[str] = set()
    read: dict[str, Memory] = {}
    demoted: list[str] = []
    while len(keep):
        best = keep[np.argsort(-score[keep], kind="stable")[:limit]]
        unread = {snap.ids[cand_l[k]]: k for k in best.tolist()
                  if vault_source[snap.source[cand_l[k]]] and snap.ids[cand_l[k]] not in seen}
        if not unread:
            break
        seen.update(unread)
        rows = store.get_nodes(list(unread))
        read.update(rows)
        hits = [i for i, row in rows.items() if names_only(row, words)]
        for i in hits:
            score[unread[i]] *= NAME_ONLY_PROPERTIES_FACTOR
        demoted += hits
        if not hits:
            break
    return demoted, read
