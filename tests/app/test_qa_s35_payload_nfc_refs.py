"""A scoped payload's node refs are compared as one Unicode form (NFC), as the rest of the product compares names:
a node "José" typed precomposed and an edge whose `src` says "José" decomposed (as macOS file names and some
keyboards give it) was refused ("not a node of this payload"), and two refs differing only in form were two nodes
that read the same."""
from __future__ import annotations

import unicodedata

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

from conftest import FakeClock

NFC = unicodedata.normalize("NFC", "José")
NFD = unicodedata.normalize("NFD", "José")


def test_an_edge_names_a_node_in_the_other_unicode_form(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    assert NFC != NFD
    out = mem.remember_payload({"source_path": "mneme://agent/people", "nodes": [{"ref": NFC}, {"ref": "Acme"}],
                                "edges": [{"src": NFD, "dst": "Acme", "relation": "works_at"}],
                                "observations": [{"node": NFD, "text": "José signed the contract"}]})
    [edge] = [e for e in out["edges"] if e["relation"] == "works_at"]
    assert edge["src"] == f"mneme://agent/people#{NFC}"
    assert [n["ref"] for n in out["nodes"]] == [NFC, "Acme"]


def test_two_refs_differing_only_in_unicode_form_are_one_node(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    with pytest.raises(InvalidInput, match="duplicate ref"):
        mem.remember_payload({"source_path": "mneme://agent/people", "nodes": [{"ref": NFC}, {"ref": NFD}]})
