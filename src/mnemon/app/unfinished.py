"""What a run left unfinished in a store, read from what the store records and never guessed from timings or files:
memories without a vector from the provider in use, and the mark an ingest keeps set from the commit of its notes
until it has embedded them (`vault.ingest.EMBED_PENDING`), which a run killed or stopped while embedding leaves set.
An ingest's notes themselves are one transaction, and an import embeds before it writes: neither leaves a half."""
from __future__ import annotations

from typing import Any

from ..core.surface import embed_all, step
from ..ports.store.base import Store


def unfinished_work(store: Store, identity: str, produces_vectors: bool,
                    coverage: tuple[int, int] | None = None) -> list[dict[str, Any]]:
    """Each piece of work the store holds undone, with a message and `next`, the command that finishes it
    (`coverage`: the store's `vector_coverage(identity)` when the caller read it already). A provider that makes no
    vectors (`none`) leaves none missing: recall by keywords and the graph is the choice."""
    if not produces_vectors:
        return []
    embedded, total = coverage or store.vector_coverage(identity)
    if embedded >= total:
        return []
    missing = total - embedded
    from .vault.ingest import EMBED_PENDING

    vault = store.vault  # type: ignore[attr-defined]
    item: dict[str, Any] = {"what": "vectors", "missing": missing, "total": total, "identity": identity,
                            "ingest_interrupted": bool(vault.get_state(EMBED_PENDING))}
    held = (f"{missing:,} of {total:,} memories have no vector from {identity}, so recall finds them by keywords and"
            " the graph only")
    if item["ingest_interrupted"]:
        item["vault"] = vault.get_state("root") or None
        finishes = step("the next `mnemon ingest` finishes it", "the vault's next ingest (by whoever runs this server)"
                        " finishes it")
        item["message"] = (f"an ingest of {item['vault'] or 'the vault'} stopped before it embedded what it wrote:"
                           f" {held}; {finishes}, as {embed_all()} does")
    else:
        item["message"] = f"{held}; {embed_all()} adds them"
    item["next"] = step("mnemon embed --all", "an embed of the whole store, by whoever runs this server")
    return [item]


def store_facts(store: Store, identity: str, produces_vectors: bool) -> dict[str, Any]:
    """What `doctor` says of a store it found: how many memories and notes it holds, the vault its notes were
    ingested from (as the store recorded it), and what is unfinished in it."""
    stats = store.stats()
    return {"exists": True, "memories": int(stats["total_insights"]),
            "notes": int(stats.get("nodes_by_kind", {}).get("note", 0)),
            "vault": store.vault.get_state("root") or None,  # type: ignore[attr-defined]
            "unfinished": unfinished_work(store, identity, produces_vectors)}
