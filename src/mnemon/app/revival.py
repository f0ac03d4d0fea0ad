"""`forget --undo`: memories `forget ID` or auto-prune soft-deleted, brought back as they were.

The row never left the database: `Store.undelete` puts it back in the keyword, entity and vector indexes. Its edges
come back only where the removal retired them — the edge's last event is the retirement `retire_edges_of` wrote
(actor `forget` or `prune`, reason `forget` or `auto-prune`; a store written before auto-prune had an actor of
its own says `forget` of both), with the status it had then — and only once both ends live; an
edge killed, validated or retired for another reason since stays as it is. The steps of its source's chain the
removal re-joined around it are split again (`remember.split_rejoined`), as an import's revival does.

A vault's row (a bullet, task, heading or note `forget` took) comes back as its note is read, never by itself: its
note is the source of truth, and the read writes its text, vector and edges as for a changed note. The undo marks the
note to be read again by the next ingest (`app/vault/reread.py`), which an unchanged note otherwise is not; the
reply says so (`pending_ingest`). The note's other forgotten rows stay forgotten through that read.

All or nothing: every id is checked first, and one that cannot come back (active, unknown, a row of a note no longer
ingested, a payload's, a text remembered again since) refuses the whole call, naming each refusal in
`details.refused`.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.errors import Conflict, InvalidInput, MnemonError
from ..core.keywords import PAYLOAD_SOURCE_PREFIX, VAULT_SOURCE_PREFIX
from ..core.model import REMOVAL_ACTORS, Edge, Memory
from ..core.surface import step, typed
from ..core.validation import refuse_blank_id
from ..ports.store.history_reads import vectors_of
from .curation import FORGETTABLE, removal_of, stored_id, unknown_id
from .remember import refresh_importance, split_rejoined
from .runtime import Runtime
from .vault.reread import linking_notes, mark_for_reread, was_forgotten

ACTOR = "forget-undo"  # the actor of the edge events and re-splits an undo writes
MAX_IDS = 1000
# the reasons `retire_edges_of` gives the edges of a memory it removes (app/curation.py, app/remember.py)
_RETIRED_BY = ("forget", "auto-prune")
_LIVE_STATUSES = ("active", "candidate")
# the ids of the rows an ingest makes from notes (app/backup_export.py's VAULT_NODE_PREFIXES)
_VAULT_IDS = ("note:", "vault:", "heading:", "date:", "email:", "tag:", "placeholder:")


def undo_forget(rt: Runtime, node_ids: Sequence[str], *, dry_run: bool = False) -> dict[str, Any]:
    asked = list(dict.fromkeys(stored_id(rt, node_id) for node_id in _checked_ids(node_ids)))  # (NFC or NFD)
    if dry_run:
        plan = _plan(rt, asked, dry_run=True)
        return _reply(plan, dry_run=True)
    if rt.vectors_enabled:
        rt.index.follow_saved()
    with rt.store.transaction():
        plan = _plan(rt, asked, dry_run=False)  # under the write lock: a forget or remember meanwhile is seen
        if plan.vault:
            mark_for_reread(rt.store.vault, plan.marks())  # type: ignore[attr-defined]
        ids = list(plan.nodes)
        if not ids:
            return _reply(plan, dry_run=False)
        now = rt.now_iso()
        gen = rt.store.vector_generation()
        back = set(rt.store.undelete(ids, now))
        if back != set(ids):  # (checked above in this transaction: a store that disagrees rolls it all back)
            raise Conflict("the store did not bring back " + ", ".join(sorted(set(ids) - back)) + "; nothing revived")
        if rt.vectors_enabled:
            _index_revived(rt, ids, gen)
        for edge, status in plan.edges:
            rt.store.set_edge_status(int(edge.id or 0), status, actor=ACTOR, when=now, previous="retired",
                                     reason="its memory's removal was undone (forget --undo)")
        revived = rt.store.get_nodes(ids)
        for node_id in ids:  # after the edges: its own steps are active again, so the re-joined pair splits
            plan.resplit[node_id] = split_rejoined(rt, revived[node_id], actor=ACTOR,
                                                   why="its removal was undone (forget --undo)")
        refresh_importance(rt, sorted({*ids, *(x for e, _ in plan.edges for x in (e.src, e.dst))}))
        for node_id in ids:
            node = plan.nodes[node_id]
            rt.store.log("revive", node_id, {
                **rt.audit(node.content), "by": "forget --undo", "removed_by": plan.removed_by[node_id],
                "deleted_at": node.deleted_at, "edges_revived": plan.edge_ids(node_id),
                **({"backbone_resplit": plan.resplit[node_id]} if plan.resplit[node_id] else {}), **rt.actor()}, now)
    _embed_missing(rt, ids)
    _warn_over_cap(rt, ids)
    return _reply(plan, dry_run=False)


class _Plan:
    def __init__(self) -> None:
        self.nodes: dict[str, Memory] = {}
        self.removed_by: dict[str, str] = {}
        self.edges: list[tuple[Edge, str]] = []  # each edge to re-activate and the status it gets back
        self.waiting: list[tuple[Edge, list[str]]] = []  # edges whose other end is still removed
        self.resplit: dict[str, int] = {}
        self.vault: dict[str, tuple[Memory, str]] = {}  # each vault row and the path of the note that brings it back
        self._ingested: set[str] | None = None
        self.vault_root = ""  # the folder the notes were last ingested from (for the command that reads them)
        self.linking_notes: set[str] = set()  # other notes whose edges to those rows the forget retired

    def ingested_notes(self, rt: Runtime) -> set[str]:
        if self._ingested is None:  # (read once a call: a vault's every note)
            self._ingested = set(rt.store.vault.note_paths())  # type: ignore[attr-defined]
        return self._ingested

    def notes_to_read(self) -> list[str]:
        return sorted({path for _node, path in self.vault.values()} | self.linking_notes)

    def marks(self) -> dict[str, list[str]]:
        """Each note to read again and the rows of it to bring back (a linking note's: none)."""
        out: dict[str, list[str]] = {path: [] for path in self.linking_notes}
        for node_id, (_node, path) in self.vault.items():
            out.setdefault(path, []).append(node_id)
        return out

    def edge_ids(self, node_id: str) -> list[int]:
        return [int(e.id or 0) for e, _ in self.edges if node_id in (e.src, e.dst)]


def _checked_ids(node_ids: Sequence[str]) -> list[str]:
    if isinstance(node_ids, str) or not isinstance(node_ids, Sequence) or not node_ids:
        raise InvalidInput("forget --undo needs one or more memory ids")
    if len(node_ids) > MAX_IDS:
        raise InvalidInput(f"forget --undo takes at most {MAX_IDS} ids at once, got {len(node_ids)}")
    for node_id in node_ids:
        refuse_blank_id(node_id, "a memory id")
    return list(dict.fromkeys(node_ids))


def _plan(rt: Runtime, ids: list[str], *, dry_run: bool) -> _Plan:
    plan, refused = _checked(rt, ids)
    if refused:
        raise _refusal_of_all(refused, len(ids), dry_run)
    _plan_edges(rt, plan)
    if plan.vault:
        plan.linking_notes = _linking_notes(rt, plan)
        plan.vault_root = rt.store.vault.get_state("root") or ""  # type: ignore[attr-defined]
    return plan


def _linking_notes(rt: Runtime, plan: _Plan) -> set[str]:
    """The other ingested notes whose rows' retired edges point at these rows (`linking_notes`)."""
    return (linking_notes(rt, plan.vault) & plan.ingested_notes(rt)) - {path for _node, path in plan.vault.values()}


def undo_status(rt: Runtime, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Whether `forget --undo` would bring each of these back, as the call itself would decide: `{"possible":
    true}`, or `{"possible": false, "reason", "message"}` with its refusal's (so Undo is offered only where it
    works)."""
    plan, refused = _checked(rt, list(dict.fromkeys(ids)))
    out: dict[str, dict[str, Any]] = {node_id: {"possible": True} for node_id in [*plan.nodes, *plan.vault]}
    for problem in refused:
        out[str(problem.details["id"])] = {"possible": False, "reason": problem.details.get("reason"),
                                           "message": problem.message}
    return out


def annotate_removals(rt: Runtime, entries: list[dict[str, Any]]) -> None:
    """Each `forget` and `prune` row of the log says whether its removal still holds (`in_effect`: the memory has
    neither come back nor been removed again since) and, if it does, whether `forget --undo` can bring it back
    (`undo`, as `undo_status`): the log alone did not tell a removal undone since from one to undo."""
    rows = [e for e in entries if e["op"] in ("forget", "prune") and e["insight_id"]]
    nodes = {i: rt.store.get_node(i, include_deleted=True) for i in dict.fromkeys(e["insight_id"] for e in rows)}
    holding = {e["insight_id"] for e in rows if _holds(nodes[e["insight_id"]], e)}
    status = undo_status(rt, sorted(holding)) if holding else {}
    for entry in rows:
        entry["in_effect"] = _holds(nodes[entry["insight_id"]], entry)
        if entry["in_effect"]:
            entry["undo"] = status[entry["insight_id"]]


def _holds(node: Memory | None, entry: dict[str, Any]) -> bool:
    # a removal writes its log row and the row's deleted_at with the same instant
    return node is not None and node.deleted_at is not None and node.deleted_at == entry["created_at"]


def _checked(rt: Runtime, ids: list[str]) -> tuple[_Plan, list[MnemonError]]:
    """The ids that can come back (in the plan, with how each was removed) and the refusals of the others."""
    plan = _Plan()
    refused: list[MnemonError] = []
    for node_id in ids:
        node = rt.store.get_node(node_id, include_deleted=True)
        problem = _refusal(rt, node_id, node, plan)
        if problem is not None:
            refused.append(problem)
        elif node is not None and node_id not in plan.vault:
            plan.nodes[node_id] = node
    held = rt.store.find_active_by_hashes([n.content_hash for n in plan.nodes.values()])
    for node_id, node in list(plan.nodes.items()):
        if (twin := held.get(node.content_hash)) is not None:
            refused.append(Conflict(
                f"the text of {node_id!r} was remembered again since as {twin!r}: reviving it would store it twice; "
                + step(f"`mnemon show {twin}` has it (forget that one first to bring this one back)",
                       f"`show` {twin} has it (forget that one first to bring this one back)"),
                id=node_id, reason="duplicate", existing_id=twin))
    return plan, refused


def _refusal(rt: Runtime, node_id: str, node: Memory | None, plan: _Plan) -> MnemonError | None:
    """Why this id cannot come back, or None (its removal recorded in `plan.removed_by`)."""
    if node is not None and node.deleted_at is None:
        return Conflict(f"memory {node_id!r} is not forgotten: it is active, so there is nothing to undo",
                        id=node_id, reason="active")
    # (by the id too: `forget --source` and a vault rebuild delete most of their rows for good)
    if node_id.startswith(_VAULT_IDS) or (node is not None and node.source.startswith(VAULT_SOURCE_PREFIX)):
        return _vault_refusal(rt, node_id, node, plan)
    by = removal_of(rt, node)[0] if node is not None else None
    if node_id.startswith(PAYLOAD_SOURCE_PREFIX) or (node is not None and (
            by == "forget:source" or node.source.startswith(PAYLOAD_SOURCE_PREFIX) or node.kind == "entity")):
        return InvalidInput(f"{node_id!r} belongs to a payload scope: it comes back when that "
                            + step("payload is sent again (`mnemon remember --payload`)",
                                   "payload is sent again (`remember_payload`)"), id=node_id, reason="payload",
                            **({"removed_by": by} if by else {}))
    if node is None or by is None:
        return unknown_id(rt, f"no memory with id {node_id!r}, active or forgotten, is held here", node_id, "id",
                          step("`mnemon log --op forget` and `mnemon log --op prune` list the removed ones",
                               "`log` with op forget or prune lists the removed ones"),
                          include_deleted=True, reason="unknown")
    if node.kind != "memory":
        return InvalidInput(f"{node_id!r} is a {node.kind} node, not a memory: forget --undo brings back memories",
                            id=node_id, reason="not_a_memory", kind=node.kind)
    plan.removed_by[node_id] = by
    return None


def _vault_refusal(rt: Runtime, node_id: str, node: Memory | None, plan: _Plan) -> MnemonError | None:
    """None for a row `forget` took from a note the store still holds (in `plan.vault`, read again by the next
    ingest); else why it cannot come back."""
    path = node.source[len(VAULT_SOURCE_PREFIX):] if node is not None else ""
    if (node is not None and node.kind in FORGETTABLE and was_forgotten(rt, node.id, node.deleted_at or "")
            and path in plan.ingested_notes(rt)):
        plan.vault[node_id] = (node, path)
        plan.removed_by[node_id] = removal_of(rt, node)[0]
        return None
    # (an id never held, or a row an ingest keeps deleted for a decision's sake: its note no longer holds it)
    return InvalidInput(f"{node_id!r} is a vault row its note does not hold now: the note is the source of truth, and "
                        "the row comes back when a note holds it again and is read " + typed("(`mnemon ingest`)"),
                        id=node_id, reason="vault")


def _refusal_of_all(refused: list[MnemonError], asked: int, dry_run: bool) -> MnemonError:
    """One error for the call, of the first refusal's kind (its code): its message alone for one id, and every
    refusal in `details.refused`."""
    first = refused[0]
    rows = [{"code": r.code, "message": r.message, **r.details} for r in refused]
    if asked == 1:
        return type(first)(first.message, **first.details, refused=rows, dry_run=dry_run)
    would = "would be" if dry_run else "was"
    return type(first)(f"nothing {would} revived: {len(refused)} of the {asked} ids cannot come back "
                       f"(details.refused says why for each); the first: {first.message}",
                       refused=rows, dry_run=dry_run)


def _plan_edges(rt: Runtime, plan: _Plan) -> None:
    ids = set(plan.nodes)
    seen: set[int] = set()
    ends: list[tuple[Edge, str, set[str]]] = []
    for edge in rt.store.edges_of(sorted(ids), statuses=("retired",), direction="both"):
        if edge.id is None or edge.id in seen:
            continue
        seen.add(edge.id)
        events = rt.store.edge_events(edge.id)
        last = events[-1] if events else None
        if not (last is not None and last["event"] == "retired" and last["actor"] in REMOVAL_ACTORS
                and last["detail"].get("reason") in _RETIRED_BY):
            continue  # killed, re-spliced, carried to a successor…: not a removal's to give back
        ends.append((edge, _status_before(events), {edge.src, edge.dst} - ids))
    heads = rt.store.node_heads(sorted({x for _, _, others in ends for x in others}))
    for edge, status, others in sorted(ends, key=lambda row: int(row[0].id or 0)):
        gone = sorted(x for x in others if x not in heads or heads[x][1])
        if gone:
            plan.waiting.append((edge, gone))
        else:
            plan.edges.append((edge, status))


def _status_before(events: list[dict[str, Any]]) -> str:
    """The status the edge had when its memory's removal retired it: said by the retirement since it records it;
    for an older one, the last status an earlier event set (a weakening to candidate), else active."""
    said = events[-1]["detail"].get("previous_status")
    if said in _LIVE_STATUSES:
        return str(said)
    for event in reversed(events[:-1]):
        status = event["detail"].get("status", event["event"])
        if status in _LIVE_STATUSES:
            return str(status)
    return "active"


def _index_revived(rt: Runtime, ids: list[str], gen: int) -> None:
    """The revived vectors told to this process's index, appended as a changed vector is: the saved matrix is then
    appended to at close, not left stale — a stale one made the next process read every vector from the database
    and save the matrix whole anew, which drops the approximate index of a large store until it is rebuilt."""
    rt.index.note_writes(vectors_of(rt.store, ids, rt.provider.identity()), gen)


def _embed_missing(rt: Runtime, ids: list[str]) -> None:
    """A memory removed before the store's provider changed has no vector of the current one: embedded now."""
    if not rt.vectors_enabled:
        return
    done, missing = rt.embed_stored(ids)
    if done < missing:
        rt.warnings.append(f"{missing - done} revived memories have no vector of {rt.provider.identity()} yet, so "
                           + typed("recall by meaning cannot find them; run `mnemon embed --all`"))


def _warn_over_cap(rt: Runtime, ids: list[str]) -> None:
    """A revived memory counts against the cap again: past its grace period the next write may prune it again."""
    cap = rt.max_insights
    if cap > 0 and rt.store.count_prunable(cap + 1) > cap:
        rt.warnings.append(
            f"the store holds more than its cap of {cap} memories again: once the revived ones are past their grace "
            "period, each write auto-prunes the lowest-importance memories, these among them; "
            + step(f"`mnemon gc --keep {ids[0]}` makes one immune, or raise max_insights",
                   "`gc` with keep makes one immune, or raise max_insights"))


def _edge_row(edge: Edge, status: str | None = None) -> dict[str, Any]:
    return {"id": edge.id, "source_id": edge.src, "target_id": edge.dst, "edge_type": edge.type,
            "sub_type": edge.sub_type, "status": status or edge.status}


def _reply(plan: _Plan, *, dry_run: bool) -> dict[str, Any]:
    status = "revive" if not plan.vault else "pend_ingest" if not plan.nodes else "revive_and_pend_ingest"
    out: dict[str, Any] = {
        "status": f"would_{status}" if dry_run else _DONE[status], "dry_run": dry_run,
        "revived": [{"id": i, "content": n.content, "removed_by": plan.removed_by[i], "deleted_at": n.deleted_at,
                     "edges_revived": plan.edge_ids(i),
                     **({} if dry_run else {"backbone_resplit": plan.resplit.get(i, 0)})}
                    for i, n in plan.nodes.items()],
        "edges_revived": [_edge_row(e, status) for e, status in plan.edges],
        "edges_waiting": [{**_edge_row(e), "waiting_for": gone} for e, gone in plan.waiting]}
    out["message"] = (("would bring back" if dry_run else "brought back")
                      + f" {len(plan.nodes)} memor{'y' if len(plan.nodes) == 1 else 'ies'} and "
                      f"{len(plan.edges)} of the edges their removal retired"
                      + (f"; {len(plan.waiting)} stay retired until the memory at their other end comes back"
                         if plan.waiting else ""))
    if plan.vault:
        _say_pending(plan, out, dry_run)
    return out


_DONE = {"revive": "revived", "pend_ingest": "pending_ingest", "revive_and_pend_ingest": "revived_and_pending_ingest"}


def _say_pending(plan: _Plan, out: dict[str, Any], dry_run: bool) -> None:
    notes = plan.notes_to_read()
    out["pending_ingest"] = [{"id": i, "note": path, "removed_by": plan.removed_by[i], "deleted_at": n.deleted_at}
                             for i, (n, path) in plan.vault.items()]
    out["notes_to_read"] = notes
    rows = len(plan.vault)
    said = (f"{rows} vault row{'' if rows == 1 else 's'} "
            + ("would come" if dry_run else "comes" if rows == 1 else "come") + " back at the next "
            + typed(f"`mnemon ingest --vault {root}`" if (root := plan.vault_root) else "`mnemon ingest`")
            + f", which reads {', '.join(notes)} again"
            + ("" if dry_run else " (marked now: an ingest skips an unchanged note)")
            + " — while the note still holds the line; nothing of "
            + ("them" if rows > 1 else "it") + " is back before")
    out["message"] = said if not plan.nodes else out["message"] + "; " + said
