"""A stop-listed word never becomes an entity because the store knows it: once one memory was given the entity "TODO"
(or "The", "Note", "Who") on purpose, every later memory starting "TODO:" was linked to it, and a question opening
"who" or "todo" anchored on every memory holding it. A name of several words starting with one ("The Beatles") and
the word given on purpose to its own memory stay."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities
from mnemon.core.text import STOPWORDS


def _anchors(out: dict[str, Any]) -> dict[str, Any]:
    return next(step for step in out["trace"] if step["stage"] == "anchors")


@pytest.mark.parametrize(("given_word", "later"), [
    ("TODO", "TODO: bump the Kafka client"),
    ("Note", "Note that the Kafka client needs a bump"),
    ("The", "The Kafka client needs a bump"),
    ("FYI", "FYI the Kafka client needs a bump"),
    ("urgent", "urgent: the Kafka client needs a bump"),
])
def test_a_stop_listed_word_known_from_a_given_entity_links_nothing(mem: Mnemon, given_word: str, later: str) -> None:
    first = mem.remember("rotate the SSH keys on the bastion", entities=[given_word])
    assert mem.show(first["id"])["entities"] == [given_word]  # given on purpose: kept on its memory
    out = mem.remember(later)
    assert mem.show(out["id"])["entities"] == ["Kafka"]
    assert out["edges_created"]["entity"] == 0


def test_a_question_never_anchors_on_a_stop_listed_word(mem: Mnemon) -> None:
    mem.remember("rotate the SSH keys on the bastion", entities=["TODO", "Who"])
    lead = mem.remember("Dana Reyes leads the platform team", entities=["Dana Reyes"])["id"]
    for query in ("who leads the platform team", "todo for the bastion", "Who is Dana Reyes"):
        anchors = _anchors(mem.recall(query, explain=True))
        assert not {"TODO", "Who", "todo", "who"} & set(anchors["entities"]), query
    assert _anchors(mem.recall("Who is Dana Reyes", explain=True))["signals"]["entity"] == [lead]


def test_a_name_of_several_words_starting_with_a_stopword_stays(mem: Mnemon) -> None:
    mem.remember("Listened to The Beatles all afternoon", entities=["The Beatles"])
    out = mem.remember("The Beatles recorded Abbey Road in 1969")
    assert "The Beatles" in mem.show(out["id"])["entities"]
    assert out["edges_created"]["entity"] == 1


@given(word=st.sampled_from(sorted(w for w in STOPWORDS if w.isascii() and "'" not in w)),
       case=st.sampled_from([str.lower, str.capitalize, str.upper]))
def test_no_stopword_is_admitted_as_known(word: str, case: Any) -> None:
    written = case(word)
    known = {word, word.capitalize(), word.upper()}
    assert extract_entities(f"{written} Kafka lag again", known=lambda cands: cands & known) == ["Kafka"]
