"""A common technical acronym names no thing: 'mnemon remember "HTTP 502 from the gateway"', then "HTTP 429 rate limit
on the billing API" and "HTTP 426 upgrade required" were all linked to each other through the entity HTTP, and
"Reviewed PR #734" stored the entity PR. What such a word qualifies is the name: a status code, a pull request."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.entities import GENERIC_ACRONYMS, TECH_TERMS, extract_entities


def _entity_links(mem: Mnemon, node_id: str) -> dict[str, str]:
    return {e["target_id"] if e["source_id"] == node_id else e["source_id"]: e["metadata"]["entity"]
            for e in mem.show(node_id)["edges"] if e["edge_type"] == "entity"}


def test_status_codes_link_only_memories_about_the_same_code(mem: Mnemon) -> None:
    gateway = mem.remember("HTTP 502 from the gateway when the upstream pod restarts")
    limit = mem.remember("HTTP 429 rate limit on the billing API")
    upgrade = mem.remember("HTTP 426 upgrade required from the websocket proxy")
    again = mem.remember("Another HTTP 502: nginx could not reach the upstream")
    assert mem.show(gateway["id"])["entities"] == ["HTTP 502"]
    assert "HTTP" not in mem.show(limit["id"])["entities"] and "API" not in mem.show(limit["id"])["entities"]
    links = _entity_links(mem, gateway["id"])
    assert limit["id"] not in links and upgrade["id"] not in links
    assert links.get(again["id"]) == "HTTP 502"


def test_a_pull_request_is_named_by_its_number(mem: Mnemon) -> None:
    review = mem.remember("Reviewed PR #734 for the CI pipeline")
    other = mem.remember("PR #801 bumps the CI runner image")
    merged = mem.remember("Merged PR 734 after the second approval")
    assert mem.show(review["id"])["entities"] == ["PR #734"]
    links = _entity_links(mem, review["id"])
    assert other["id"] not in links
    assert links.get(merged["id"]) == "PR #734"


def test_a_generic_acronym_an_older_store_holds_is_not_admitted_as_known(mem: Mnemon) -> None:
    mem.remember("the gateway speaks HTTP", entities=["HTTP"])  # HTTP is now a known entity
    assert "HTTP" not in mem.show(mem.remember("HTTP keep-alive is off on the gateway")["id"])["entities"]


@pytest.mark.parametrize(("text", "expected"), [
    ("the JSON API returns a URL over HTTPS, SQL via CLI", []),
    ("We moved the API to AWS and GCP", ["AWS", "GCP"]),
    ("NASA and the SRE team", ["NASA", "SRE"]),
    ("the CI job on GKE failed with HTTP 503", ["GKE", "HTTP 503"]),
    ("curl said HTTP/1.1 200 OK; HTTP 2 is off", []),  # a version is no status code
    ("the SDK for S3 on the GPU box", []),
])
def test_generic_acronyms_are_no_entities_and_names_stay(text: str, expected: list[str]) -> None:
    assert extract_entities(text) == expected
    assert extract_entities(text, known=lambda words: set(words) & GENERIC_ACRONYMS) == expected


def test_the_generic_list_and_the_dictionary_do_not_disagree() -> None:
    assert not GENERIC_ACRONYMS & TECH_TERMS
    assert all(word.isupper() for word in GENERIC_ACRONYMS)
