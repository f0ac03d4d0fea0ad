"""Aliases: canonical subjects, chain collapse, and the pure merge plan."""
from __future__ import annotations

import unicodedata
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

import pytest

from mnemon.core.errors import InvalidInput
from mnemon.core.world import Alias, Assertion, add_alias, canonical_subject, merge_plan, parse_assertion
from mnemon.core.world.aliases import respell_plan

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


# ── rows keyed before keys were NFC (migration m060) ─────────────────────────────────────────────────────────────
def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def legacy_key(name: str) -> str:
    """`norm_name` as it was before keys were NFC: whitespace and case folded, the spelling kept."""
    return " ".join(name.split()).casefold()


def test_respell_plan_merges_two_spellings_into_one_chain_by_time() -> None:
    lisbon = replace(row("José", "lives_in", "Lisbon", "2026-01-01"), id="a-nfc")
    porto = replace(row("José", "lives_in", "Porto", "2026-03-01"), id="a-nfd", subject=nfd("José"))
    club = replace(row("José", "member_of", "Café Society", "2026-02-01"), id="m-nfd", subject=nfd("José"),
                   object_name=nfd("Café Society"))
    club_again = replace(row("José", "member_of", "Café Society", "2026-04-01"), id="m-nfc")
    bob = replace(row("Bob", "lives_in", "Oslo", "2026-01-01"), id="bob")
    rows = [lisbon, porto, club, club_again, bob]
    keys = {r.id: (legacy_key(r.subject), r.predicate) for r in rows}

    plan = respell_plan(rows, keys, [], NOW)
    out = {r.id: r for r in plan.assertions}
    assert sorted(out) == ["a-nfc", "a-nfd", "m-nfc", "m-nfd"]  # bob's row is as a write today spells it
    assert {r.subject for r in out.values()} == {"José"} and out["m-nfd"].object_name == "Café Society"
    assert plan.merged_pairs == (("josé", "lives_in"), ("josé", "member_of"))
    # the earlier value is the later one's history: superseded from the instant the later took effect, nothing lost
    assert (out["a-nfc"].status, out["a-nfc"].superseded_by_id) == ("superseded", "a-nfd")
    assert out["a-nfc"].superseded_at == porto.starts_at and out["a-nfc"].updated_at == NOW
    assert (out["a-nfd"].status, out["a-nfd"].supersedes_id) == ("current", "a-nfc")
    assert (out["m-nfd"].status, out["m-nfd"].superseded_by_id) == ("superseded", "m-nfc")  # one object: one chain
    assert out["a-nfd"].created_at == porto.created_at


def test_respell_plan_rewrites_a_lone_spelling_without_touching_its_chain_and_is_idempotent() -> None:
    alone = replace(row("Zoë", "lives_in", "Rome", "2026-01-01"), id="z", subject=nfd("Zoë"))
    plan = respell_plan([alone], {"z": (legacy_key(alone.subject), "lives_in")}, [], NOW)
    assert plan.merged_pairs == () and [r.subject for r in plan.assertions] == ["Zoë"]
    assert plan.assertions[0].updated_at == alone.updated_at  # only its spelling changed, not the claim
    again = respell_plan(list(plan.assertions), {"z": ("zoë", "lives_in")}, [], NOW)
    assert again.assertions == () and again.aliases == ()


def test_respell_plan_rekeys_aliases_and_the_later_of_two_spellings_keeps_the_key() -> None:
    def alias(name: str, canonical: str, at: str) -> dict[str, Any]:
        return {"alias_norm": legacy_key(name), "alias_name": name, "canonical_name": canonical,
                "canonical_norm": legacy_key(canonical), "source": "manual", "confidence": 1.0, "created_at": at,
                "updated_at": at}
    old = alias(nfd("Zé"), nfd("José"), "2026-01-01T00:00:00+00:00")
    new = alias("Zé", "Joseph", "2026-02-01T00:00:00+00:00")
    mama = alias(nfd("Mamá"), "Ana", "2026-01-01T00:00:00+00:00")
    plain = alias("boss", "Ana", "2026-01-01T00:00:00+00:00")
    plan = respell_plan([], {}, [old, new, mama, plain], NOW)
    assert [(a["alias_norm"], a["canonical_name"]) for a in plan.aliases] == [("mamá", "Ana"), ("zé", "Joseph")]
    assert sorted(plan.alias_keys_gone) == sorted([legacy_key(nfd("Mamá")), legacy_key(nfd("Zé"))])
    assert plan.aliases_displaced == (old,)  # kept for the audit
