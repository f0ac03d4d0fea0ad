"""A note's front-matter properties are a section memory of their own, and every row of a note carries the note's
title in its keyword and embedding text. A question naming the note matched all its rows alike by that title, and
the properties section — a line or two of metadata, nearly all title to the embedder — won every such question:
`retrieve "who is Ada Quill"` answered "type: person" first, "why did we choose LoRA" "type: decision". Matched by
the note's name (or its `type`) alone, the properties now follow the note's prose; asked for a property, they
still answer first."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

PROPERTY_TEXTS = {"type: person", "type: decision", "type: project\nstatus: active"}


@pytest.fixture
def vault_mem(mem: Mnemon, example_vault: Path) -> Mnemon:
    mem.ingest(str(example_vault))
    return mem


def _texts(pack: dict) -> list[str]:
    return [str(item["text"]) for item in pack["items"] if item["item_type"] == "memory"]


@pytest.mark.parametrize(("prompt", "first_words"), [
    ("who is Ada Quill", "Lead engineer on [[Lighthouse]]"),
    ("why did we choose LoRA", None),
    ("sensor uplink decision", None),
])
def test_a_question_naming_a_note_gets_its_prose_before_its_properties(vault_mem: Mnemon, prompt: str,
                                                                       first_words: str | None) -> None:
    texts = _texts(vault_mem.retrieve(prompt))
    assert texts[0] not in PROPERTY_TEXTS
    if first_words:
        assert texts[0].startswith(first_words)


def test_recall_ranks_the_same_way(vault_mem: Mnemon) -> None:
    contents = [r["insight"]["content"] for r in vault_mem.recall("who is Ada Quill", limit=5)["results"]]
    lead = next(i for i, c in enumerate(contents) if c.startswith("Lead engineer on"))
    assert "type: person" not in contents[:lead]


def test_a_question_asking_for_a_property_still_gets_the_properties_first(vault_mem: Mnemon) -> None:
    texts = _texts(vault_mem.retrieve("what is the status of lighthouse"))
    assert texts[0] == "type: project\nstatus: active"
