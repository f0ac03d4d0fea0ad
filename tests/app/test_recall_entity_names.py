"""An ENTITY question naming someone in part ("who is Mira") finds the memories of the full-named entity ("Mira
Chen"): the store knows entities by their whole name, so a first name alone matched none of them."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from mnemon.core.entities import name_parts


def _signals(out: dict[str, Any]) -> dict[str, dict[str, float]]:
    return {r["insight"]["id"]: r["signals"] for r in out["results"]}


def _anchors(out: dict[str, Any]) -> dict[str, Any]:
    return next(step for step in out["trace"] if step["stage"] == "anchors")


def _people(mem: Any) -> tuple[str, str, str]:
    lead = mem.remember("Mira Chen leads the platform team and owns the deploy pipeline", entities=["Mira Chen"])
    rota = mem.remember("Approved the new on-call rotation for the platform team", entities=["Mira Chen"])
    other = mem.remember("Miranda Lopez runs the design reviews on Thursdays", entities=["Miranda Lopez"])
    mem.remember("Lunch on Friday is pizza")
    return lead["id"], rota["id"], other["id"]


def test_a_first_name_finds_the_memories_of_the_full_name(mem: Any) -> None:
    lead, rota, other = _people(mem)
    for query in ("who is Mira", "who is mira", "Who is Mira?"):
        out = mem.recall(query, explain=True)
        assert out["meta"]["intent"] == "ENTITY"
        signals = _signals(out)
        # the rotation memory does not say "Mira": only the entity finds it
        assert signals[lead]["entity"] == signals[rota]["entity"] == 1.0, query
        assert set(_anchors(out)["signals"]["entity"]) == {lead, rota}
        assert _anchors(out)["entity_names"] == {"whole": [], "partial": {"mira": ["mira chen"]}}
        assert signals.get(other, {"entity": 0.0})["entity"] == 0.0  # Mira is not Miranda
        assert {r["insight"]["id"] for r in out["results"][:2]} == {lead, rota}


def test_a_full_name_in_the_question_is_one_entity(mem: Any) -> None:
    lead, rota, _ = _people(mem)
    out = mem.recall("what does Mira Chen own", explain=True)
    signals = _signals(out)
    assert signals[lead]["entity"] == signals[rota]["entity"] == 1.0
    assert _anchors(out)["entity_names"] == {"whole": ["mira chen"], "partial": {}}


def test_a_longer_first_name_does_not_match_a_shorter_one(mem: Any) -> None:
    lead, rota, other = _people(mem)
    out = mem.recall("who is Miranda", explain=True)
    signals = _signals(out)
    assert signals[other]["entity"] == 1.0
    assert all(signals.get(i, {"entity": 0.0})["entity"] == 0.0 for i in (lead, rota))
    assert set(_anchors(out)["signals"]["entity"]) == {other}


def test_a_first_name_that_is_an_entity_too_counts_once(mem: Any) -> None:
    lead, rota, _ = _people(mem)
    own = mem.remember("Mira reviewed the quarterly budget", entities=["Mira"])["id"]
    out = mem.recall("who is Mira", explain=True)
    signals = _signals(out)
    # "Mira" asks about Mira or Mira Chen: each holder of either matches the one entity asked about, in full
    assert signals[own]["entity"] == signals[lead]["entity"] == signals[rota]["entity"] == 1.0
    assert set(_anchors(out)["signals"]["entity"]) == {own, lead, rota}


def test_a_query_naming_no_one_is_unchanged(mem: Any) -> None:
    _people(mem)
    out = mem.recall("what does the platform team own", explain=True)
    assert "entity_names" not in _anchors(out)
    assert all(r["signals"]["entity"] == 0.0 for r in out["results"])


@settings(max_examples=60, deadline=None)
@given(vocab=st.lists(st.sampled_from(["Mira Chen", "Mira Patel", "Chen Wu", "Kafka", "Ana Lopez", "ana lopez",
                                       "Node.js", "Bo Li", "Li Na", "Mira"]), max_size=12),
       cuts=st.lists(st.integers(0, 12), max_size=4), other=st.booleans())
def test_the_name_index_grown_with_the_vocabulary_is_the_one_built_whole(vocab: list[str], cuts: list[int],
                                                                         other: bool) -> None:
    """A store's entity vocabulary only grows between snapshots; the index is extended, never rebuilt — and a
    vocabulary that is not the one read before (a rebuilt graph) starts over."""
    from mnemon.app import recall_names as recall

    path = f"store-{id(vocab)}"
    recall.NAME_PARTS_CACHE.pop(path, None)
    for cut in [*sorted(cuts), len(vocab)]:
        assert recall.name_parts_of(path, vocab[:cut]) == name_parts(vocab[:cut])
    if other:
        rebuilt = ["Zed Quinn", *vocab[:3]]
        assert recall.name_parts_of(path, rebuilt) == name_parts(rebuilt)
    recall.NAME_PARTS_CACHE.pop(path, None)


def test_a_rebuilt_vocabulary_holding_the_last_name_read_at_its_place_is_read_whole() -> None:
    from mnemon.app import recall_names

    path = "store-rebuilt-same-last"
    recall_names.NAME_PARTS_CACHE.pop(path, None)
    recall_names.name_parts_of(path, ["Ana Lopez", "Mira Chen"])
    rebuilt = ["Zed Quinn", "Mira Chen", "Bo Li"]  # "Mira Chen" again second: once taken for the same vocabulary
    assert recall_names.name_parts_of(path, rebuilt) == name_parts(rebuilt)
    recall_names.NAME_PARTS_CACHE.pop(path, None)
