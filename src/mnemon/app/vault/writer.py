"""The write phases of one vault ingest (`ingest.py`): clear what a note's last parse wrote, write its new rows and
edges, resolve its links, and relink the notes whose link names another note claimed or gave up.

Every write keeps what a person decided: killed tombstones and validated or promoted active edges survive a rebuild
(`core.vault.survives_rebuild`); a cleared edge the new parse plans again keeps its id, history and creation time.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.model import Edge, Memory
from ...core.ontology import DEFAULT_ONTOLOGY
from ...core.vault import LinkIndex, NoteIdentity, note_keys, survives_rebuild
from ...core.vault.links import nearest_first
from ...core.vault.lifecycle import PROMOTED, kept_active
from ...ports.store.edge_rows import NOTE_PATH
from ..runtime import Runtime
from .contained import Containment
from .decided_sources import DecidedSources, moved_source
from .edited_items import GONE, carried_from, is_item, retired_decision, taken_up
from .plan import NotePlan, PlannedEdge, PlannedNode, note_id

SHARED_KINDS = ("date", "email", "tag", "placeholder")
VAULT_SOURCE = "vault"
LINK_RELATIONS = frozenset({"links_to", "embeds"})  # the edges of a note's links (`plan.plan_links`)
# every relation a note's parse writes (`plan.py`): the ingest owns those edges and re-derives them from the text
INGEST_RELATIONS = LINK_RELATIONS | {"has_section", "has_heading", "mentions_date", "mentions_email", "has_tag"} | {
    spec.name for spec in DEFAULT_ONTOLOGY.specs() if spec.category == "observation" and spec.name.startswith("has_")}
CLAIM_ORIGINS = frozenset({"resolve"})  # edges that make a claim about a note, written by no parse of it
JOIN_BY_NAME_MAX = 50  # notes in a run up to which `join_placeholders` looks placeholders up by the notes' names
NOTE_REMOVED = "note_removed"  # the reason `retire_claims` records, and `restore_claims` looks for


@dataclass(frozen=True)
class _IngestEdge:
    """`core.vault.EdgeLike` over what `clear_notes` reads of an edge ingest wrote (`vault.edge_values_from`)."""

    status: str
    validated: bool
    promoted: bool = False
    origin: str = "ingest"
    id: str = ""
    relation: str = ""
    confidence: float = 0.0
    evidence: str | None = None


def _derived_row(node: PlannedNode, source: str, now: str) -> tuple[Any, ...]:
    """The `node_row` of a planned memory or heading (see `ports.store.vault_sqlite.node_row`)."""
    return (node.id, node.kind, node.title, node.content, node.content_hash, node.category, node.importance, "[]",
            "[]", source, now, now, 0.5, node.metadata, now, node.proactive)


def note_node(plan: NotePlan, now: str) -> Memory:
    return Memory(id=plan.note_id, kind="note", title=plan.title, content="", category="context", importance=3,
                  tags=plan.tags, source=f"vault:{plan.path}", created_at=now, updated_at=now, inserted_at=now,
                  metadata={"path": plan.path, "type": plan.note_type, "aliases": list(plan.aliases),
                            "tags": list(plan.tags), "content_hash": plan.content_hash})


def shared_node(node_id: str, now: str) -> Memory:
    kind, _, name = node_id.partition(":")
    return Memory(id=node_id, kind=kind, title=name, content="", source=VAULT_SOURCE, created_at=now, updated_at=now,
                  inserted_at=now)


class VaultWriter:
    """The write phases of one ingest, sharing counters and the link index."""

    def __init__(self, rt: Runtime, index: LinkIndex | None, now: str) -> None:
        self.rt = rt
        self.vault = rt.store.vault  # type: ignore[attr-defined]
        self.index = index
        self.now = now
        self.edges_added = 0
        self.blocked: list[tuple[int, dict[str, Any] | None]] = []  # (killed edge, where its line is now if moved)
        self.decided = DecidedSources()  # the decided edges of the notes this run re-parsed (`decided_sources`)
        self.preserved_killed = 0
        self.preserved_active = 0
        self.new_memory_ids: list[str] = []
        self.observations_added = 0  # bullet and task rows that did not exist (or were deleted) before this run
        self.placeholders: set[str] = set()
        self.released: set[str] = set()  # shared nodes that lost an edge in this run: the only possible new orphans
        self.ensured: set[str] = set()  # shared nodes this run made sure exist (none is deleted before it ends)
        # a store that never held a note, section or heading row cannot hold one with the ids this run writes, nor
        # an edge from one: a first ingest then skips the existence lookups (55k ids for 2,000 notes). Read inside
        # the write transaction (`ingest_vault`); until then assume rows exist.
        self.had_vault_rows = True
        self.reusable: dict[tuple[str, str, str], int] = {}  # (src, dst, type) → id of an edge a rebuild may keep
        self.retired_kept: set[int] = set()  # of those, retired decisions (`retired_decision`): kept unless reused
        # (src, dst, type) → id of a kept edge whose only claim to stay is a promotion (`_release`)
        self.promoted_only: dict[tuple[str, str, str], int] = {}
        # every edge from the nodes `clear_notes` cleared, as `edge_values_by_keys` gives it: `write_edges` finds
        # the edges it would duplicate here instead of reading the same rows again
        self.cleared_srcs: set[str] = set()
        self.known_edges: dict[tuple[str, str, str], tuple[Any, ...]] = {}
        self._resolved: dict[str, tuple[str | None, tuple[str, ...]]] = {}  # link key → `offered` under `_resolved_by`
        self._resolved_by: LinkIndex | None = None
        # containment edges derived from their items, not stored (SQLite: app/vault/contained.py)
        self.contained = Containment(self.vault.containment_kinds() if self.vault.derives_edges else None)
        # id → ((src, dst, type), strength, status, link key) of each weakened edge this run cleared and did not
        # plan again in place: its successor (`_carry_weakened`) takes the weakening over
        self.weakened: dict[int, tuple[tuple[str, str, str], float, str, str]] = {}
        # id → the weakened edge (its strength, status and line) of a task or bullet cleared and not planned again in
        # place (its line edited): `edited_items` passes the weakening to the edited line's edge
        self.weakened_items: dict[int, Edge] = {}
        self.held_weakened: set[int] = set()  # of those, the ones whose item left the note: kept for `edited_items`
        # id → status of each edge a decision was carried from, taken up again since (`carried_from`): retired, not
        # deleted, when not planned again
        self.retake: dict[int, str] = {}
        self.moves: dict[str, str] = {}  # old path → new path of the notes this run moved (`ingest._moved_notes`)
        # (note, item, relation) of the containment edges of the last `write_nodes` batch that are rows and whose
        # item had a row before it: one `write_edges` inserts anew takes the item's creation time
        self.older_items: set[tuple[str, str, str]] = set()

    def resolve(self, key: str, linker: str) -> tuple[str, str | None]:
        """(node id, tier) a link with `key` written in note `linker` (a path) goes to: a note, else a placeholder."""
        assert self.index is not None, "the link index is set once every note is planned"
        if self._resolved_by is not self.index:  # (a vault links the same few names from many notes)
            self._resolved, self._resolved_by = {}, self.index
        offered = self._resolved.get(key)
        if offered is None:
            offered = self._resolved[key] = self.index.offered(key)
        tier, paths = offered
        if not paths:
            self.placeholders.add(f"placeholder:{key}")
            return f"placeholder:{key}", None
        return note_id(nearest_first(paths, linker, key)[0]), tier

    def clear_notes(self, notes: Sequence[tuple[str, set[str]]], *, removing: bool = False) -> None:
        """Drop what the last parse of each (path, keep ids) wrote, except surviving edges and the rows kept.

        One pass for a batch of notes: a note's derived rows and edge sources carry its own path, so the notes'
        clears are independent, and a re-planned vault reads its edges in a few statements. The edges a rebuild
        owns are not deleted here but kept as `reusable`: the new parse of a note mostly plans the same edges again,
        and `write_edges` gives such an edge its new values in place (its id, history and creation time stay);
        `drop_unreused` deletes the rest once every edge of the run is written."""
        old_ids = {path: self.vault.derived_node_ids(path) for path, _keep in notes}
        srcs = [x for path, _keep in notes for x in (note_id(path), *old_ids[path])]
        doomed: set[int] = set()
        contained = self.contained
        rows = self.vault.edge_values_from(srcs, rows_only=True)
        if contained.kinds is not None:
            notes_of = {note_id(path) for path, _keep in notes}
            contained.rows |= {key for key, _origin, _values in rows if key[0] in notes_of}  # the notes' edge rows
            # derived from its item: it goes with the item or its code (the new plan sets that), never reused
            for key, edge_id in self.vault.derived_keys_from(srcs):
                contained.before.add(key)
                doomed.add(edge_id)
        for key, origin, values in rows:
            if self._release(key, origin, values):
                doomed.add(values[0])
            elif removing:
                self.decided.unseen.pop(key, None)  # (a removed note's decisions stay with it or move with it)
        if removing and self.weakened:  # (a moved note's go with it: `carry_decisions`)
            doomed -= self._keep_weakened({x for path, _keep in notes for x in (note_id(path), *old_ids[path])})
        self.cleared_srcs.update(srcs)
        stale = [i for path, keep in notes for i in old_ids[path] if i not in keep]
        if not stale:
            return
        if not removing and self.weakened_items:  # a weakened line edited or gone: the edge stays for `edited_items`
            left = set(stale)
            held = {i for i, e in self.weakened_items.items() if e.dst in left and i in doomed}
            doomed -= held
            self.retired_kept |= held
            self.held_weakened |= held
        if not removing:
            # a promotion applied to the edge a parse made: once the note no longer holds its section or bullet (an
            # edit changed it), nothing is left to promote, so the edge goes with the row instead of keeping it.
            # A removed note keeps them for `carry_decisions`, as it keeps validations
            gone = set(stale)
            for key in [k for k in self.promoted_only if k[0] in gone or k[1] in gone]:
                edge_id = self.promoted_only.pop(key)
                self.reusable[key] = edge_id  # (never planned again: `drop_unreused` deletes it)
                doomed.add(edge_id)
                self.preserved_active -= 1
        protected = {x for e in self.vault.edges_touching(stale) if int(e.id or 0) not in doomed for x in (e.src, e.dst)}
        hard = [i for i in stale if i not in protected]
        soft = [i for i in stale if i in protected]
        gen = self.rt.store.vector_generation()
        self.rt.store.hard_delete(hard)  # type: ignore[attr-defined]
        # their edges went with them (ON DELETE CASCADE), and SQLite hands a freed id to the next edge it inserts:
        # left in `reusable`, `drop_unreused` would delete that new edge under its recycled id
        gone = set(hard)
        for key in [k for k in self.reusable if k[0] in gone or k[1] in gone]:
            del self.reusable[key]
            self.known_edges.pop(key, None)
        if soft:
            if self.contained.kinds is not None:  # its derived edge goes now, not when something revives the row
                self.vault.forget_derived_of(soft)
            self.rt.store.soft_delete(soft, self.now)
        # only an index this process already built caches vectors to mark dead; building one just to tell it costs
        # the numpy import (~0.25 s), more than the rest of a one-note re-ingest
        if (hard or soft) and getattr(self.rt, "_index", None) is not None:
            self.rt.index.note_delete([*hard, *soft], gen)

    def _keep_weakened(self, srcs: set[str]) -> set[int]:
        """The weakened edges from `srcs` (of removed notes) stay with the soft-deleted note, as its killed and
        validated edges do, so `explain-edge` answers, the note put back takes them up weakened, and a moved note's
        go to its new path under their ids (`carry_decisions`). Their ids."""
        kept = {i: key for i, (key, *_rest) in self.weakened.items() if key[0] in srcs}
        for edge_id, key in kept.items():
            del self.weakened[edge_id]
            self.weakened_items.pop(edge_id, None)
            if self.reusable.get(key) == edge_id:
                del self.reusable[key]
        return set(kept)

    def _release(self, key: tuple[str, str, str], origin: str, values: tuple[Any, ...]) -> bool:
        """Take note of a stored edge that a new parse replaces: one a person decided, or one not derived from the
        vault's text (a resolve writeback, an agent's link), is kept and counted; any other becomes `reusable` by the
        new parse (True: it goes unless planned again)."""
        status, meta = values[1], values[7]
        self.known_edges[key] = values
        if origin != "ingest":  # never owned by the vault
            if status == "killed":
                self.preserved_killed += 1
            elif status == "active":
                self.preserved_active += 1
            return False
        if retired_decision(status, meta):  # taken up again if its line is back, else kept (and its item with it)
            self.reusable[key] = values[0]
            self.retired_kept.add(values[0])
            return False
        if carried_from(status, meta):  # a decision went from it to an edited line: kept when its line goes again
            self.reusable[key] = values[0]
            self.retired_kept.add(values[0])
            self.retake[values[0]] = status
            return False
        decided = json.loads(meta) if kept_active(status, meta) else {}
        validated, promoted = bool(decided.get("validated")), bool(decided.get(PROMOTED))
        if promoted and not validated:
            self.promoted_only[key] = values[0]
        if not survives_rebuild(_IngestEdge(status, validated, promoted)):
            self.reusable[key] = values[0]
            if status in ("active", "candidate") and values[2] < values[3]:  # weakened (as `write_edges` reads it)
                link_key = json.loads(meta).get("key", "") if key[2] in LINK_RELATIONS and meta else ""
                self.weakened[values[0]] = (key, values[2], status, str(link_key or ""))
                if is_item(key[1]):
                    self.weakened_items[values[0]] = Edge(src=key[0], dst=key[1], type=key[2], weight=values[2],
                                                          status=status, evidence=str(values[4] or ""),
                                                          source_path=key[0].partition(":")[2], id=values[0])
            if key[1].split(":", 1)[0] in SHARED_KINDS:
                self.released.add(key[1])
            return True
        self.decided.cleared(key, values[0])
        if status == "killed":
            self.preserved_killed += 1
        else:
            self.preserved_active += 1
        return False

    def relink_notes(self, links: Mapping[str, Sequence[PlannedEdge]]) -> None:
        """Resolve again the links (`plan.plan_links`) of notes, by path, whose bytes did not change
        (`ingest._relink`): only their link edges can differ from what is stored — their rows, derived edges, dates,
        tags and evidence texts are what the same bytes wrote before — so only those edges are cleared and
        written, as a re-parse would write them."""
        srcs = [note_id(path) for path in links]
        # (links are never derived from an item: the rows hold them all)
        for key, origin, values in self.vault.edge_values_from(srcs, rows_only=True, types=sorted(LINK_RELATIONS)):
            self._release(key, origin, values)
        self.cleared_srcs.update(srcs)  # (of their edges, only links are written: `known_edges` holds all of those)
        self.write_edges([(path, edge) for path, edges in links.items() for edge in edges])

    def write_nodes(self, plans: Sequence[NotePlan], known: Callable[[NotePlan], bool]) -> None:
        """A batch of changed notes' derived rows in a handful of bulk statements (not a round trip per row); their
        edges follow through `write_edges` — links only once every note node exists and the link index is known.

        Clearing goes first for the batch, then the writes: a note's derived ids and edge sources carry its own
        path, so one note's clear can never touch another note's new rows."""
        # a file never ingested before has nothing to clear
        self.clear_notes([(plan.path, {n.id for n in plan.nodes}) for plan in plans if known(plan)])
        planned = [(f"vault:{plan.path}", n) for plan in plans for n in plan.nodes]
        if self.contained.kinds is not None and self.had_vault_rows:
            # a note new to the files may still have edge rows (a kept tombstone): those stay rows
            self.contained.rows |= self.vault.row_keys_from([note_id(p.path) for p in plans if not known(p)])
        codes, item_evidence, keys = self.contained.plan(plans)  # (none where every edge is a row)
        stored = self.vault.stored_rows([n.id for _source, n in planned]) if self.had_vault_rows else {}
        fresh = [(_derived_row(n, source, self.now), n) for source, n in planned if n.id not in stored]
        again = [(_derived_row(n, source, self.now), n) for source, n in planned if n.id in stored]
        kinds = self.contained.kinds if codes and self.had_vault_rows else None  # (a first ingest reuses no id)
        above = self.vault.max_seq() if kinds is not None else 0  # (after `clear_notes`: the seqs it freed count)
        if fresh:
            fresh_codes = [codes.get(n.id) for _row, n in fresh]
            self.vault.insert_node_rows([row for row, _n in fresh], [n.fts for _row, n in fresh], pack=True,
                                        contained=fresh_codes)
            self.contained.count(fresh_codes)
            self.new_memory_ids.extend(n.id for _row, n in fresh if n.kind == "memory")
        revived = [n for _row, n in again if n.kind == "memory" and stored[n.id][10] is not None]
        if again:
            self.vault.refresh_node_rows([row for row, _n in again], [n.fts for _row, n in again], stored, pack=True,
                                         contained=[codes.get(n.id) for _row, n in again])
            # a revived row (deleted_at was set) lost its vector with its text: it needs one again
            self.new_memory_ids.extend(n.id for n in revived)
        if kinds is not None:  # an item given the id of an edge gone before has its edge as a row, an id of its own
            back = [n.id for _row, n in again if stored[n.id][10] is not None and n.id in codes]
            if used := kinds.take_used_ids(above, back):
                self.contained.as_rows(plans, used, item_evidence, keys)
        self.edges_added += len(keys - self.contained.before)
        # an item older than this run whose containment edge is written as a row now (every one on PostgreSQL) dates
        # it as the item: derived, the edge reads the item's time (`write_edges`)
        self.older_items = {(note_id(plan.path), n.id, n.contained.relation) for plan in plans for n in plan.nodes
                            if n.contained is not None and n.id in stored} - keys if stored else set()
        self.observations_added += sum(1 for n in [*(n for _row, n in fresh), *revived]
                                       if n.memory_kind in ("observation", "task"))
        # last: refreshing a row above unindexed it by its old text, which the store may keep in the note's blob
        # (and before `write_edges`: an edge row may name its evidence text by a key into the same blob)
        self.vault.write_texts({f"vault:{plan.path}": {n.id: n.content for n in plan.nodes
                                                       if n.kind == "memory" and n.content} for plan in plans},
                               {f"vault:{plan.path}": self.contained.row_evidence(plan) for plan in plans},
                               item_evidence)

    def write_edges(self, planned: Sequence[tuple[str, PlannedEdge]]) -> None:
        """(note path, planned edge) pairs → resolved, deduplicated edge rows (each records its own creation).

        A row's `source_path` is written as `NOTE_PATH`: every planned edge leaves the note's own node or one of its
        derived memories, whose `source` is 'vault:' + the path, and the `edges` view reads the path from there
        (edge_rows.py); `paths` keeps each row's path to compare a kept edge's stored values with."""
        rows: list[tuple[Any, ...]] = []
        paths: list[str] = []
        shared: set[str] = set()
        seen: set[tuple[str, str, str]] = set()
        now = self.now
        for path, p in planned:
            dst, tier = (p.dst, None) if p.dst else self.resolve(p.link_key, path)
            key = (p.src, dst, p.relation)
            if key in seen:
                continue  # two spellings of one link ([[Ada]], [[Ada Quill]]) are one edge; the first line is evidence
            seen.add(key)
            if dst.split(":", 1)[0] in SHARED_KINDS:
                shared.add(dst)
            elif p.link_key and dst == note_id(path):
                continue  # a note linking to itself by name: navigation to nowhere
            rows.append((p.src, dst, p.relation, p.confidence, p.confidence, p.status, p.evidence, "ingest",
                         f"{p.rule}:{tier}" if tier else p.rule, NOTE_PATH, p.metadata, now))
            paths.append(path)
        shared -= self.ensured  # (a date or tag many notes mention is ensured by the first batch naming it)
        if shared:
            self.vault.ensure_shared_nodes([shared_node(i, now) for i in sorted(shared)])
            self.ensured |= shared
        known = self.known_edges  # (both empty in a first ingest: 100k row keys not built for nothing)
        existing = {row[:3]: known[row[:3]] for row in rows if row[:3] in known} if known else {}
        if self.had_vault_rows:
            unread = [row[:3] for row in rows if row[0] not in self.cleared_srcs]
            if unread:
                existing.update(self.vault.edge_values_by_keys(unread))
            if self.contained.kinds is not None:  # a derived edge no longer derived: its code went, a row replaces it
                rows_held = self.contained.rows
                existing = {k: v for k, v in existing.items() if v[0] > 0 or k in rows_held}
        if existing:
            reparsed: list[tuple[Any, ...]] = []
            reset: list[tuple[int, str, str, dict[str, Any], str]] = []
            for row, path in zip(rows, paths):
                found = existing.get(row[:3])
                if found is None:
                    continue
                edge_id, status = found[0], found[1]
                if self.reusable.get(row[:3]) == edge_id:  # cleared by this run and planned again: kept in place
                    del self.reusable[row[:3]]
                    self.weakened.pop(edge_id, None)  # (its weakening stays with it, just below)
                    self.weakened_items.pop(edge_id, None)
                    values = (row[3], row[4], row[5], row[6], row[8], path, row[10])
                    if edge_id in self.retired_kept:  # kept with its history: its line is back (or still there)
                        self.retired_kept.discard(edge_id)
                        self.retake.pop(edge_id, None)
                        weight, to, meta = taken_up(found, row)
                        values = (weight, row[4], to, *values[3:6], meta)
                    elif found[2] < found[3]:  # a parsed edge's strength drops below its confidence only by
                        values = (found[2], row[4], status, *values[3:])  # weaken-edge: a decision a re-parse keeps
                    if values != (found[2], found[3], status, *found[4:]):  # (found: the path as the view gives it)
                        reparsed.append((*values[:5], NOTE_PATH, values[6], now, edge_id))
                        if values[2] != status:
                            reset.append((edge_id, "reparsed", "ingest", {"from": status, "to": values[2]}, now))
                else:  # a decision a rebuild keeps: its row stays as decided, where the line is now is said
                    moved = moved_source(row[6], row[10], found[4], found[7])
                    self.decided.planned(row[:3], edge_id, moved, killed=status == "killed")
                    if status == "killed":
                        self.blocked.append((edge_id, moved))
            rows = [row for row in rows if row[:3] not in existing]
            self.vault.reparse_edge_rows(reparsed, pack=True)  # (`write_nodes` put their evidence in the blobs)
            if reset:
                self.vault.log_edge_events(reset)
        if self.older_items:
            rows = self._dated_as_items(rows)
        self.decided.inserted(rows)
        self.vault.insert_edge_rows(rows, pack=True)
        self.edges_added += len(rows)
        if self.blocked:
            reason = {"reason": "killed_tombstone_blocks_recreation"}
            self.vault.log_edge_events([(b, "blocked_recreation", "ingest", {**reason, **(moved or {})}, self.now)
                                        for b, moved in self.blocked])
            self.blocked = []

    def _dated_as_items(self, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """`rows` to insert, a containment edge of an item older than this run (`older_items`) created when its
        item was, as SQLite reads a derived one (its item's time): else a restored store's next ingest (an export
        keeps the vault memories with their times) or a bullet back in its note dated the edge today on one backend
        and the day the item first appeared on the other. Only these items are read (none in most runs)."""
        older = self.older_items
        items = [row[1] for row in rows if row[:3] in older]
        if not items:
            return rows
        born = {node_id: node.created_at for node_id, node in self.rt.store.get_nodes(items).items()}
        return [(*row[:11], born.get(row[1]) or row[11]) if row[:3] in older else row for row in rows]

    def join_placeholders(self, notes: Sequence[NoteIdentity]) -> int:
        """Point what still waits on a placeholder (agent and resolve edges, decided links) at the note that now
        claims its name; the vault's own links were planned again with the names (`_relink`).

        Whoever made the placeholder — a link of this run, an earlier one, or a `resolve` claim naming a note not
        ingested yet — only a name of `notes` (those this run planned or removed: no other note's names changed) can
        have found its note: a small run looks those names up by id; a large one lists the placeholders (their kind's
        index), cheaper than normalising every name of its notes (~25 ms for 2,000)."""
        assert self.index is not None
        if len(notes) > JOIN_BY_NAME_MAX:
            waiting = [pid for pid, _title, _meta in self.vault.nodes_of_kind("placeholder")]
        else:
            wanted = sorted({f"placeholder:{key}" for note in notes for keys in note_keys(note).values()
                             for key in keys})
            found = self.vault.existing_nodes(wanted) if wanted else {}
            waiting = [pid for pid, (deleted, _hash) in found.items() if deleted is None]
        joined = 0
        for pid in sorted(waiting):
            path = self.index.resolve_key(pid.split(":", 1)[1])
            if path is not None:
                self.vault.repoint_edges(pid, note_id(path), self.now)
                joined += 1
        return joined

    def retire_claims(self, paths: Sequence[str]) -> int:
        """Retire the claims (`CLAIM_ORIGINS`) still on removed notes kept soft-deleted (`remove_notes`), after
        `carry_decisions` took those of moved notes along: an active claim on a deleted note went on backing its
        belief and counting as live. Retired as `forget` retires a forgotten node's edges, not deleted — the ingest
        does not own a claim — and `restore_claims` undoes it if the note comes back. How many were retired."""
        notes = {note_id(path): path for path in paths}
        events = []
        for edge in self.vault.edges_touching(sorted(notes)) if notes else []:  # (each edge once)
            if edge.origin not in CLAIM_ORIGINS or edge.status not in ("active", "candidate"):
                continue
            edge_id, path = int(edge.id or 0), notes.get(edge.src) or notes[edge.dst]
            self.vault.update_edge_strength(edge_id, edge.weight, "retired", self.now)
            events.append((edge_id, "retired", "ingest", {"reason": NOTE_REMOVED, "path": path, "from": edge.status},
                           self.now))
        self.vault.log_edge_events(events)
        return len(events)

    def restore_claims(self, revived: Sequence[str]) -> int:
        """Put back the claims `retire_claims` retired with these notes (ids of notes this run brought back at the
        same path), once both their ends are live again. How many were restored."""
        if not revived:
            return 0
        candidates = [e for e in self.vault.edges_touching(revived)
                      if e.origin in CLAIM_ORIGINS and e.status == "retired"]
        ends = {end for e in candidates for end in (e.src, e.dst)}
        dead = {i for i, (deleted, _hash) in self.vault.existing_nodes(sorted(ends)).items() if deleted is not None}
        restored = []
        for edge in candidates:
            edge_id = int(edge.id or 0)
            history = self.rt.store.edge_events(edge_id)
            last = history[-1] if history else {}
            detail = last.get("detail") or {}
            if (last.get("event"), last.get("actor"), detail.get("reason")) != ("retired", "ingest", NOTE_REMOVED):
                continue  # retired by something else: not ours to undo
            if edge.src in dead or edge.dst in dead:
                continue
            status = str(detail.get("from") or "active")
            self.vault.update_edge_strength(edge_id, edge.weight, status, self.now)
            restored.append((edge_id, "restored", "ingest", {"reason": "note_restored", "to": status}, self.now))
        self.vault.log_edge_events(restored)
        return len(restored)

    def carry_decisions(self, moves: Sequence[tuple[str, str]]) -> int:
        """Move what a person or agent decided about a moved note (`old path`, `new path`) onto the note at its new
        path: the killed, validated or weakened edges of the note and of its sections and bullets (same kind and
        text, so the same id but for the path), and resolve or payload claims about it. Otherwise they stay on the
        removed note while the same links and bullets come back undecided. Run after `remove_notes`, which keeps
        exactly those edges. Returns how many edges moved."""
        moved: set[int] = set()  # (a bullet's edge moves twice: to the new bullet, then from the new note)
        for old, new in moves:
            old_note = note_id(old)
            prefixes = ((f"vault:{old}:", f"vault:{new}:"), (f"heading:{old}#", f"heading:{new}#"))
            # the items an edge of the note reaches, and those kept for an edge of their own (a promoted bullet's
            # date, a validated heading's link): a note's item no edge of the note reaches still holds a decision
            ends = {end for e in self.vault.edges_touching([old_note]) for end in (e.src, e.dst)}
            ends.update(self.vault.derived_node_ids(old))
            targets = {item: new_prefix + item[len(prefix):] for item in sorted(ends)
                       for prefix, new_prefix in prefixes if item.startswith(prefix)}
            alive = {i for i, (deleted, _h) in self.vault.existing_nodes(list(targets.values())).items()
                     if deleted is None}
            for item, target in targets.items():
                if target in alive:
                    moved.update(self.vault.repoint_edges(item, target, self.now))
            moved.update(self.vault.repoint_edges(old_note, note_id(new), self.now))
        return len(moved)

    def drop_unreused(self) -> None:
        """Delete the cleared edges no new parse planned again (`clear_notes`), a weakening passed on first."""
        self._carry_weakened()
        left = set(self.reusable.values())
        if retake := sorted((i, status) for i, status in self.retake.items() if i in left):
            for edge_id, status in retake:  # its line gone again: retired again, with its history
                self.rt.store.set_edge_status(edge_id, "retired", actor="ingest", reason=GONE, when=self.now,
                                              previous=status)
            self.vault.log_edge_events([(i, "source_gone", "ingest", {"reason": GONE}, self.now) for i, _s in retake])
        self.vault.delete_edges(sorted(left - self.retired_kept))
        self.reusable, self.retired_kept, self.retake = {}, set(), {}

    def log_decided_sources(self) -> None:
        """Say where the lines of the decided edges of the notes this run read stand now (`decided_sources`), once
        every edge it moves (placeholders joined, moved notes' decisions carried) is where it goes."""
        self.vault.log_edge_events(self.decided.events(self.rt.store, self.now))

    def _carry_weakened(self) -> None:
        """`weaken-edge` is a decision (glossary: decided edge), but it lives in the edge's strength, not in a mark
        `survives_rebuild` reads: a weakened edge that the new parse plans under other ends was deleted and its
        successor came back at full strength — a link parked on a placeholder when its note appears, any edge of a
        note moved to another path. The successor is the edge of the same type from the same source (its new path
        when the note moved) to the same target, a link's target being where its key resolves now — or, when no
        edge goes there, the note it reached at that note's new path: a link `note move` rewrote to the moved
        note's new name (`[[B]]` → `[[C]]`, `[x](B.md)` → `[x](Sub/C.md)`) has another key. It takes the weakened
        strength and status unless it is already weaker. A weakened edge with no successor goes (its line is gone
        from the note: a fresh ingest would not have it either), but a bullet's or task's: `edited_items` carries it
        to its line's edited successor or retires it, kept with its history."""
        if not self.weakened:
            return
        gone, self.weakened = self.weakened, {}
        options: dict[int, tuple[list[tuple[str, str, str]], float, str]] = {}
        for old_id, ((src, dst, type_), strength, status, link_key) in sorted(gone.items()):
            new_src = self._moved(src)
            linker = new_src.partition(":")[2]  # (a link leaves its note's node)
            targets = [self.resolve(link_key, linker)[0]] if link_key and self.index is not None else []
            targets.append(self._moved(dst))
            keys = [key for target in dict.fromkeys(targets) if (key := (new_src, target, type_)) != (src, dst, type_)]
            if keys:
                options[old_id] = (keys, strength, status)
                self.weakened_items.pop(old_id, None)  # (a moved note's: the same line at its new path)
        olds = {old_id: gone[old_id][0] for old_id in options}
        found = self.vault.edge_values_by_keys([*{k for keys, _s, _st in options.values() for k in keys},
                                                *olds.values()])
        taken: set[tuple[str, str, str]] = set()
        events = []
        for old_id, (keys, strength, status) in options.items():  # (by old id: the first weakening stands)
            successor = next((k for k in keys if k in found), None)
            if successor is None or successor in taken:
                continue
            taken.add(successor)
            values = found[successor]
            edge_id, now_status, weight = values[0], values[1], values[2]
            if now_status not in ("active", "candidate"):
                continue
            status = "candidate" if "candidate" in (status, now_status) else now_status
            if found.get(olds[old_id], (None,))[0] == old_id and not any(
                    ev["event"] != "created" for ev in self.rt.store.edge_events(edge_id)):
                # the weakened edge itself goes where its link resolves now, under its id (explain-edge answers)
                self.vault.take_place(old_id, edge_id, min(strength, weight), status, self.now)
                self.reusable.pop(olds[old_id], None)
                self.known_edges.pop(olds[old_id], None)
                events.append((old_id, "repointed", "ingest", {
                    "reason": "weakening_carried", "from": {"src": olds[old_id][0], "dst": olds[old_id][1]},
                    "to": {"src": successor[0], "dst": successor[1]}, "replaced_edge": edge_id}, self.now))
                continue
            if weight <= strength:
                continue
            self.vault.update_edge_strength(edge_id, strength, status, self.now)
            events.append((edge_id, "weakened", "ingest", {"reason": "weakening_carried", "from_edge": old_id,
                                                            "previous_strength": weight, "strength": strength,
                                                            "status": status}, self.now))
        self.vault.log_edge_events(events)

    def _moved(self, node: str) -> str:
        """`node` (a note, or one of its items or headings) at its note's new path when this run moved the note."""
        kind, _, rest = node.partition(":")
        if kind == "note":
            return note_id(self.moves[rest]) if rest in self.moves else node
        if kind in ("vault", "heading"):
            for old, new in self.moves.items():
                for sep in (":", "#"):
                    if rest.startswith(old + sep):
                        return f"{kind}:{new}{rest[len(old):]}"
        return node

    def remove_notes(self, paths: Sequence[str]) -> set[str]:
        """Drop the notes of deleted files, all in one clear (a renamed folder removes hundreds): their rows and the
        edges a rebuild owns go; a note node an edge still touches (a kept decision) is soft-deleted instead.
        Returns the paths of those kept notes."""
        if not paths:
            return set()
        self.clear_notes([(path, set()) for path in paths], removing=True)
        self.drop_unreused()
        nids = [note_id(path) for path in paths]
        touched = {end for e in self.vault.edges_touching(nids) for end in (e.src, e.dst)}
        if kept := [nid for nid in nids if nid in touched]:
            self.rt.store.soft_delete(kept, self.now)
        if gone := [nid for nid in nids if nid not in touched]:
            self.rt.store.hard_delete(gone)  # type: ignore[attr-defined]
        # (keeps the texts of rows a killed edge still holds)
        self.vault.write_texts({f"vault:{path}": {} for path in paths})
        return {path for path in paths if note_id(path) in touched}

    def collect_garbage(self, among: set[str] | None = None) -> int:
        """Drop shared nodes nothing points at; `among` limits the check to those ids (a small incremental run)."""
        if among is not None and not among:
            return 0
        orphans = self.vault.unreferenced(SHARED_KINDS, VAULT_SOURCE, among=sorted(among) if among else None)
        return self.rt.store.hard_delete(orphans) if orphans else 0  # type: ignore[attr-defined]
