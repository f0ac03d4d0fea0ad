"""What an `--as-of` replay may see of the graph's corrections: the recall graph holds today's edges only."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from ..core.model import parse_iso
from ..ports.store.base import Store


def superseded_at(store: Store, ids: Sequence[str], as_of: datetime) -> set[str]:
    """Of `ids` (each the target of an active supersedes edge today), those already superseded at `as_of`: the edge
    was made by then and the memory that replaces them was written by then. A correction made later did not exist
    at that instant, so a replay must not demote (or flag) what was the current fact then."""
    edges = store.edges_of(list(ids), types=("supersedes",), direction="in")
    if not edges:
        return set()
    newer = store.get_nodes(list({e.src for e in edges}))

    def existed(stamp: str | None) -> bool:
        return not stamp or parse_iso(stamp) <= as_of

    return {e.dst for e in edges
            if existed(e.created_at) and e.src in newer and existed(newer[e.src].created_at)}
