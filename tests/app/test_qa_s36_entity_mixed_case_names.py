"""A known name of several words whose words are cased unlike a title ("AWS Lambda", "GitHub Actions", "SAP HANA")
is the same entity written in lower case, in capitals or as a title: "talked to mira about aws lambda cold starts",
"Talked to Mira about Aws Lambda" and "AWS LAMBDA is gone" held no "AWS Lambda" and linked to none of its holders
(the other spellings asked for were only the title, each word capitalised and all lower case). Each word is also
asked for in capitals when it is short (≤ 4 letters, an acronym's length) and as the dictionary spells it."""
from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities

KNOWN = ["AWS Lambda", "GitHub Actions", "SAP HANA", "Google Cloud Run", "Ana Lima"]


@given(name=st.sampled_from(KNOWN), case=st.sampled_from([str.lower, str.upper, str.title, lambda s: s]),
       sentence=st.sampled_from(["{} timed out", "we moved billing to {} today", "ask about {}, then ship"]))
def test_a_known_name_with_capitals_inside_is_found_in_any_case(name: str, case: Callable[[str], str],
                                                                sentence: str) -> None:
    text = sentence.format(case(name))
    assert name in extract_entities(text, known=lambda cands: cands & set(KNOWN)), text


@pytest.mark.parametrize("text", ["talked to ana about aws lambda cold starts",
                                  "Talked to Ana about Aws Lambda cold starts",
                                  "AWS LAMBDA WAS SLOW AGAIN"])
def test_remember_links_a_later_spelling_to_the_known_name(mem: Mnemon, text: str) -> None:
    first = mem.remember("Ana reviewed the AWS Lambda rollout", entities=["AWS Lambda"])
    out = mem.remember(text)
    assert "AWS Lambda" in mem.show(out["id"])["entities"]
    assert first["id"] in [r["id"] for r in mem.related(out["id"], depth=1, edge_type="entity")["related"]]


def test_an_import_finds_the_known_name_as_a_single_remember_does(mem: Mnemon) -> None:
    items = [{"content": "Ana reviewed the AWS Lambda rollout", "entities": ["AWS Lambda"],
              "created_at": "2026-01-01T09:00:00Z"},
             {"content": "the aws lambda bill doubled", "created_at": "2026-01-02T09:00:00Z"}]
    assert mem.import_json({"schema_version": "1", "insights": items})["imported"] == 2
    held = {m["content"]: m["entities"] for m in mem.export_json(include_vectors=False)["insights"]}
    assert held["the aws lambda bill doubled"] == ["AWS Lambda"]


def test_ordinary_words_stay_words() -> None:
    known = {"AWS Lambda", "Mark", "REST"}
    assert extract_entities("mark the rest as done with the new lambda", known=lambda c: c & known) == []
