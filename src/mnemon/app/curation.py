"""Reading and curating single memories: show, forget, link, related, gc."""
from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

from ..core.errors import InvalidInput, NotFound
from ..core.graph import Neighbors, as_listed, bfs
from ..core.importance import LINKS_COUNTED, effective_importance, is_immune
from ..core.keywords import VAULT_SOURCE_PREFIX
from ..core.model import Edge, Link, Memory, iso, parse_iso
from ..core.surface import step, typed
from ..core.validation import refuse_blank_id, unwritable_path, validate_edge_type, validate_weight
from ..ports.store.base import TIMED
from ..ports.store.id_prefix import ids_starting_with
from .access import record_access
from .remember import corrections_among, grace_cutoff, refresh_importance, rejoin_backbone
from .runtime import Runtime

MAX_RELATED_DEPTH = 10
CAUSAL_SUB_TYPES = ("causes", "enables", "prevents")
MAX_META_KEYS = 20


def stored_id(rt: Runtime, node_id: str) -> str:
    """`node_id` as the store spells it: an id held in another Unicode form only is that one. A note's id is its
    file's name, which macOS writes decomposed (NFD: "e" and an accent) and a keyboard or an agent composed (NFC):
    `show note:Café.md` answered not_found for the note the vault and every link to it call that."""
    if not isinstance(node_id, str) or node_id.isascii() or rt.store.get_node(node_id, include_deleted=True):
        return node_id
    for form in ("NFC", "NFD"):
        other = unicodedata.normalize(form, node_id)
        if other != node_id and rt.store.get_node(other, include_deleted=True) is not None:
            return other
    return node_id


def require_memory(rt: Runtime, node_id: str, field: str = "id") -> Memory:
    """The active node `node_id` names, in whichever Unicode form it is given (`stored_id`); `field` is the argument
    it came as, named in a refusal."""
    refuse_blank_id(node_id, "a memory id")
    node_id = stored_id(rt, node_id)
    node = rt.store.get_node(node_id)
    if node is None:
        gone = rt.store.get_node(node_id, include_deleted=True)
        if gone is not None and gone.deleted_at:
            raise removed_refusal(rt, gone, field)
        if (moved := moved_note(rt, node_id)) is not None:
            raise NotFound(f"no active memory with id {node_id!r}: its note was moved or renamed, and is {moved!r} now"
                           "; " + step(f"`mnemon show {moved}` shows it", f"`show` {moved} shows it"),
                           field=field, id=node_id, moved_to=moved)
        raise unknown_id(rt, f"no active memory with id {node_id!r}", node_id, field,
                         step("`mnemon recall` or `mnemon log` lists ids", "`recall` or `log` lists ids"))
    return node


def moved_note(rt: Runtime, node_id: str) -> str | None:
    """The id a note now has that an ingest moved or renamed from `node_id` (`note:<path>`), if it is still there."""
    from .vault.moves import moved_to  # (the vault's modules read memories through this one)

    vault_store = getattr(rt.store, "vault", None)
    if not node_id.startswith("note:") or vault_store is None:
        return None
    moved = moved_to(vault_store, node_id[len("note:"):])
    return f"note:{moved}" if moved is not None and rt.store.get_node(f"note:{moved}") is not None else None


# a shorter text matches too many ids by chance to be offered as the one meant
MIN_PREFIX = 6
# `gc` looks for corrections among all its weak memories while there are at most this many, so that its count is
# exact; past it only until the shown ones are known, as auto-prune does: a lookup is a keyword search for each
# memory worded as a change, and checking every one made `gc` run for minutes on a store of 100k memories
CORRECTIONS_COUNTED = 200


def unknown_id(rt: Runtime, said: str, node_id: str, field: str, how: str, *,
               include_deleted: bool = False, **details: Any) -> NotFound:
    """The refusal of an id no node has, naming the argument and the id it was given. When the id is the start of
    exactly one stored id (an agent shortened `46b1a2cd-…` to `46b1a2cd`), that id is offered, never acted on: a
    prefix that matched a memory another write made since would forget or link the wrong one."""
    full = None
    if isinstance(node_id, str) and len(node_id) >= MIN_PREFIX:
        found = ids_starting_with(rt.store, node_id, include_deleted=include_deleted)
        full = found[0] if len(found) == 1 else None
    if full is not None:
        return NotFound(f"{said}; did you mean {full!r}? A shortened id is never acted on: give the whole id",
                        field=field, id=node_id, did_you_mean=full, **details)
    return NotFound(f"{said}; {how}", field=field, id=node_id, **details)


# the log rows that delete a node, newest first: which one took it says how it comes back
_REMOVALS = ("prune", "forget", "forget:source")


def removal_of(rt: Runtime, node: Memory) -> tuple[str, dict[str, Any]]:
    """The log's op that removed this soft-deleted node (`prune`, `forget` or `forget:source`; `forget` when the log
    holds none) and that row's detail."""
    rows = [e for e in rt.store.oplog(50, node_id=node.id) if e.op in _REMOVALS]
    return (rows[0].op, rows[0].detail) if rows else ("forget", {})


def removed_refusal(rt: Runtime, node: Memory, field: str = "id") -> NotFound:
    """The refusal for an id the store holds deleted: it said "no active memory", as of an id never stored, so a
    memory auto-pruned at the cap read as mistyped — when, by what, and how it comes back."""
    from .revival import undo_status  # (revival reads how a memory was removed from here)

    by, detail = removal_of(rt, node)
    how = {"prune": f"auto-pruned at the store's cap of {detail.get('cap', rt.max_insights)}",
           "forget:source": "forgotten with its payload scope"}.get(by, "forgotten")
    undo = undo_status(rt, [node.id])[node.id]
    if node.source.startswith(VAULT_SOURCE_PREFIX) and not undo["possible"]:
        back = "it comes back when a note holds it again and is read (`ingest`)"
    elif node.source.startswith(VAULT_SOURCE_PREFIX):
        back = step(f"`mnemon forget --undo {node.id}` has the next `mnemon ingest` read its note again and bring it"
                    " back (as does any change to the note)",
                    "`forget` with undo true has the next `ingest` read its note again and bring it back (as does"
                    " any change to the note)")
    elif node.source.startswith("mneme://"):
        back = step("sending its payload again brings it back (`mnemon remember --payload`)",
                    "sending its payload again brings it back (`remember_payload`)")
    else:
        back = step(f"`mnemon forget --undo {node.id}` brings it back (or an export made before: `mnemon import FILE "
                    f"--revive-forgotten`); its text is in `mnemon log --op {by}`",
                    "`forget` with undo true brings it back (or an export made before: `mnemon import FILE "
                    f"--revive-forgotten`); its text is in `log` with op {by}")
    return NotFound(f"memory {node.id!r} was {how} at {node.deleted_at}; {back}", field=field, id=node.id,
                    deleted_at=node.deleted_at, removed_by=by, undo=undo)


def show(rt: Runtime, node_id: str) -> dict[str, Any]:
    node = require_memory(rt, node_id)
    node_id = node.id
    edges = as_listed(rt.store.edges_of([node_id], statuses=("active", "candidate"), direction="both"), node_id)
    if not rt.store.readonly:
        record_access(rt, [node_id], "show", {}, node_id=node_id)  # (never waits behind another writer)
        node = rt.store.get_node(node_id) or node
    if node.kind == "memory":
        # as of now, as auto-prune and `gc` read it: the stored value is the one of the memory's last write or `gc`,
        # so a memory nobody opened for 90 days showed 0.6 where its importance had decayed to 0.075
        node = replace(node, effective_importance=effective_importance(
            node.importance, node.access_count, node.last_accessed_at or node.created_at,
            sum(e.status == "active" for e in edges), rt.now()))
    return {**node.to_dict(), "edges": [e.to_dict() for e in edges]}


# what `forget` takes: memories, and the rows of one note (its node, its headings), which its next change brings back
# as it does a forgotten bullet. A tag, date, email or placeholder is shared by every note naming it (a payload's
# entity by its scope): forgetting one retired all their links to it, and an ingest writes a link again only when
# that link's own note changes — a lasting hole in the graph from a command that says it forgets a memory
FORGETTABLE = ("memory", "note", "heading")


def forget(rt: Runtime, node_id: str, *, dry_run: bool = False) -> dict[str, Any]:
    """Soft-delete a memory, retiring its edges; `dry_run`: the same reply, the edges it would retire listed,
    nothing written (`forget --source` and `--days-threshold` had a preview; a single forget had none)."""
    node = require_memory(rt, node_id)
    node_id = node.id
    if node.kind not in FORGETTABLE:
        instead = (step("it goes with its payload scope: `mnemon forget --source <mneme://…>`",
                        "it goes with its payload scope: `forget_source` with that mneme:// source_path")
                   if node.kind == "entity" else
                   step("every note naming it links to it; `mnemon kill-edge EDGE_ID` removes one link",
                        "every note naming it links to it; `kill_edge` with a link's edge id removes that link"))
        raise InvalidInput(f"{node_id!r} is a {node.kind} node, not a memory: forget takes memories; {instead}",
                           kind=node.kind, id=node_id)
    if dry_run:
        edges = as_listed(rt.store.edges_of([node_id], statuses=("active", "candidate"), direction="both"), node_id)
        joined = rejoin_backbone(rt, node, actor="forget", dry_run=True)
        return _forgotten(node, len(edges), joined, edges=[e.to_dict() for e in edges])
    now = rt.now_iso()
    if rt.vectors_enabled:
        rt.index.follow_saved()
    with rt.store.transaction():
        require_memory(rt, node_id)  # again under the write lock: of two forgets at once, one forgets, one says so
        gen = rt.store.vector_generation()
        # its source's chain closes over the gap first, while its steps say where its neighbours are
        joined = rejoin_backbone(rt, node, actor="forget")
        # (retired first: an edge derived from a live vault item is read from it, ports/store/contained_sqlite.py)
        retired = rt.store.retire_edges_of(node_id, reason="forget", when=now)
        _keep_observed_text(rt, node)  # before the row goes: a note's sense events read their text from it
        rt.store.soft_delete([node_id], now)
        rt.index.note_delete([node_id], gen)
        rt.store.log("forget", node_id, {**rt.audit(node.content), "edges_retired": retired,
                                         **({"backbone_rejoined": joined} if joined else {}), **rt.actor()}, now)
    return _forgotten(node, retired, joined)


def _forgotten(node: Memory, retired: int, joined: int, *, edges: list[dict[str, Any]] | None = None
               ) -> dict[str, Any]:
    """A forget's reply; with `edges` (the ones it would retire), a dry run's."""
    out: dict[str, Any] = {
        "id": node.id, "dry_run": edges is not None, "status": "deleted" if edges is None else "would_delete",
        "edges_retired": retired,
        "message": "soft-deleted; the row and its retired edges stay in the database and the oplog records it"
        if edges is None else "nothing written: forget would soft-delete it and retire these edges"}
    if edges is not None:
        out["edges"] = edges
    if joined:  # its source's memories before and after it are consecutive now: linked as a write would link them
        out["backbone_rejoined"] = joined
    if node.source.startswith(VAULT_SOURCE_PREFIX):  # the note is the source of truth: say what forgetting means
        path = node.source[len(VAULT_SOURCE_PREFIX):]
        out["vault_note"] = (f"a vault memory lives as long as its line in {path}: it comes back when that note"
                             " changes and is read again, or "
                             + step(f"at the next `mnemon ingest` after `mnemon forget --undo {node.id}`",
                                    "at the next `ingest` after `forget` with undo true")
                             + "; remove or reword the line there to drop it for good")
    return out


def _keep_observed_text(rt: Runtime, node: Memory) -> None:
    """A vault bullet or task is part of what its note's sense events observed: they keep that text (app/world)."""
    if not node.source.startswith(VAULT_SOURCE_PREFIX):
        return  # (no world import for the rest: `forget` stays as light as it was)
    try:
        from .world import keep_texts_before_forget
    except ImportError:
        return
    keep_texts_before_forget(rt, node.id, node.source)


def _no_constant(name: str) -> None:
    raise InvalidInput(f"--meta must be standard JSON: {name} is not a number JSON allows")


def parse_meta(meta: str | dict[str, Any] | None) -> dict[str, Any]:
    if meta is None or meta == "":
        return {}
    if isinstance(meta, str):
        try:
            meta = json.loads(meta, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"--meta must be a JSON object: {exc.msg}") from None
    if not isinstance(meta, dict):
        raise InvalidInput("--meta must be a JSON object")
    if len(meta) > MAX_META_KEYS:
        raise InvalidInput(f"--meta has {len(meta)} keys; the limit is {MAX_META_KEYS}")
    where = unwritable_path(meta, "meta")  # an object from a server: its NaN was stored as the row's text
    if where is not None:
        raise InvalidInput(f"--meta must be standard JSON: {where} is not a value JSON allows (NaN, Infinity)",
                           field=where)
    return meta


def link(rt: Runtime, src: str, dst: str, edge_type: str, *, sub_type: str = "", weight: Any = 0.5,
         meta: str | dict[str, Any] | None = None) -> dict[str, Any]:
    edge_type = validate_edge_type(edge_type)
    w = validate_weight(weight)
    metadata = {**parse_meta(meta), "created_by": "agent"}
    if src == dst:
        raise InvalidInput("an edge needs two different memories")
    if edge_type == "causal" and sub_type and sub_type not in CAUSAL_SUB_TYPES:
        raise InvalidInput("causal sub-type must be causes, enables or prevents")
    if edge_type != "causal" and sub_type in CAUSAL_SUB_TYPES:
        # an agent that gave sub_type "enables" and no edge_type stored a semantic edge named "enables", which no
        # causal walk or causal ordering ever reads, and was told "linked"
        raise InvalidInput(f"sub-type {sub_type!r} is a causal one, and this edge is {edge_type}: make it a causal "
                           "edge, or leave the sub-type out", field="sub_type")
    src = require_memory(rt, src, "source_id").id  # (after the arguments, as the servers' schemas check them first)
    dst = require_memory(rt, dst, "target_id").id
    if src == dst:  # (one note's id in two Unicode forms)
        raise InvalidInput("an edge needs two different memories")
    sub = sub_type or ("causes" if edge_type == "causal" else "")
    now = rt.now_iso()
    edges = [Edge(src, dst, edge_type, sub, w, origin="agent", metadata=metadata, created_at=now, rule="link")]
    # supersedes and causal are directed; the other graphs are symmetric, as in mnemon
    if edge_type not in ("supersedes", "causal"):
        edges.append(Edge(dst, src, edge_type, sub, w, origin="agent", metadata=metadata, created_at=now, rule="link"))
    with rt.store.transaction():
        ids = [rt.store.upsert_edge(e, actor="agent") for e in edges]
        refresh_importance(rt, [src, dst])
        rt.store.log("link", src, {"target": dst, "edge_type": edge_type, "sub_type": sub, "weight": w}, now)
    # the ids the edge decisions take (explain-edge, weaken-edge, validate-edge, kill-edge): without them an agent
    # had to find its own link again in `show`
    return {"status": "linked", "source_id": src, "target_id": dst, "edge_type": edge_type, "sub_type": sub,
            "weight": w, "metadata": metadata, "edge_id": ids[0], **({"reverse_edge_id": ids[1]} if ids[1:] else {})}


# `both` by default: the directed graphs (supersedes, causal) point from the newer or the cause, so "what replaced
# this?" and "what caused this?" are answered by the edges coming in, which a walk of outgoing edges never saw
RELATED_DIRECTIONS = ("both", "out", "in")


def _related_neighbors(rt: Runtime, types: list[str] | None, direction: str) -> Neighbors:
    """`rt.neighbors` over the edges leaving a node, the edges entering it, or both. Of a symmetric pair (the
    entity, temporal and semantic graphs store an edge each way) only the outgoing one is kept, so a neighbour reached
    through one reads `out` as it always did."""
    outgoing = rt.neighbors(types=types)

    def fn(ids: Sequence[str]) -> dict[str, list[tuple[str, Edge | Link]]]:
        adj: dict[str, list[tuple[str, Edge | Link]]] = {i: [] for i in ids}
        if direction != "in":
            for node, links in outgoing(ids).items():
                adj.setdefault(node, []).extend(links)
        if direction != "out":
            mirrors = {(node, nb, link.type) for node, links in adj.items() for nb, link in links}
            for e in rt.store.edges_of(ids, types=types, direction="in"):
                if (e.dst, e.src, e.type) not in mirrors:
                    adj.setdefault(e.dst, []).append(
                        (e.src, Link(e.src, e.dst, e.type, e.sub_type, e.weight, e.id or 0)))
        return adj
    return fn


def related(rt: Runtime, node_id: str, *, depth: int = 2, edge_type: str | None = None,
            limit: int = 50, direction: str = "both") -> dict[str, Any]:
    # the arguments before the memory, as the servers' schemas check them: `related x --direction sideways`
    # answered not_found on the command line and invalid_input over MCP
    if not 1 <= depth <= MAX_RELATED_DEPTH:
        raise InvalidInput(f"depth must be from 1 to {MAX_RELATED_DEPTH}")
    if direction not in RELATED_DIRECTIONS:
        raise InvalidInput(f"direction must be one of {', '.join(RELATED_DIRECTIONS)}, got {direction!r}")
    types = [validate_edge_type(edge_type)] if edge_type else None
    node_id = require_memory(rt, node_id).id
    # one past the limit: a walk cut short says so, or `--depth 4` reads as a memory with no more neighbours
    reached = bfs(node_id, _related_neighbors(rt, types, direction), max_depth=depth, limit=limit + 1)
    truncated = len(reached) > limit
    reached = reached[:limit]
    nodes = rt.store.get_nodes([r.id for r in reached])
    return {"id": node_id, "direction": direction, "truncated": truncated, "limit": limit, "related": [
        {"id": r.id, "content": nodes[r.id].content, "category": nodes[r.id].category,
         "importance": nodes[r.id].importance, "depth": r.depth, "via_edge_type": r.via.type,
         "via_sub_type": r.via.sub_type, "weight": round(r.via.weight, 4),
         # (no edge joins a memory to itself: the one reached is the target of an edge followed out, else its source)
         "direction": "out" if r.via.dst == r.id else "in"}
        for r in reached if r.id in nodes and nodes[r.id].deleted_at is None]}


def gc(rt: Runtime, *, threshold: float = 0.5, limit: int = 20) -> dict[str, Any]:
    """Recompute effective importance for every memory of the store's own; list non-immune ones under the
    threshold, weakest first and among equals oldest first, each saying whether auto-prune may take it now (the
    auto-prunable ones, in this order, are the ones it takes next over the cap) or what holds it. A vault row is
    edited in its note, not forgotten here, and auto-prune never takes one, so its importance is not recomputed
    (43k vault rows made `gc` take 2.4 s on a 2,000-note vault)."""
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not 0.0 <= threshold < math.inf:
        raise InvalidInput("--threshold must be a finite number ≥ 0 (an effective importance)")  # NaN fails too
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidInput("--limit must be a positive number")
    with rt.store.transaction():
        rows = rt.store.importance_rows(TIMED, LINKS_COUNTED)
        computed_at = rt.now()
        values = {mid: effective_importance(imp, access, touched, links, computed_at)
                  for mid, imp, access, touched, _stored, links, *_facts in rows}
        # stored as every reader shows it (4 decimals) and only where that moved: remember stores its value whole
        # (0.7499999998 for 0.75), which compared as it is made the first `gc` rewrite every row written since
        rt.store.set_effective_importance({mid: v for mid, _imp, _access, _touched, stored, *_rest in rows
                                           if (v := round(values[mid], 4)) != round(stored, 4)})
        rt.store.log("gc", None, {"recomputed": len(values), "threshold": threshold}, rt.now_iso())
    now = rt.now()
    facts = {mid: (created, inserted, payload) for mid, *_, created, inserted, payload in rows}
    # weakest first, and among equals the oldest first, as auto-prune takes them (`remember.lowest_importance`)
    weak = sorted((mid for mid, imp, access, *_ in rows if values[mid] < threshold and not is_immune(imp, access)),
                  key=lambda i: (values[i], facts[i][0], i))
    # a correction that keeps a live memory demoted is no prune candidate: auto-prune never takes one, and forgetting
    # it gives the stale fact as current again (looked up in batches, for the shown ones first, as auto-prune does)
    kept: set[str] = set()
    checked = 0
    while checked < len(weak) and (checked < CORRECTIONS_COUNTED or checked - len(kept) < limit):
        batch = weak[checked:checked + max(limit, CORRECTIONS_COUNTED - checked)]
        checked += len(batch)
        kept |= corrections_among(rt, batch)
    shown = [i for i in weak[:checked] if i not in kept][:limit]
    # read whole, and their edges counted all, for the shown ones only
    nodes, counts = rt.store.get_nodes(shown), rt.store.edge_counts(shown)
    cutoff = grace_cutoff(now, rt.prune_min_age_s)
    cands = []
    for i in shown:
        n = replace(nodes[i], effective_importance=values[i])
        last = parse_iso(n.last_accessed_at or n.created_at)
        cands.append({"insight": n.to_dict(), "effective_importance": round(values[i], 4),
                      "days_since_access": round((now - last).total_seconds() / 86400, 2),
                      "edge_count": counts.get(i, 0), "immune": False,
                      **_prunable_now(rt, *facts[i][1:], cutoff)})
    return {"total_insights": rt.store.count_active(), "recomputed": len(rows), "threshold": threshold,
            "candidates_found": len(weak) - len(kept), "candidates": cands, "corrections_kept": len(kept),
            # (past CORRECTIONS_COUNTED weak memories the corrections among the unchecked are not subtracted)
            "candidates_found_exact": checked == len(weak),
            "max_insights": rt.max_insights,
            "actions": {"purge": typed("mnemon forget <id>"), "keep": typed("mnemon gc --keep <id>")}}


def _prunable_now(rt: Runtime, inserted: str, payload: bool, cutoff: str | None) -> dict[str, Any]:
    """Whether auto-prune may take this candidate once the store is over its cap (`Store.prune_pool`), or what holds
    it: the auto-prunable candidates, in `gc`'s order, are the ones it takes next."""
    if payload:  # (a payload's row lives as long as its scope: `forget --source`)
        return {"auto_prunable": False, "held_by": "payload_scope"}
    if cutoff is not None and (inserted or "") <= cutoff:
        return {"auto_prunable": True}
    held: dict[str, Any] = {"auto_prunable": False, "held_by": "grace_period"}
    try:  # (a grace period past any date holds it for good: no end to give)
        held["held_until"] = iso(parse_iso(inserted) + timedelta(seconds=rt.prune_min_age_s))
    except (OverflowError, ValueError):
        pass
    return held


def gc_keep(rt: Runtime, node_id: str) -> dict[str, Any]:
    node_id = require_memory(rt, node_id, "keep").id
    with rt.store.transaction():
        rt.store.touch([node_id], rt.now_iso(), amount=3)
        ei = refresh_importance(rt, [node_id]).get(node_id, 0.0)
        rt.store.log("gc_keep", node_id, {}, rt.now_iso())
    node = require_memory(rt, node_id)
    return {"status": "retained", "id": node_id, "content": node.content, "new_access": node.access_count,
            "effective_importance": round(ei, 4), "immune": is_immune(node.importance, node.access_count)}
