"""A product named with its version glued on is the product: 'mnemon recall "python 3.11"' put "Python 3.12 dropped
distutils" first over "Runs on python3.11", since "Python 3.12" named the entity Python and "python3.11" named none.
The version is no part of the entity (a memory about Python 3.12 is about Python), written apart or glued on."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities


@pytest.mark.parametrize(("text", "entities"), [
    ("Runs on Python3.11", ["Python"]),
    ("Runs on Python 3.11", ["Python"]),
    ("Bumped Go1.22 in the toolchain", ["Go"]),
    ("Compiled with C++17 flags", ["C++"]),
    ("Image is Redis7.2 on the host", ["Redis"]),
    ("Python3.11-slim is the base image", ["Python"]),
    ("Neo4j holds the graph", ["Neo4j"]),  # a term with a digit inside stays whole
    ("PythonX and Python3x name no term", []),
    ("Python3.11.x is no version", []),
])
def test_a_term_glued_to_its_version_is_the_term(text: str, entities: list[str]) -> None:
    assert extract_entities(text) == entities


def test_a_known_term_in_lower_case_glued_to_its_version_is_the_term() -> None:
    def known(cands: set[str]) -> set[str]:
        return cands & {"Python"}
    assert extract_entities("Runs on python3.11", known=known) == ["Python"]
    assert extract_entities("Runs on python 3.11", known=known) == ["Python"]
    assert extract_entities("Runs on python3.11", known=lambda cands: set()) == []  # nothing invented


def test_recall_of_a_version_finds_it_however_glued(mem: Mnemon) -> None:
    other = mem.remember("Python 3.12 dropped distutils")["id"]
    mem.remember("The dashboard loads slowly on Mondays")
    glued = mem.remember("Runs on python3.11")["id"]
    mem.remember("Lunch on Friday is pizza")
    assert mem.show(glued)["entities"] == ["Python"]
    out = mem.recall("python 3.11")
    ids = [r["insight"]["id"] for r in out["results"]]
    assert ids.index(glued) < ids.index(other)
