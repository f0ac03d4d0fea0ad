"""A name that is also an everyday word, written in lower case in a question, is the word: after "Mark" was given as
an entity, 'mnemon recall "which tickets will we mark as done"' anchored on Mark and ranked his unrelated memories
above the one about marking tickets (recall asked for every lower-case word of a question capitalised). Such a word
is a name only when the question gives a reason: capitalised as typed, right after a name cue ("ask mark", "who is
mark") or possessive ("mark's"). A lower-case name that is no everyday word ("athena") still anchors."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.entities import NAMES_ALSO_WORDS, name_parts, names_in_query


def _anchors(out: dict[str, Any]) -> dict[str, Any]:
    return next(step for step in out["trace"] if step["stage"] == "anchors")


def _entities(mem: Mnemon, query: str) -> list[str]:
    return list(_anchors(mem.recall(query, explain=True))["entities"])


def test_a_verb_that_is_a_name_does_not_rank_the_person_first(mem: Mnemon) -> None:
    mem.remember("Mark owns the quarterly planning doc", entities=["Mark"])
    mem.remember("Mark is on holiday until the 20th", entities=["Mark"])
    wanted = mem.remember("Tickets get closed once QA signs off on them")["id"]
    mem.remember("We mark tickets as done only after the deploy reaches production")
    out = mem.recall("which tickets will we mark as done", explain=True)
    assert _anchors(out)["entities"] == []
    assert all(r["signals"]["entity"] == 0.0 for r in out["results"])
    top = [r["insight"]["content"] for r in out["results"][:2]]
    assert not any(t.startswith("Mark ") for t in top) and wanted in [r["insight"]["id"] for r in out["results"][:2]]


@pytest.mark.parametrize(("name", "query"), [
    ("Will", "will the deploy finish before the freeze"),
    ("Bill", "which bill did we pay late"),
    ("June", "what did we ship in june"),
    ("May", "we may need another replica"),
    ("Grant", "grant the auditors read access"),
    ("Frank", "frank feedback on the design review"),
    ("Pat", "pat the build on the back"),
    ("Bob", "the float will bob up and down"),
    ("Rose", "error rate rose after the deploy"),
    ("Summer", "the summer traffic peak"),
])
def test_everyday_words_in_lower_case_are_no_names(mem: Mnemon, name: str, query: str) -> None:
    mem.remember(f"{name} reviews the infrastructure budget", entities=[name])
    assert _entities(mem, query) == []


@pytest.mark.parametrize("query", [
    "what did Mark say about the tickets",  # capitalised as typed
    "ask mark about the tickets",  # after a name cue
    "who is mark",
    "who's mark",
    "what is on mark's plate",  # possessive
])
def test_the_question_gives_a_reason_to_read_the_word_as_a_name(mem: Mnemon, query: str) -> None:
    mem.remember("Mark owns the quarterly planning doc", entities=["Mark"])
    assert _entities(mem, query) == ["Mark"]


@pytest.mark.parametrize(("name", "query"), [
    ("Athena", "what is the status of athena"),
    ("Lighthouse", "who owns lighthouse"),  # a word, but no name: a project's lower-case name keeps anchoring
    ("Mira", "what does mira own"),
])
def test_a_lower_case_name_that_is_no_everyday_name_word_still_anchors(mem: Mnemon, name: str, query: str) -> None:
    mem.remember(f"{name} is the codename of the search rewrite", entities=[name])
    assert _entities(mem, query) == [name]


def test_a_full_name_is_not_asked_about_by_its_first_name_used_as_a_word(mem: Mnemon) -> None:
    mem.remember("Mark Chen owns the quarterly planning doc", entities=["Mark Chen"])
    names = _anchors(mem.recall("which tickets will we mark as done", explain=True)).get("entity_names")
    assert names is None
    named = _anchors(mem.recall("who is mark", explain=True))["entity_names"]
    assert named == {"whole": [], "partial": {"mark": ["mark chen"]}}


PEOPLE = name_parts([f"{w.capitalize()} Chen" for w in sorted(NAMES_ALSO_WORDS)])


@given(word=st.sampled_from(sorted(NAMES_ALSO_WORDS)),
       cue=st.sampled_from(["ask", "with", "from", "told", "cc", "ping", "who is", "who's"]))
def test_an_everyday_word_names_someone_only_with_a_reason(word: str, cue: str) -> None:
    assert names_in_query(f"we should {word} the tickets today", PEOPLE).partial == ()
    asked = (word, (f"{word} chen",))
    assert names_in_query(f"{cue} {word} about the tickets", PEOPLE).partial == (asked,)
    assert names_in_query(f"the tickets on {word}'s board", PEOPLE).partial == (asked,)
    assert names_in_query(f"what did {word.capitalize()} do", PEOPLE).partial == (asked,)
