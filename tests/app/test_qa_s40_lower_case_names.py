"""A name the store knows, written in lower case where only a person can stand, is that name: after "Bob" was given
as an entity, 'mnemon remember "ask bob about the invoice export"' stored no entity and linked nothing to Bob's
memories. Only right after "ask", "with", "from", "told", "tell", "cc" or "ping", and only a name the store already
knows: a lower-case word elsewhere ("a bob haircut"), a stopword, a dictionary term that is also a word ("with
rust") or a name no memory gave stays a word, and no name is invented."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities
from mnemon.core.text import STOPWORDS


def _known(mem: Mnemon) -> None:
    mem.remember("Bob owns the invoice export job", entities=["Bob"])
    mem.remember("Alice runs the nightly billing reconciliation", entities=["Alice"])
    mem.remember("Rust rewrite of the parser is on hold", entities=["Rust"])


@pytest.mark.parametrize(("text", "names"), [
    ("ask bob about the invoice export", ["Bob"]),
    ("Asked bob why the export stalls", ["Bob"]),
    ("paired with alice on the reconciliation diff", ["Alice"]),
    ("heard from bob's team that the export is fixed", ["Bob"]),
    ("told alice the export is back", ["Alice"]),
    ("cc: alice, the export failed again", ["Alice"]),
    ("ping bob and alice about the export", ["Bob"]),
])
def test_a_known_name_in_lower_case_after_a_cue_is_that_name(mem: Mnemon, text: str, names: list[str]) -> None:
    _known(mem)
    out = mem.remember(text)
    assert mem.show(out["id"])["entities"] == names
    assert out["edges_created"]["entity"] == 1


@pytest.mark.parametrize("text", [
    "a bob haircut for the summer",  # no cue: a word
    "alice in the subject line means the export",  # no cue
    "ask carol about the export",  # no memory named Carol: no name is invented
    "working with rust on the parser",  # a dictionary term that is also a word stays the word
    "ask the team about the export",
])
def test_other_lower_case_words_stay_words(mem: Mnemon, text: str) -> None:
    _known(mem)
    out = mem.remember(text)
    assert mem.show(out["id"])["entities"] == []


def test_recall_finds_the_memory_naming_someone_in_lower_case(mem: Mnemon) -> None:
    _known(mem)
    asked = mem.remember("ask bob about the invoice export")["id"]
    out = mem.recall("what does Bob own", explain=True)
    anchors = next(step for step in out["trace"] if step["stage"] == "anchors")
    assert anchors["entities"] == ["Bob"] and asked in anchors["signals"]["entity"]


@given(cue=st.sampled_from(["ask", "with", "from", "told", "cc", "ping"]),
       word=st.sampled_from(sorted(w for w in STOPWORDS if w.isascii() and w.isalpha())))
def test_a_stopword_after_a_cue_is_never_a_name(cue: str, word: str) -> None:
    def known(cands: set[str]) -> Any:
        return {c for c in cands if c.lower() == word}
    assert extract_entities(f"{cue} {word} about the export", known=known) == []
