"""The world model in `mnemon export` (schema "4") and in its restore (`backup.restore`).

An export ends with one array per world table, each written a page at a time as the table is read
(`WORLD_MEMBERS`, in this order): aliases, state assertions, sense events, actions, predictions, and the audit of
world writes (`world_events`, without the store's own bookkeeping). Rows are as the services stored them (their
`to_row()`), with the columns a row leaves out: a sense event's `source_path` and `recorded_at`, an action's
`recorded_at`, an alias's `updated_at`, an assertion's source edge by its ends and relation (`SOURCE_EDGE`: a restore
numbers edges anew, so the row's `source_edge_id` is pointed at that edge in the target store). Audit entries carry no id: a restore appends them in file order after the
store's own.

A restore stores each row as the service that wrote it would (the core's `from_row` checks it, the store's own
checks refuse keys a backend cannot hold), keyed by its id — an alias by its name's NFC key, an assertion by its
NFC subject and predicate. Into a live store nothing held is replaced: a row whose key the store has is skipped
(`"reason": "exists"`), and so is the history the file has for it (`"target_kept"`); an audit entry the store
already holds is not added twice. A row that does not parse is an error naming its member and index, the rest
restored; its audit is left out with it (`"target_refused"`).

Ids, and so the links between rows (a superseded assertion and its successor, a prediction's assertion, action
and outcome events, an action's prediction), are kept as they were. What a restore cannot copy is a
(subject, predicate) chain that another history joins: a pair the store already holds values of, a pair two
spellings of one subject meet in (a backup of a store not yet through the NFC-keys upgrade), or a chain a refused
row was part of. Such a pair is re-chained by the core's rule, as `alias merge` does (`assertions.rechain`): every
value is kept, the latest to take effect is current, each other one its history; the rows whose status or chain
pointers that changes are listed in `assertions_relinked` and audited.
"""
from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..core.errors import InvalidInput
from ..core.world.values import norm_name
from .backup_rows import timestamp
from .runtime import Runtime
from .unread_fields import UnreadFields

if TYPE_CHECKING:
    from ..core.world.assertions import Assertion
# (the world model's rules are imported where they are used: an ingest imports this module for the vault part of a
# restore, `backup.apply_pending_decisions`, and must not load them for it)

# the export's members, in the order they are written and best restored (audit entries last: they are kept or
# left out by what became of the rows they are about)
WORLD_MEMBERS = ("world_aliases", "world_assertions", "world_sense_events", "world_actions", "world_predictions",
                 "world_events")
_KIND = {member: member.removeprefix("world_") for member in WORLD_MEMBERS}
# an audit entry's target → the table its row is in (other targets, e.g. a forgotten scope, name no row)
_TARGETS = {"assertion": "assertions", "prediction": "predictions", "sense_event": "sense_events",
            "action": "actions", "alias": "aliases"}
_STORE_BOOKKEEPING = "store"  # the target of the store's own entries (the NFC-keys upgrade): never copied
PAGE = 2_000  # rows read per page on export, and written per bulk statement on restore
# an exported assertion's source edge, by what survives a restore (edge ids do not: a restore numbers edges anew)
SOURCE_EDGE = "source_edge"
SOURCE_EDGE_KEYS = ("source_id", "target_id", "edge_type")
# the fields of each member's rows that a restore reads, in the order an export writes them (with the spellings of
# Mneme its parsers take too): any other is named in a warning (`UnreadFields`), as an insight's or an edge's is
_READ: dict[str, tuple[str, ...]] = {
    "world_aliases": ("alias_norm", "alias_name", "canonical_name", "canonical_norm", "source", "confidence",
                      "created_at", "updated_at"),
    "world_assertions": ("id", "subject_name", "subject_type", "predicate", "object_name", "object_value",
                         "state_type", "status", "confidence", "certainty", "evidence_text", "source_path",
                         "source_type", "subject_node_id", "source_edge_id", "valid_from", "valid_until",
                         "supersedes_id", "superseded_by_id", "superseded_at", "metadata", "prediction_misses",
                         "created_at", "updated_at", SOURCE_EDGE),
    "world_sense_events": ("id", "sense_type", "source_id", "observed_at", "title", "text", "event_type",
                           "source_uri", "metadata", "origin", "source_path", "recorded_at"),
    "world_actions": ("id", "actor", "action_type", "title", "tool_name", "tool_call_id", "external_ref",
                      "side_effect_level", "reversibility", "status", "verified_by_prediction", "user_confirmed",
                      "assertion_ids", "prediction_id", "source_path", "verify", "metadata", "created_at",
                      "recorded_at"),
    "world_predictions": ("id", "title", "prediction_type", "match_json", "check_after", "expires_at", "confidence",
                          "status", "subject_assertion_id", "source_action_id", "outcome_summary",
                          "outcome_event_ids", "checked_at", "metadata", "created_at", "updated_at", "match",
                          "metadata_json"),
    "world_events": ("event", "target", "target_id", "detail", "created_at"),
}
# vault_state key: assertion id → the source edge (`SOURCE_EDGE`) of a restored assertion whose edge the store does
# not hold yet (a decision waiting for its notes' ingest); `relink_source_edges` points the row at it once it exists
PENDING_SOURCE_EDGES = "restored_source_edges"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# ── export ───────────────────────────────────────────────────────────────────
def export_world_chunks(rt: Runtime) -> Iterator[str]:
    """Each world member as text, one row a line, closing the array written before it: `'\\n],"world_…":[\\n'`
    first. Read from the store's tables as they are (no upgrade runs on an export: a store not yet through the
    NFC-keys upgrade is exported as it is, and its restore re-keys it)."""
    world = getattr(rt.store, "world", None)
    waiting = _pending_source_edges(rt)
    for member in WORLD_MEMBERS:
        yield f'\n],"{member}":[\n'
        if world is None:
            continue
        after: Any = None
        sep = ""
        while page := world.export_page(_KIND[member], after, PAGE):
            rows = [row for _key, row in page]
            if member == "world_assertions":
                rows = _with_source_edges(rt, rows, waiting)
            for row in rows:
                yield sep + _json(row)
                sep = ",\n"
            after = page[-1][0]


def _with_source_edges(rt: Runtime, rows: list[dict[str, Any]], waiting: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Assertion rows, each naming its source edge by its ends and relation (`SOURCE_EDGE`): null when the edge is
    not one the export carries (gone, retired), or the edge a restored row still waits for."""
    from .backup_export import EXPORTED_EDGE_STATUSES

    ids = sorted({int(i) for r in rows if isinstance(i := r.get("source_edge_id"), str) and i.isdigit()})
    edges = {str(e.id): e for e in rt.store.get_edges(ids)} if ids else {}
    out = []
    for row in rows:
        edge = edges.get(str(row.get("source_edge_id")))
        if edge is not None and edge.status in EXPORTED_EDGE_STATUSES:
            row = {**row, SOURCE_EDGE: dict(zip(SOURCE_EDGE_KEYS, (edge.src, edge.dst, edge.type)))}
        elif row.get("source_edge_id") is None and row.get("id") in waiting:
            row = {**row, SOURCE_EDGE: waiting[row["id"]]}
        elif row.get("source_edge_id") is not None:
            row = {**row, SOURCE_EDGE: None}
        out.append(row)
    return out


def _pending_source_edges(rt: Runtime) -> dict[str, Any]:
    vault = getattr(rt.store, "vault", None)
    raw = vault.get_state(PENDING_SOURCE_EDGES) if vault is not None else None
    return dict(json.loads(raw)) if raw else {}


def relink_source_edges(rt: Runtime) -> int:
    """Point each restored assertion still waiting for its source edge (`PENDING_SOURCE_EDGES`) at that edge, now
    that the store holds it (an ingest applied the decision that makes it); the rest keep waiting. Returns how many
    rows were pointed."""
    waiting = _pending_source_edges(rt)
    world = getattr(rt.store, "world", None)
    if not waiting or world is None or not world.ready():
        return 0
    done = 0
    for assertion_id, ref in list(waiting.items()):
        edge = _edge_of(rt, ref)
        if edge is None:
            continue
        del waiting[assertion_id]
        row = world.get_assertion(assertion_id)
        if row is not None and row.get("source_edge_id") is None:  # (not written over since)
            world.put_assertion({**row, "source_edge_id": edge}, norm_name(str(row.get("subject_name") or "")))
            done += 1
    rt.store.vault.set_state(PENDING_SOURCE_EDGES,  # type: ignore[attr-defined]
                             json.dumps(waiting, ensure_ascii=False) if waiting else "")
    return done


def _edge_of(rt: Runtime, ref: Any) -> str | None:
    """The id, in this store, of the edge an exported `SOURCE_EDGE` names (None: the store holds no such edge)."""
    if not (isinstance(ref, dict) and all(isinstance(ref.get(k), str) for k in SOURCE_EDGE_KEYS)):
        return None
    edge = rt.store.find_edge(*(ref[k] for k in SOURCE_EDGE_KEYS))
    return None if edge is None or edge.id is None else str(edge.id)


# ── restore ──────────────────────────────────────────────────────────────────
def world_error(member: str, idx: int, message: str) -> InvalidInput:
    return InvalidInput(f"export {member} {idx}: {message}", index=idx)


@dataclass
class _Parsed:
    key: str
    values: tuple[Any, ...]
    assertion: Assertion | None = None
    respelled: bool = False
    source_edge: dict[str, str] | None = None  # an assertion's source edge, to find in this store (`SOURCE_EDGE`)


def _row_of(member: str, item: Any, idx: int) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise world_error(member, idx, "must be a JSON object")
    try:  # a lone surrogate or a NaN anywhere in it would fail the row's write, or be stored as JSON no reader takes
        json.dumps(item, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (ValueError, UnicodeEncodeError):
        raise world_error(member, idx, "holds text that is not valid Unicode, or a number that is not finite"
                          ) from None
    return dict(item)


def _required_time(row: dict[str, Any], key: str, member: str, idx: int, default: str) -> str:
    def fail(message: str) -> InvalidInput:
        return world_error(member, idx, message)

    return timestamp(row.pop(key, None), key, fail) or default


def _text(row: Mapping[str, Any], key: str, member: str, idx: int, *, blank_ok: bool) -> str:
    value = row.get(key, "" if blank_ok else None)
    if not isinstance(value, str) or (not blank_ok and not value.strip()):
        raise world_error(member, idx, f"{key} must be a {'' if blank_ok else 'non-blank '}string")
    return value


def parse_world_row(world: Any, member: str, item: Any, idx: int, now: str) -> _Parsed:
    """One row of a world member, checked as its service checks it, and the columns the store writes for it."""
    from ..core.world.aliases import Alias, respelled
    from ..core.world.assertions import Assertion
    from ..core.world.ledger import Action
    from ..core.world.predictions import Prediction
    from ..core.world.senses import SenseEvent
    from .world.common import prediction_source_path

    kind = _KIND[member]
    row = _row_of(member, item, idx)
    try:
        if kind == "assertions":
            source_edge = _source_edge(row.pop(SOURCE_EDGE, None), member, idx)
            # the file's edge id numbers an edge of the store it came from: here it would name another edge, or none
            row["source_edge_id"] = None
            given = Assertion.from_row(row)
            stored = respelled(given)  # keys are NFC (m060): a row of a store not yet upgraded is re-keyed here
            return _Parsed(stored.id, world.restore_values(kind, stored.to_row(), norm_name(stored.subject)),
                           stored, stored != given, source_edge)
        if kind == "predictions":
            prediction = Prediction.from_row(row)
            return _Parsed(prediction.id, world.restore_values(kind, prediction.to_row(),
                                                               prediction_source_path(prediction)))
        if kind == "sense_events":
            recorded = _required_time(row, "recorded_at", member, idx, now)
            source_path = _text(row, "source_path", member, idx, blank_ok=True)
            row.pop("source_path", None)
            event = SenseEvent.from_row(row)
            return _Parsed(event.id, world.restore_values(kind, event.to_row(), source_path, recorded))
        if kind == "actions":
            recorded = _required_time(row, "recorded_at", member, idx, now)
            action = Action.from_row(row)
            return _Parsed(action.id, world.restore_values(kind, action.to_row(), recorded))
        if kind == "aliases":
            updated = _required_time(row, "updated_at", member, idx, "")
            alias_row = Alias.from_row(row).to_row()  # its keys computed again, so NFC whatever the file says
            if not alias_row["alias_norm"] or not alias_row["canonical_norm"]:
                raise world_error(member, idx, "alias_name and canonical_name must not be blank")
            values = world.restore_values(kind, alias_row, updated or alias_row["created_at"] or now)
            return _Parsed(alias_row["alias_norm"], values)
        entry = (_text(row, "event", member, idx, blank_ok=False), _text(row, "target", member, idx, blank_ok=False),
                 _text(row, "target_id", member, idx, blank_ok=True), row.get("detail") or {},
                 _required_time(row, "created_at", member, idx, ""))
        if not isinstance(entry[3], dict):
            raise world_error(member, idx, "detail must be a JSON object")
        if not entry[4]:
            raise world_error(member, idx, "created_at is required (an audit entry is dated)")
        return _Parsed("", world.restore_values(kind, entry))
    except InvalidInput as exc:
        if exc.message.startswith(f"export {member} "):
            raise
        raise world_error(member, idx, exc.message) from None


def _source_edge(value: Any, member: str, idx: int) -> dict[str, str] | None:
    if value is None:
        return None
    if not (isinstance(value, dict) and all(isinstance(value.get(k), str) and value[k] for k in SOURCE_EDGE_KEYS)):
        raise world_error(member, idx, f"{SOURCE_EDGE} must be null or an object with the strings "
                          + ", ".join(SOURCE_EDGE_KEYS))
    return {k: value[k] for k in SOURCE_EDGE_KEYS}


def _refused_key(member: str, item: Any) -> str | None:
    """The key a refused row would have had, when it names one: its history is left out with it."""
    if not isinstance(item, dict):
        return None
    if member == "world_aliases":
        name = item.get("alias_name")
        return norm_name(name) if isinstance(name, str) else None
    value = item.get("id")
    return value if isinstance(value, str) else None


@dataclass
class WorldRestore:
    """What a restore did to the world tables so far — or, in a dry run, would do."""
    rt: Runtime
    world: Any  # the store's world tables; None: the backend has none
    dry_run: bool
    now: str
    events_before: int = 0  # the audit's last id before the restore: entries it holds are those up to it
    counts: dict[str, dict[str, int]] = field(default_factory=lambda: {
        kind: {"restored": 0, "skipped": 0, "errors": 0} for kind in _KIND.values()})
    results: list[dict[str, Any]] = field(default_factory=list)
    named: dict[str, set[str]] = field(default_factory=lambda: {kind: set() for kind in _KIND.values()})
    kept: dict[str, set[str]] = field(default_factory=lambda: {kind: set() for kind in _KIND.values()})
    refused: dict[str, set[str]] = field(default_factory=lambda: {kind: set() for kind in _KIND.values()})
    seen: set[str] = field(default_factory=set)  # members read so far
    rechain: set[tuple[str, str]] = field(default_factory=set)  # (subject key, predicate) pairs to re-chain
    # the chain pointers of the assertions restored, to find those a refused row was part of
    links: dict[str, tuple[tuple[str, str], str | None, str | None]] = field(default_factory=dict)
    planned: dict[tuple[str, str], list[Assertion]] = field(default_factory=dict)  # a dry run's restored rows
    relinked: list[str] = field(default_factory=list)
    waiting_edges: dict[str, dict[str, str]] = field(default_factory=dict)  # `PENDING_SOURCE_EDGES` to add
    unread: dict[str, UnreadFields] = field(default_factory=lambda: {  # the rows' fields a restore does not read
        member: UnreadFields(f"{member} row", known) for member, known in _READ.items()})

    @classmethod
    def start(cls, rt: Runtime, *, dry_run: bool) -> WorldRestore:
        world = getattr(rt.store, "world", None)
        if world is not None and world.ready() and not dry_run:
            from .world.tables import world_of

            world = world_of(rt)  # a store still to go through the NFC-keys upgrade does it first, as any write
        if world is not None and not world.ready():
            world = None
        out = cls(rt, world, dry_run, rt.now_iso())
        out.events_before = world.last_event_id() if world is not None else 0
        return out

    # ── rows ─────────────────────────────────────────────────────────────────
    def place(self, member: str, batch: list[tuple[int, Any]]) -> None:
        """One batch of a world member's rows (with their indexes in it)."""
        self.seen.add(member)
        kind = _KIND[member]
        if self.world is None:
            self._unavailable(member, batch)
            return
        parsed: list[tuple[int, _Parsed]] = []
        for idx, item in batch:
            self.unread[member].note(idx, item)
            try:
                parsed.append((idx, parse_world_row(self.world, member, item, idx, self.now)))
            except InvalidInput as exc:
                self.counts[kind]["errors"] += 1
                self.results.append({"member": member, "index": idx, "action": "error", "error": exc.to_dict()})
                key = _refused_key(member, item)
                if key is not None:
                    self.refused[kind].add(key)
        if kind == "events":
            self._place_events(member, parsed)
            return
        named = self.named[kind]
        held = self.world.held_keys(kind, [p.key for _, p in parsed if p.key not in named])
        fresh: list[_Parsed] = []
        for idx, p in parsed:
            reason = "repeated" if p.key in named else "exists" if p.key in held else None
            named.add(p.key)
            if reason is None:
                fresh.append(p)
                continue
            if reason == "exists":
                self.kept[kind].add(p.key)
            self.counts[kind]["skipped"] += 1
            self.results.append({"member": member, "index": idx, "id": p.key, "action": "skipped", "reason": reason})
        if kind == "assertions":
            fresh = [self._find_source_edge(p) for p in fresh]
            self._chain_rows([p.assertion for p in fresh if p.assertion is not None],
                             {p.assertion.pair_key for p in fresh if p.assertion is not None and p.respelled})
        if not self.dry_run:
            self.world.insert_restored(kind, [p.values for p in fresh])
        self.counts[kind]["restored"] += len(fresh)

    def _find_source_edge(self, p: _Parsed) -> _Parsed:
        """A new assertion pointed at its source edge in this store (restored before the world rows); one the store
        does not hold yet (a decision waiting for its notes) is noted, to point it once an ingest makes it."""
        if p.source_edge is None or p.assertion is None:
            return p
        edge_id = _edge_of(self.rt, p.source_edge)
        if edge_id is None:
            self.waiting_edges[p.key] = p.source_edge
            return p
        row = replace(p.assertion, source_edge_id=edge_id)
        return replace(p, assertion=row, values=self.world.restore_values("assertions", row.to_row(),
                                                                          norm_name(row.subject)))

    def _unavailable(self, member: str, batch: list[tuple[int, Any]]) -> None:
        if batch and not any(c["skipped"] for c in self.counts.values()):  # (one warning, not one per member)
            self.rt.warnings.append(f"this {type(self.rt.store).__name__} store has no world-model tables: the "
                                    "export's world rows were not restored (`world_results`)")
        self.counts[_KIND[member]]["skipped"] += len(batch)
        self.results.extend({"member": member, "index": idx, "action": "skipped", "reason": "no_world_tables"}
                            for idx, _ in batch)

    def _chain_rows(self, rows: list[Assertion], respelled_pairs: set[tuple[str, str]]) -> None:
        """Note which pairs of these new rows must be re-chained: those the store already holds values of (another
        history), and those a row re-keyed to NFC joins."""
        self.rechain |= respelled_pairs
        if not rows:
            return
        named, kept = self.named["assertions"], self.kept["assertions"]
        pairs = {row.pair_key for row in rows}
        subjects = sorted({spelling for key, _ in pairs for spelling in _spellings(key)})
        for raw in self.world.assertions(subject_norm=subjects):
            if raw.get("id") in named and raw.get("id") not in kept:
                continue  # a row this restore wrote (an earlier batch)
            pair = _pair_of(raw)
            if pair in pairs:
                self.rechain.add(pair)
        for row in rows:
            self.links[row.id] = (row.pair_key, row.supersedes_id, row.superseded_by_id)
            if self.dry_run:
                self.planned.setdefault(row.pair_key, []).append(row)

    # ── audit ────────────────────────────────────────────────────────────────
    def _place_events(self, member: str, parsed: list[tuple[int, _Parsed]]) -> None:
        """Audit entries about rows this restore wrote, or about none (a refused proposal, a forgotten scope),
        appended unless the store holds the same entry already; the history of a row the store kept stays its
        own, and that of a refused row goes with it."""
        reasons: dict[int, str] = {}
        unknown: dict[str, list[int]] = {}
        for idx, p in parsed:
            target, target_id = p.values[1], p.values[2]
            kind = _TARGETS.get(target)
            if target == _STORE_BOOKKEEPING:
                reasons[idx] = "store_bookkeeping"
            elif kind is None:
                continue
            elif target_id in self.kept[kind]:
                reasons[idx] = "target_kept"
            elif target_id in self.refused[kind] and target_id not in self.named[kind]:
                reasons[idx] = "target_refused"
            elif target_id not in self.named[kind]:
                unknown.setdefault(kind, []).append(idx)
        by_idx = dict(parsed)
        for kind, idxs in unknown.items():  # a row the file does not have: the store's, if it holds one
            held = self.world.held_keys(kind, [by_idx[i].values[2] for i in idxs])
            reasons.update({i: "target_kept" for i in idxs if by_idx[i].values[2] in held})
        candidates = [p.values for idx, p in parsed if idx not in reasons]
        held_count = self.world.held_events(candidates, self.events_before) if candidates else {}
        fresh: list[tuple[Any, ...]] = []
        for idx, p in parsed:
            if idx not in reasons and held_count.get(p.values, 0):
                held_count[p.values] -= 1
                reasons[idx] = "exists"
            elif idx not in reasons:
                fresh.append(p.values)
                continue
            self.counts["events"]["skipped"] += 1
            self.results.append({"member": member, "index": idx, "target": p.values[1], "target_id": p.values[2],
                                 "action": "skipped", "reason": reasons[idx]})
        if not self.dry_run:
            self.world.insert_restored("events", fresh)
        self.counts["events"]["restored"] += len(fresh)

    # ── the end ──────────────────────────────────────────────────────────────
    def finish(self, head: Mapping[str, Any]) -> None:
        """The world members a document parsed whole carries beside its insights (`head`), then the re-chaining."""
        for member in WORLD_MEMBERS:
            value = head.get(member)
            if member in self.seen or value is None:
                continue
            for batch in member_batches(member, value):
                self.place(member, batch)
        if self.world is not None:
            self._relink()
        if self.waiting_edges and not self.dry_run:
            waiting = {**_pending_source_edges(self.rt), **self.waiting_edges}
            self.rt.store.vault.set_state(PENDING_SOURCE_EDGES, _json(waiting))  # type: ignore[attr-defined]

    def _relink(self) -> None:
        named = self.named["assertions"]
        outside = {p for _pair, *pointers in self.links.values() for p in pointers if p and p not in named}
        # a pointer to a row neither this file restored nor the store holds (a refused row, or one the file never
        # had: a hand-edited or cut export) is re-chained away: restored as written it failed the contract
        missing = outside - self.world.held_keys("assertions", sorted(outside)) if outside else set()
        missing |= self.refused["assertions"] - named
        for row_id, (pair, *pointers) in self.links.items():
            if any(p in missing for p in pointers if p):
                self.rechain.add(pair)
        if not self.rechain:
            return
        from ..core.world.assertions import Assertion, rechain
        from ..core.world.policies import group_policy
        from .world.common import now_of

        now = now_of(self.rt)
        changed: list[Assertion] = []
        for pair in sorted(self.rechain):
            rows: dict[str, Assertion] = {}
            for raw in self.world.assertions(subject_norm=list(_spellings(pair[0]))):
                if _pair_of(raw) == pair:
                    rows[str(raw["id"])] = Assertion.from_row(raw)
            rows.update({row.id: row for row in self.planned.get(pair, [])})
            group = list(rows.values())
            policy = group_policy(pair[1], [row.metadata for row in group])
            changed.extend(replace(row, updated_at=now) for row in rechain(group, policy) if row != rows[row.id])
        self.relinked = sorted(row.id for row in changed)
        if self.dry_run or not changed:
            return
        for row in changed:
            self.world.put_assertion(row.to_row(), norm_name(row.subject))
        self.world.log_events([("relinked", "assertion", row.id,
                                {"reason": "import", "status": row.status, "superseded_by_id": row.superseded_by_id})
                               for row in changed], self.rt.now_iso())

    def reply(self) -> dict[str, Any]:
        self.results.sort(key=lambda r: (WORLD_MEMBERS.index(r["member"]), r["index"]))
        verb = "would_restore" if self.dry_run else "restored"
        counts = {kind: {verb: c["restored"], "skipped": c["skipped"], "errors": c["errors"]}
                  for kind, c in self.counts.items()}
        return {**counts, "assertions_relinked": self.relinked, "results": self.results}

    def errors(self) -> int:
        return sum(c["errors"] for c in self.counts.values())

    def unread_warnings(self) -> list[str]:
        """A warning for each field of the file's world rows that the restore did not read (a hand edit's
        `"confidance": 0.1` was restored at the row's old confidence without a word)."""
        return [w for part in self.unread.values() for w in part.warnings(f"an export's {part.what}", verb="restored")]

    def restored(self) -> int:
        return sum(c["restored"] for c in self.counts.values())

    def skipped(self) -> int:
        return sum(c["skipped"] for c in self.counts.values())


def member_batches(member: str, value: Any) -> Iterator[list[tuple[int, Any]]]:
    """A world member's rows with their indexes, `PAGE` at a time (a list, or a stream's iterator)."""
    if not isinstance(value, (list, Iterator)):
        raise InvalidInput(f"'{member}' must be an array")
    items: Iterable[tuple[int, Any]] = enumerate(value)
    while batch := list(islice(items, PAGE)):
        yield batch


def _spellings(key: str) -> tuple[str, ...]:
    """A subject key and its decomposed form (a row keyed before keys were NFC: `values.norm_keys`)."""
    legacy = unicodedata.normalize("NFD", key)
    return (key,) if legacy == key else (key, legacy)


def _pair_of(raw: Mapping[str, Any]) -> tuple[str, str] | None:
    """A stored row's (subject key, predicate) as a write today keys it; None for a row no rule can read."""
    from ..core.world.aliases import respelled
    from ..core.world.assertions import Assertion

    try:
        return respelled(Assertion.from_row(raw)).pair_key
    except InvalidInput:
        return None
