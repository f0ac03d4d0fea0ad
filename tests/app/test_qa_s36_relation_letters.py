"""A relation name lost every letter outside ASCII: a resolve claim "situé à" became the relation and belief predicate
`situ` (the pack read "[[Acme]] situ [[Lisbon]]"), "wohnt in Köln" `wohnt_in_k_ln`, and a predicate in Japanese
("所在地") was refused for having no letters. A relation name keeps its letters in any script (NFC, case-folded),
still one token: whatever is not a letter, mark or digit is one `_` between words."""
from __future__ import annotations

import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.claim_beliefs import predicate_name

from conftest import FakeClock


def _claim(predicate: str) -> dict[str, object]:
    return {"subject": "Acme", "predicate": predicate, "object": "Lisbon", "confidence": 0.95,
            "certainty": "confirmed", "source_type": "email", "evidence": "The lease names Lisbon."}


def test_a_claim_keeps_the_accented_letters_of_its_relation(world: tuple[Mnemon, FakeClock], tmp_path: Path) -> None:
    mem, _ = world
    out = mem.resolve(str(tmp_path), {"slug": "hq", "title": "HQ", "claims": [_claim("Situé à")]})
    [edge] = out["edges"]
    [belief] = out["assertions"]
    assert edge["predicate"] == belief["predicate"] == "situé_à"
    assert "[[Acme]] situé à [[Lisbon]]" in (tmp_path / out["note_path"]).read_text(encoding="utf-8")
    # the decomposed spelling (macOS) is the same relation: one edge, the same belief
    again = mem.resolve(str(tmp_path), {"slug": "hq", "title": "HQ",
                                        "claims": [_claim(unicodedata.normalize("NFD", "Situé à"))]})
    assert again["edges"][0]["id"] == edge["id"] and again["assertions"][0]["id"] == belief["id"]


def test_a_relation_in_another_script_is_a_relation(world: tuple[Mnemon, FakeClock], tmp_path: Path) -> None:
    mem, _ = world
    [edge] = mem.resolve(str(tmp_path), {"slug": "hq", "title": "HQ", "claims": [_claim("所在地")]})["edges"]
    assert edge["predicate"] == "所在地"
    [payload_edge] = mem.remember_payload({
        "source_path": "mneme://agent/köln", "nodes": [{"ref": "ana"}, {"ref": "köln"}],
        "edges": [{"src": "ana", "dst": "köln", "relation": "Wohnt in", "confidence": 0.95}]})["edges"]
    assert payload_edge["relation"] == "wohnt_in"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_a_relation_name_is_one_token_of_the_same_letters(text: str) -> None:
    name = predicate_name(text)
    assert unicodedata.is_normalized("NFC", name)
    assert predicate_name(name) == name
    assert not name.startswith("_") and not name.endswith("_") and "__" not in name
    assert all(c == "_" or unicodedata.category(c)[0] in "LMN" for c in name)
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())
    assert name.replace("_", "") == "".join(c for c in folded if unicodedata.category(c)[0] in "LMN")


def test_ascii_relation_names_are_spelt_as_before() -> None:
    assert predicate_name(" Located In ") == "located_in"
    assert predicate_name("located-in") == "located_in"
    assert predicate_name("attends_activity") == "attends_activity"
    assert predicate_name("!!!") == ""
