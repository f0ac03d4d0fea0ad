"""Subject aliases: "the landlord" and "St James" are one subject.

The alias table is flat (alias → canonical, one hop): `add_alias` collapses chains when writing, so reads need one
lookup. `merge_plan` is the pure plan behind `alias merge FROM INTO`: register the alias, rewrite the subject of
FROM's assertions, and recompute current/superseded pointers of every affected predicate — per predicate policy,
so merging two subjects' memberships keeps both memberships current, where Mneme would collapse them to one.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from mnemon.core.errors import InvalidInput
from mnemon.core.world.assertions import Assertion, linked_name, normalise_predicate, rechain
from mnemon.core.world.policies import PredicatePolicy, group_policy
from mnemon.core.world.values import (
    instant_or_none,
    iso_or_none,
    nfc,
    norm_name,
    optional_str,
    require_aware,
    require_mapping,
    required_str,
    unit_float,
)


@dataclass(frozen=True)
class Alias:
    alias: str
    canonical: str
    source: str = "manual"
    confidence: float = 1.0
    created_at: datetime | None = None

    @property
    def alias_norm(self) -> str:
        return norm_name(self.alias)

    @property
    def canonical_norm(self) -> str:
        return norm_name(self.canonical)

    def to_row(self) -> dict[str, Any]:
        return {
            "alias_norm": self.alias_norm,
            "alias_name": self.alias,
            "canonical_name": self.canonical,
            "canonical_norm": self.canonical_norm,
            "source": self.source,
            "confidence": self.confidence,
            "created_at": iso_or_none(self.created_at),
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Alias:
        data = require_mapping(row, "alias row")
        return Alias(
            alias=required_str(data, "alias_name", "alias row"),
            canonical=required_str(data, "canonical_name", "alias row"),
            source=optional_str(data, "source", "alias row", "manual") or "manual",
            confidence=unit_float(data, "confidence", "alias row", 1.0),
            created_at=instant_or_none(data.get("created_at"), "created_at"),
        )


def alias_map(aliases: Iterable[Alias]) -> dict[str, str]:
    """normalised alias → canonical display name (what `parse_assertion(aliases=...)` takes)."""
    return {alias.alias_norm: alias.canonical for alias in aliases}


def canonical_subject(name: str, aliases: Iterable[Alias] | Mapping[str, str]) -> str:
    """The canonical name for `name`, or `name` itself (stripped) when it is not an alias.

    Chains are followed defensively (a table written by another tool may contain them) with a cycle guard.
    """
    table = dict(aliases) if isinstance(aliases, Mapping) else alias_map(aliases)
    current = name.strip()
    seen = {norm_name(current)}
    while norm_name(current) in table:
        nxt = table[norm_name(current)]
        if norm_name(nxt) in seen:
            break
        seen.add(norm_name(nxt))
        current = nxt
    return current


def add_alias(
    alias: str,
    canonical: str,
    existing: Sequence[Alias],
    now: datetime,
    source: str = "manual",
    confidence: float = 1.0,
) -> list[Alias]:
    """Alias rows to upsert: the new alias (pointing at the end of any chain) plus aliases repointed through it."""
    now = require_aware(now)
    if not alias.strip() or not canonical.strip():
        raise InvalidInput("alias and canonical must both be non-empty")
    if isinstance(confidence, bool) or not 0.0 <= confidence <= 1.0:
        raise InvalidInput(f"alias confidence must be in [0, 1], got {confidence!r}")
    resolved = canonical_subject(canonical, existing)
    if norm_name(resolved) == norm_name(alias):
        raise InvalidInput(f"{alias!r} cannot be an alias of itself (via {canonical!r})")
    rows = [Alias(alias.strip(), resolved, source, confidence, now)]
    for other in existing:
        if other.canonical_norm == norm_name(alias) and other.alias_norm != norm_name(resolved):
            rows.append(replace(other, canonical=resolved))
    return rows


@dataclass(frozen=True)
class MergePlan:
    alias: str
    canonical: str
    alias_upserts: tuple[Alias, ...]
    rewrites: tuple[Assertion, ...]
    assertions_rewritten: int
    predicates_recomputed: tuple[str, ...]
    current_ids: tuple[str, ...]

    def to_dict(self, dry_run: bool) -> dict[str, Any]:
        return {
            "ok": True,
            "dry_run": dry_run,
            "alias": self.alias,
            "canonical": self.canonical,
            "assertions_rewritten": self.assertions_rewritten,
            "predicates_recomputed": list(self.predicates_recomputed),
            "current_ids": list(self.current_ids),
            "rewrites": [row.to_row() for row in self.rewrites],
        }


def recompute_chain(rows: Sequence[Assertion], policy: PredicatePolicy, now: datetime) -> list[Assertion]:
    """Statuses and pointers for one (subject, predicate) group: in each chain the latest start is current.

    Single-valued: one chain over all values. Multi-valued: one chain per object. Retracted rows stay retracted.
    (`assertions.rechain`, shared with writes and retractions; `now` is kept for callers.)
    """
    return [row for row in rechain(rows, policy) if row.status != "retracted"]


def merge_plan(
    from_subject: str,
    into_subject: str,
    assertions: Sequence[Assertion],
    now: datetime,
    aliases: Sequence[Alias] = (),
    policies: Mapping[str, PredicatePolicy] | None = None,
) -> MergePlan:
    """Pure plan for `alias merge`: nothing is written; `rewrites` are the full rows that changed."""
    now = require_aware(now)
    alias_rows = add_alias(from_subject, into_subject, aliases, now)
    canonical = alias_rows[0].canonical
    from_key, canonical_key = norm_name(from_subject), norm_name(canonical)
    moved = {row.id for row in assertions if row.subject_key == from_key}
    touched_predicates = sorted({row.predicate for row in assertions if row.id in moved})
    renamed = [replace(row, subject=canonical) if row.id in moved else row for row in assertions]
    originals = {row.id: row for row in assertions}
    changed: dict[str, Assertion] = {row.id: row for row in renamed if row.id in moved}
    current_ids: list[str] = []
    for predicate in touched_predicates:
        group = [row for row in renamed if row.subject_key == canonical_key and row.predicate == predicate]
        policy = group_policy(predicate, [row.metadata for row in group], policies)
        for row in recompute_chain(group, policy, now):
            if row != originals[row.id]:
                changed[row.id] = row
            if row.status == "current":
                current_ids.append(row.id)
    rewrites = tuple(
        replace(row, updated_at=now) for row_id, row in sorted(changed.items()) if row != originals[row_id]
    )
    return MergePlan(
        alias=from_subject.strip(),
        canonical=canonical,
        alias_upserts=tuple(alias_rows),
        rewrites=rewrites,
        assertions_rewritten=len(moved),
        predicates_recomputed=tuple(touched_predicates),
        current_ids=tuple(sorted(current_ids)),
    )


# ---- rows keyed before keys were NFC --------------------------------------------------------------------------

@dataclass(frozen=True)
class RespellPlan:
    """What `respell_plan` rewrites. Nothing is deleted: an alias key listed in `alias_keys_gone` is the same row
    written again under its NFC key (`aliases`), and an alias another spelling of its name displaced is kept whole in
    `aliases_displaced` for the audit."""

    assertions: tuple[Assertion, ...]
    merged_pairs: tuple[tuple[str, str], ...]
    aliases: tuple[dict[str, Any], ...]
    alias_keys_gone: tuple[str, ...]
    aliases_displaced: tuple[dict[str, Any], ...]


def respelled(row: Assertion) -> Assertion:
    """`row` spelled as a write today spells it (`parse_assertion`): subject, predicate and object name NFC."""
    return replace(row, subject=nfc(linked_name(row.subject)), predicate=normalise_predicate(row.predicate),
                   object_name=None if row.object_name is None else nfc(linked_name(row.object_name)))


def respell_plan(
    assertions: Sequence[Assertion],
    stored_keys: Mapping[str, tuple[str, str]],
    alias_rows: Sequence[Mapping[str, Any]],
    now: datetime,
    policies: Mapping[str, PredicatePolicy] | None = None,
) -> RespellPlan:
    """Pure plan for rows written before subjects, predicates and alias keys were NFC (migration m060).

    `stored_keys` is each assertion's (subject key, predicate) as stored. A row is rewritten under today's keys; where
    two stored spellings meet in one (subject, predicate), the pair is re-chained as one (`rechain`, as `alias merge`
    does): each value is superseded by the next to take effect, so of two values stated under two spellings the later
    is in force and the earlier is its history — a row is never dropped. Rows whose chain changed get `updated_at`
    `now`; a row only respelled keeps it (the claim did not change). Alias rows whose names now share a key become
    one row: the latest written (`updated_at`, else `created_at`) keeps the key."""
    now = require_aware(now)
    current = {row.id: respelled(row) for row in assertions}
    changed: dict[str, Assertion] = {}
    for row in assertions:
        new = current[row.id]
        if new != row or stored_keys.get(row.id, new.pair_key) != new.pair_key:
            changed[row.id] = new
    groups: dict[tuple[str, str], list[Assertion]] = {}
    spellings: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for row in current.values():
        groups.setdefault(row.pair_key, []).append(row)
        spellings.setdefault(row.pair_key, set()).add(stored_keys.get(row.id, row.pair_key))
    merged = sorted(key for key, seen in spellings.items() if len(seen) > 1)
    for key in merged:
        group = groups[key]
        policy = group_policy(key[1], [row.metadata for row in group], policies)
        for row in rechain(group, policy):
            if row != current[row.id]:
                changed[row.id] = replace(row, updated_at=now)
    aliases, gone, displaced = _respelled_aliases(alias_rows)
    return RespellPlan(tuple(changed[row_id] for row_id in sorted(changed)), tuple(merged), aliases, gone,
                       displaced)


def _respelled_aliases(rows: Sequence[Mapping[str, Any]]
                       ) -> tuple[tuple[dict[str, Any], ...], tuple[str, ...], tuple[dict[str, Any], ...]]:
    by_key: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        by_key.setdefault(norm_name(str(row["alias_name"])), []).append(row)
    write: list[dict[str, Any]] = []
    gone: list[str] = []
    displaced: list[dict[str, Any]] = []
    for key, group in sorted(by_key.items()):
        # the alias table keeps one row a key, and a later `alias add` of a name replaces its row: so does the later
        winner = max(group, key=lambda r: (str(r.get("updated_at") or r.get("created_at") or ""), r["alias_norm"]))
        canonical_key = norm_name(str(winner["canonical_name"]))
        if len(group) == 1 and winner["alias_norm"] == key and winner["canonical_norm"] == canonical_key:
            continue
        write.append({**winner, "alias_norm": key, "canonical_norm": canonical_key})
        gone.extend(r["alias_norm"] for r in group if r["alias_norm"] != key)
        displaced.extend(dict(r) for r in group
                         if r is not winner and norm_name(str(r["canonical_name"])) != canonical_key)
    return tuple(write), tuple(gone), tuple(displaced)
