"""Aliases: canonical subjects, chain collapse, and the pure merge plan."""
from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

import pytest

from mnemon.core.errors import InvalidInput
from mnemon.core.world import Alias, Assertion, add_alias, canonical_subject, merge_plan, parse_assertion

UTC = timezone.utc
NOW = datetime(2026, 7, 1, tzinfo=UTC)


def row(subject: str, predicate: str, obj: str, valid_from: str, **extra: Any) -> Assertion:
    return parse_assertion({"subject": subject, "predicate": predicate, "object": obj, "confidence": 0.95,
                            "certainty": "confirmed", "evidence": "lease", "source_path": "Sources/flat.md",
                            "valid_from": valid_from, **extra}, NOW)


def test_canonical_subject_is_case_and_space_insensitive() -> None:
    aliases = [Alias("the landlord", "St James")]
    assert canonical_subject("The   Landlord", aliases) == "St James"
    assert canonical_subject("  Someone Else ", aliases) == "Someone Else"
    assert canonical_subject("the landlord", {"the landlord": "St James"}) == "St James"


def test_canonical_subject_survives_chains_and_cycles() -> None:
    assert canonical_subject("a", [Alias("a", "b"), Alias("b", "c")]) == "c"
    assert canonical_subject("a", [Alias("a", "b"), Alias("b", "a")]) in {"a", "b"}


def test_add_alias_rejects_self_and_empty() -> None:
    with pytest.raises(InvalidInput, match="alias of itself"):
        add_alias("St James", "st  james", [], NOW)
    with pytest.raises(InvalidInput, match="non-empty"):
        add_alias(" ", "St James", [], NOW)
    with pytest.raises(InvalidInput, match="alias of itself"):
        add_alias("b", "a", [Alias("a", "b")], NOW)


def test_add_alias_collapses_chains_in_both_directions() -> None:
    existing = [Alias("landlord", "James")]
    rows = add_alias("James", "St James", existing, NOW)
    assert {(r.alias, r.canonical) for r in rows} == {("James", "St James"), ("landlord", "St James")}
    through = add_alias("the owner", "landlord", existing, NOW)
    assert [(r.alias, r.canonical) for r in through] == [("the owner", "James")]


def test_merge_plan_rewrites_subjects_and_recomputes_current_pointers() -> None:
    old_phone = row("the landlord", "phone_number", "0700 111", "2026-01-01", object_type="value")
    new_phone = row("St James", "phone_number", "0700 222", "2026-05-01", object_type="value")
    club_a = row("the landlord", "member_of", "Rotary", "2026-02-01")
    club_b = row("St James", "member_of", "Chamber", "2026-03-01")
    other = row("Bob", "phone_number", "0700 999", "2026-01-01", object_type="value")
    before = [r.to_row() for r in (old_phone, new_phone, club_a, club_b, other)]

    plan = merge_plan("the landlord", "St James", [old_phone, new_phone, club_a, club_b, other], NOW)

    assert [r.to_row() for r in (old_phone, new_phone, club_a, club_b, other)] == before  # pure
    assert plan.canonical == "St James" and plan.assertions_rewritten == 2
    assert plan.predicates_recomputed == ("member_of", "phone_number")
    rewritten = {r.id: r for r in plan.rewrites}
    assert rewritten[old_phone.id].subject == "St James"
    assert rewritten[old_phone.id].status == "superseded"
    assert rewritten[old_phone.id].superseded_by_id == new_phone.id
    assert rewritten[new_phone.id].supersedes_id == old_phone.id
    assert rewritten[club_a.id].status == "current"  # memberships coexist after the merge
    assert set(plan.current_ids) == {new_phone.id, club_a.id, club_b.id}
    assert other.id not in rewritten
    assert plan.to_dict(dry_run=True)["assertions_rewritten"] == 2
    assert [(a.alias, a.canonical) for a in plan.alias_upserts] == [("the landlord", "St James")]


def test_merge_keeps_retractions_and_the_latest_value_wins() -> None:
    newer = row("the landlord", "lives_in", "Leeds", "2026-06-01")
    older = row("St James", "lives_in", "York", "2026-01-01")
    wrong = parse_assertion({"subject": "the landlord", "predicate": "lives_in", "object": "Hull", "confidence": 0.9,
                             "certainty": "confirmed", "evidence": "x", "source_path": "s"}, NOW)
    wrong = replace(wrong, status="retracted")
    plan = merge_plan("the landlord", "St James", [newer, older, wrong], NOW)
    rewritten = {r.id: r for r in plan.rewrites}
    assert plan.current_ids == (newer.id,)
    assert rewritten[older.id].status == "superseded"
    assert rewritten[wrong.id].status == "retracted" and rewritten[wrong.id].subject == "St James"


def test_merge_into_itself_is_refused() -> None:
    with pytest.raises(InvalidInput):
        merge_plan("St James", "st james", [], NOW)
