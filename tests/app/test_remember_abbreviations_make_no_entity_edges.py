"""Latin and clock abbreviations ("e.g.", "i.e.", "a.m.", "U.S.") are no entities: read as a file "e" with the
extension "g", every memory that used one was linked to the last five others that did, whatever they were about."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities

ABBREVIATIONS = ["e.g.", "i.e.", "a.m.", "p.m.", "U.S."]


@pytest.mark.parametrize("abbreviation", ABBREVIATIONS)
def test_an_abbreviation_is_no_entity(abbreviation: str) -> None:
    assert extract_entities(f"Cache the tokens, {abbreviation} for an hour", known=lambda words: set()) == []


def test_file_names_are_still_entities() -> None:
    found = extract_entities("Build a.out from main.c, see x.py and docs/setup.md", known=lambda words: set())
    assert found == ["a.out", "main.c", "x.py", "docs/setup.md"]


def test_memories_sharing_only_an_abbreviation_are_not_linked(mem: Mnemon) -> None:
    first = mem.remember("Prefer small commits, e.g. one refactor per pull request", source="agent")
    second = mem.remember("The office plant needs water twice a week, e.g. Monday and Thursday", source="user")
    assert second["edges_created"]["entity"] == 0
    shown = mem.show(second["id"])
    assert shown["entities"] == []
    entity_edges = [e for e in shown["edges"] if e["edge_type"] == "entity"]
    assert entity_edges == []
    assert all(r["id"] != first["id"] for r in mem.related(second["id"], edge_type="entity")["related"])
