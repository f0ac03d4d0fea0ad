"""A name the store already knows is found in any spelling of its possessive: "Müller's report" names "Müller" as
"Miller's report" names "Miller", with a straight or a curly apostrophe, whatever letters the name is made of."""
from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities

NAMES = ("Miller", "Müller", "Élodie", "Øyvind", "Łukasz", "Zoë", "Ngô", "Ярослав", "Ödön", "O'Brien", "Jean-Luc")


def _known(*names: str) -> object:
    def known(candidates: set[str]) -> Iterable[str]:
        return candidates & set(names)
    return known


@pytest.mark.parametrize("name", [n for n in NAMES if not n.isascii() or "'" in n])
def test_a_known_name_is_found_in_its_possessive_as_miller_is(name: str) -> None:
    for apostrophe in ("'", "’"):
        for who in ("Miller", name):
            text = f"{who}{apostrophe}s report is late"
            assert extract_entities(text, known=_known(who)) == [who], text  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["Müller", "Élodie", "Łukasz"])
def test_a_known_accented_name_written_in_lower_case_is_a_candidate(name: str) -> None:
    # recall capitalises a query's candidates before the lookup ("who is müller" → "Müller"): the lower-case word
    # must be one, as an ASCII word is
    seen: set[str] = set()

    def record(candidates: set[str]) -> Iterable[str]:
        seen.update(candidates)
        return ()
    extract_entities(f"what did {name.lower()}'s team ship", known=record)
    assert name.lower() in seen


def test_a_curly_apostrophe_joins_a_name_as_a_straight_one_does() -> None:
    assert extract_entities("O’Brien’s plan", known=_known("O’Brien")) == ["O’Brien"]  # type: ignore[arg-type]
    assert extract_entities("O'Brien's plan", known=_known("O'Brien")) == ["O'Brien"]  # type: ignore[arg-type]


@settings(max_examples=80, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    apostrophe=st.sampled_from(["'", "’"]),
    before=st.sampled_from(["", "Yesterday ", "We read ", "(", "«"]),
    after=st.sampled_from([" report", " team shipped it.", "!", " — late again"]),
)
def test_a_possessive_names_exactly_the_known_name(name: str, apostrophe: str, before: str, after: str) -> None:
    text = f"{before}{name}{apostrophe}s{after}"
    assert extract_entities(text, known=_known(name, "Report", "Team")) == [name]  # type: ignore[arg-type]


def test_remember_and_recall_see_the_accented_name_in_its_possessive(mem: Mnemon) -> None:
    owner = mem.remember("Müller owns the billing service", entities=["Müller"], created_at="2026-11-01T09:00:00Z")
    report = mem.remember("Müller's report on churn is due Friday", created_at="2026-11-02T09:00:00Z")
    curly = mem.remember("Müller’s draft needs a second reviewer", created_at="2026-11-03T09:00:00Z")
    assert mem.show(report["id"])["entities"] == ["Müller"] and report["edges_created"]["entity"] >= 1
    assert mem.show(curly["id"])["entities"] == ["Müller"]
    signals = {r["insight"]["id"]: r["signals"] for r in mem.recall("Who wrote Müller's report?", limit=5)["results"]}
    assert signals[owner["id"]]["entity"] == 1.0  # the query names Müller: the owner holds that entity
