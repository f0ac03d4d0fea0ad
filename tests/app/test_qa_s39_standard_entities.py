"""A standard is named by its number: 'mnemon remember "Caching follows RFC 7234"' stored the entity RFC, and so did
"Dates are ISO 8601" (ISO) and "Type hints per PEP 484" (PEP), so every memory citing any RFC was linked to every other
one; "RFC-7231" was an entity of its own, apart from "RFC 7231"."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities


def test_memories_citing_two_rfcs_are_not_linked_and_one_rfc_links(mem: Mnemon) -> None:
    cache = mem.remember("Caching follows RFC 7234 for the CDN edge")
    auth = mem.remember("Bearer tokens per RFC 6750 in the gateway")
    again = mem.remember("RFC-7234 says a 304 keeps the stored headers")
    assert mem.show(cache["id"])["entities"] == ["RFC 7234"]
    links = {e["target_id"] if e["source_id"] == cache["id"] else e["source_id"]: e["metadata"]["entity"]
             for e in mem.show(cache["id"])["edges"] if e["edge_type"] == "entity"}
    assert auth["id"] not in links
    assert links.get(again["id"]) == "RFC 7234"


@pytest.mark.parametrize(("text", "expected"), [
    ("Dates are ISO 8601, hints per PEP 484 and PEP8", ["ISO 8601", "PEP 484", "PEP 8"]),
    ("RFC 9110 replaced RFC 7231", ["RFC 9110", "RFC 7231"]),
    ("an RFC draft, an ISO image, a PEP", []),
])
def test_a_standard_is_its_number(text: str, expected: list[str]) -> None:
    assert extract_entities(text) == expected
    assert extract_entities(text, known=lambda words: set()) == expected
