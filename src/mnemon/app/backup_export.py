"""`mnemon export`: the document `backup.py` restores, written as the store is read.

The export is written as it is read — one insight, edge or world row per line — so its memory does not grow with
the store (a 10k store's 180 MB document used to be built whole: 1.5 GB of RSS, ≈ 15 GB at 100k).

The document: `insights` (memories and the entity nodes of payload scopes, and a payload's rows kept deleted for a
person's decision about one of their edges), `edges` between them, `vault_edges` (decisions about a vault's edges,
by ends and relation), then the world model, one member per table (`backup_world.WORLD_MEMBERS`:
aliases, state assertions, sense events, actions, predictions and the audit of world writes).
"""
from __future__ import annotations

import base64
import json
from collections.abc import Generator, Iterator
from itertools import islice
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from ..core.model import Edge, Memory
from ..core.vault.lifecycle import PROMOTED, survives_rebuild
from .backup_rows import EDGE_DECISIONS, EDGE_DEFAULTS, HISTORY_EVENTS, PAYLOAD_SCOPE
from .backup_world import export_world_chunks
from .runtime import Runtime
from .vault.resolve import person_decisions

if TYPE_CHECKING:
    import numpy as np

EXPORT_KIND = "mnemon-export"
# "2" adds the entity nodes of payload scopes (rows with "kind": "entity") and the edges' source_path; a reader of
# "1" would have restored such a row as a plain memory, so it is told the file is newer instead
# "3" adds `vault_edges`: the decisions about a vault's edges (kills, validations, claims), restored when both ends
# exist and otherwise kept until the ingest that makes them (`apply_pending_decisions`)
# "4" adds the world model (`world_aliases` … `world_events`: `backup_world.py`); a reader of "3" would have
# restored the memories and dropped every assertion, prediction and action without a word
# (a "4" file may also hold payload rows with `deleted_at`, kept for a person's decision: an older reader of "4"
# restores them live, which keeps their decided edges too, so no new version refuses it)
SCHEMA_VERSION = "4"
# the ids of the nodes an ingest makes from notes (notes, their items and headings, and what they mention)
VAULT_NODE_PREFIXES = ("note:", "vault:", "heading:", "date:", "email:", "tag:", "placeholder:")
PENDING_DECISIONS = "restored_decisions"  # vault_state key: decisions waiting for their notes to be ingested
EDGE_PAGE = 2_000  # edges read from the store at a time (their decisions are looked up per page)
# what an export leaves out: a retired edge belongs to a forgotten memory or a re-spliced chain; a killed one is
# a tombstone and stays in, so a payload sent again after a restore cannot bring the claim back
EXPORTED_EDGE_STATUSES = ("active", "candidate", "killed")
to_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode  # as the CLI prints JSON


# ── export ───────────────────────────────────────────────────────────────────
def export_chunks(rt: Runtime, *, include_vectors: bool = True) -> Generator[str, None, None]:
    """The export document as text, piece by piece: every active memory (with its vector when asked and made by the
    current provider), the entity nodes of payload scopes, every edge between them that is not retired, the
    decisions about a vault's edges, and the world model's rows: all as of one moment (`read_snapshot`), so a
    memory forgotten meanwhile is not written without its edges. A reader that stops early closes it (its snapshot
    ends then, not when the generator is collected, maybe after the store closed)."""
    with rt.store.read_snapshot():
        yield from _export_chunks(rt, include_vectors)


def _export_chunks(rt: Runtime, include_vectors: bool) -> Iterator[str]:
    identity = rt.provider.identity()
    rows: dict[str, int] = {}
    mat: np.ndarray | None = None
    if include_vectors and rt.vectors_enabled:
        vid, mat = rt.store.load_vectors(identity)
        rows = {i: k for k, i in enumerate(vid)}
    head = {"kind": EXPORT_KIND, "schema_version": SCHEMA_VERSION, "exported_at": rt.now_iso(),
            "provider": identity if rows else None}
    yield to_json(head)[:-1] + ',"insights":[\n'
    ids: set[str] = set()
    sep = ""
    for m in _exported_nodes(rt):
        ids.add(m.id)
        item = {**m.to_dict(), "inserted_at": m.inserted_at}
        k = rows.get(m.id)
        if k is not None and mat is not None:
            item["vector"] = _encode_vector(mat[k])
        yield sep + to_json(item)
        sep = ",\n"
    yield '\n],"edges":[\n'
    sep = ""
    decided: list[tuple[Edge, str | None, list[dict[str, Any]]]] = []
    edges = rt.store.iter_edges(statuses=EXPORTED_EDGE_STATUSES)
    # the few edges whose log holds a decision, read once: asked page by page, 4.5 M edges cost 9,000 reads
    logged = rt.store.edges_with_events(HISTORY_EVENTS)
    while page := list(islice(edges, EDGE_PAGE)):
        # a weakening or validation lives in the edge's event log, which an export does not carry whole: named on
        # the edge, it is recorded again by the restore (a re-sent payload or a replayed evidence pack reads it
        # there); the decisions' own events go with it (`history`: who decided, when, why)
        by_person = person_decisions(rt.store, [e for e in page if e.status != "killed" and int(e.id or 0) in logged])
        told = _decision_events(rt, [int(e.id or 0) for e in page if int(e.id or 0) in logged
                                     and (e.status == "killed" or int(e.id or 0) in by_person)])
        for e in page:
            decision, history = by_person.get(int(e.id or 0)), told.get(int(e.id or 0), [])
            if e.src in ids and e.dst in ids:
                yield sep + edge_json(e, decision, history)
                sep = ",\n"
            elif is_decision(e, ids) or (decision is not None and _ends_known(e, ids)):
                decided.append((e, decision, history))
    yield '\n],"vault_edges":[\n'
    # by their ends and relation: by id they came out in another order on each backend (SQLite's decided
    # containment edges keep the negative ids they were derived under), so one store's content made two files
    decisions = [((e.src, e.dst, e.type), edge_json(e, d, h)) for e, d, h in decided]
    decisions += [(_decision_key(r), to_json(r)) for r in _still_pending(rt, [e for e, _d, _h in decided])]
    yield ",\n".join(text for _key, text in sorted(decisions))
    yield from export_world_chunks(rt)
    yield "\n]}\n"


def _decision_events(rt: Runtime, edge_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """Edge id → the events of its log that are decisions (`HISTORY_EVENTS`), oldest first, as an export writes
    them."""
    from ..ports.store.history_reads import edge_events_of

    return {edge_id: [{"event": ev.event, "actor": ev.actor, "detail": ev.detail, "created_at": ev.created_at}
                      for ev in events if ev.event in HISTORY_EVENTS]
            for edge_id, events in edge_events_of(rt.store, edge_ids).items()} if edge_ids else {}


def edge_json(e: Edge, decision: str | None = None, history: list[dict[str, Any]] | None = None) -> str:
    """One edge as a line of the export, without the fields a restore reads the same when absent (`EDGE_DEFAULTS`):
    spelled out, they were two fifths of a big store's export. Every value is written as stored (a float's shortest
    exact form), so the row reads back as it was."""
    row: dict[str, Any] = {"source_id": e.src, "target_id": e.dst, "edge_type": e.type}
    for key, value in (("sub_type", e.sub_type), ("weight", e.weight), ("confidence", e.confidence),
                       ("status", e.status), ("origin", e.origin), ("evidence", e.evidence), ("rule", e.rule),
                       ("source_path", e.source_path), ("metadata", e.metadata)):
        if value != EDGE_DEFAULTS[key]:
            row[key] = value
    row["created_at"] = e.created_at
    if e.updated_at and e.updated_at != e.created_at:  # when it was last decided or changed: a restore keeps it
        row["updated_at"] = e.updated_at
    if decision in EDGE_DECISIONS:
        row["decision"] = decision
    if history:
        row["history"] = history
    return to_json(row)


def _ends_known(e: Edge, exported: set[str]) -> bool:
    return all(end in exported or end.startswith(VAULT_NODE_PREFIXES) for end in (e.src, e.dst))


def is_decision(e: Edge, exported: set[str]) -> bool:
    """Whether an edge touching a vault's nodes is one a rebuild keeps — a kill, a validation, a resolve or payload
    claim, an agent's link (`survives_rebuild`), or a parsed edge `weaken-edge` weakened, whose strength a re-parse
    of its line keeps: what a person or agent decided, which no ingest of the notes can make again. Its vault ends
    are not exported (ingest makes them from the notes), so it goes in `vault_edges`."""
    return _ends_known(e, exported) and (survives_rebuild(SimpleNamespace(status=e.status, origin=e.origin,
                                                            validated=bool(e.metadata.get("validated")),
                                                            promoted=bool(e.metadata.get(PROMOTED))))
                           or _weakened(e))


def _weakened(e: Edge) -> bool:
    # a parsed edge is written at strength = confidence; only `weaken-edge` lowers its strength (as `vault/writer.py`
    # reads it when the line is parsed again)
    return e.origin == "ingest" and e.status != "killed" and e.weight < e.confidence


def _decision_key(row: Any) -> tuple[str, str, str]:
    return (str(row.get("source_id")), str(row.get("target_id")), str(row.get("edge_type")))


def _still_pending(rt: Runtime, decided: list[Edge]) -> list[Any]:
    """The decisions a restore into this store keeps waiting for their notes (`PENDING_DECISIONS`): a backup made
    before that ingest carries them on. One the store applied is no longer among them; one whose edge the store
    holds as a decision of its own (written above) is left out, as its restore would keep the store's."""
    vault = getattr(rt.store, "vault", None)
    raw = vault.get_state(PENDING_DECISIONS) if vault is not None else None
    if not raw:
        return []
    held = {(e.src, e.dst, e.type) for e in decided}
    return [row for row in json.loads(raw)
            if (row.get("source_id"), row.get("target_id"), row.get("edge_type")) not in held]


def _exported_nodes(rt: Runtime) -> Iterator[Memory]:
    """Every active memory, then the entity nodes of `remember --payload` scopes: the nodes a payload's edges join
    (a vault's notes, headings and tags are not: ingest makes them again from the notes); last the payload rows
    kept deleted for a person's decision about one of their edges (`_kept_for_decisions`)."""
    deleted: list[Memory] = []
    for kind in ("memory", "entity"):
        for n in rt.store.iter_nodes(kind=kind, include_deleted=True):
            if n.deleted_at is None:
                if kind == "memory" or n.source.startswith(PAYLOAD_SCOPE):
                    yield n
            elif _payload_owned(n):
                deleted.append(n)
    yield from _kept_for_decisions(rt, deleted)


def _payload_owned(n: Memory) -> bool:
    return n.source.startswith(PAYLOAD_SCOPE) and n.id.startswith(n.source + "#")


def _kept_for_decisions(rt: Runtime, deleted: list[Memory]) -> list[Memory]:
    """The deleted payload rows an edge a person killed, validated or weakened still joins (`kept_for_decisions` of
    a re-sent payload), exported deleted: left out, their decided edges went with them, and after a restore the
    next payload naming the node brought a killed claim back active."""
    if not deleted:
        return []
    ids = {n.id for n in deleted}
    touching = [e for e in rt.store.vault.edges_touching(sorted(ids))  # type: ignore[attr-defined]
                if e.status in EXPORTED_EDGE_STATUSES]
    decided = set(person_decisions(rt.store, touching))
    kept = {end for e in touching if int(e.id or 0) in decided for end in (e.src, e.dst)} & ids
    return [n for n in deleted if n.id in kept]



def _encode_vector(row: np.ndarray) -> str:
    import numpy as np

    return base64.b64encode(np.ascontiguousarray(row, dtype="<f4").tobytes()).decode()
