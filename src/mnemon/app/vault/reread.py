"""A vault row `forget` took, kept forgotten or brought back as its note is read.

A read of a note writes every row its lines hold, a forgotten one too. That is how a forgotten row comes back when
its note changes; but a note read again with the very bytes read before (a plan or hints change reads every note,
`forget --undo` marks one) would bring back every forget of the note unasked. Of such a note, the rows a forget took
and no undo asked back are forgotten again once the read has written them (`keep_forgotten`), with the forget's own
time, so the forget still shows as in effect and can still be undone.

`forget --undo` of a vault row marks its note (`mark_for_reread`): an ingest finds an unchanged note unchanged
without reading it, so the mark makes the next one read it and bring back the rows named. The marks are one vault
state value, spent by the ingest that reads the note (or dropped with a note gone from the vault)."""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ...core.keywords import VAULT_SOURCE_PREFIX
from ..runtime import Runtime
from .plan import note_id

REREAD_STATE = "notes_to_reread"  # vault_state key: path → the ids of its rows to bring back when it is read


def marked_for_reread(vault_store: Any) -> dict[str, list[str]]:
    raw = vault_store.get_state(REREAD_STATE)
    return {str(k): list(v) for k, v in json.loads(raw).items()} if raw else {}


def mark_for_reread(vault_store: Any, rows: Mapping[str, Iterable[str]]) -> None:
    """Have the next ingest read these notes (path → the forgotten rows of it to bring back; none: read only)."""
    marks = marked_for_reread(vault_store)
    for path, ids in rows.items():
        marks[path] = sorted({*marks.get(path, ()), *ids})
    _put(vault_store, marks)


def keep_unread(vault_store: Any, marks: Mapping[str, list[str]], left: Iterable[str]) -> None:
    """After an ingest that had `marks`: only those of the notes in `left` (not read, still ingested) stay."""
    if marks:
        kept = set(left)
        _put(vault_store, {path: ids for path, ids in marks.items() if path in kept})


def _put(vault_store: Any, marks: Mapping[str, list[str]]) -> None:
    vault_store.set_state(REREAD_STATE, json.dumps(dict(sorted(marks.items())), ensure_ascii=False) if marks else "")


def forgotten_rows(rt: Runtime, paths: Iterable[str]) -> dict[str, str]:
    """id → deleted_at of the rows of these notes that `forget` soft-deleted (its log row has the instant), not an
    ingest keeping a row its note no longer holds for a decision's sake."""
    ids = [x for path in paths for x in (note_id(path), *rt.store.vault.derived_node_ids(path))]  # type: ignore
    deleted = {i: at for i, (at, _hash) in rt.store.vault.existing_nodes(ids).items() if at}  # type: ignore
    return {i: at for i, at in deleted.items() if was_forgotten(rt, i, at)}


def linking_notes(rt: Runtime, rows: Iterable[str]) -> set[str]:
    """The notes (vault paths) whose rows hold retired edges into `rows` from outside them: a link to a forgotten note
    or heading is written by the note that links, so it comes back only as that note is read too."""
    ids = set(rows)
    ends = {e.src for e in rt.store.edges_of(sorted(ids), statuses=("retired",), direction="in")} - ids
    sources = {n.source for n in rt.store.get_nodes(sorted(ends)).values()}
    return {s[len(VAULT_SOURCE_PREFIX):] for s in sources if s.startswith(VAULT_SOURCE_PREFIX)}


def was_forgotten(rt: Runtime, node_id: str, deleted_at: str) -> bool:
    # a removal writes its log row and the row's deleted_at with the same instant
    return any(e.op == "forget" and e.created_at == deleted_at for e in rt.store.oplog(50, node_id=node_id))


def keep_forgotten(rt: Runtime, rows: Mapping[str, str], now: str) -> list[str]:
    """Forget again the rows of `rows` (id → the forget's deleted_at) a read just wrote back live: their edges retired
    as `forget` retires them (so that an undo gives them back), the row deleted at the forget's own instant.
    Returns their ids."""
    live = sorted(i for i, n in rt.store.get_nodes(sorted(rows)).items() if n.deleted_at is None
                  and n.source.startswith(VAULT_SOURCE_PREFIX))
    for node_id in live:
        # (retired first: an edge derived from a live vault item is read from it, ports/store/contained_sqlite.py)
        rt.store.retire_edges_of(node_id, reason="forget", when=now)
        rt.store.soft_delete([node_id], rows[node_id])
    return live
