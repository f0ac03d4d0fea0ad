"""A status code was an entity only after "HTTP" in capitals: 'mnemon remember "got a http 502 from nginx"' stored no
entity, so it never linked to "HTTP 502 from the gateway". Written in any case, the code is named one way."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities


@pytest.mark.parametrize(("text", "named"), [("got a http 502 from nginx", "HTTP 502"),
                                             ("an Http 429 again", "HTTP 429"), ("the https 503 page", "HTTP 503")])
def test_a_status_code_in_any_case_is_named_alike(text: str, named: str) -> None:
    assert extract_entities(text) == [named]


def test_no_code_is_read_out_of_an_address_or_a_protocol_name() -> None:
    assert extract_entities("http2 push and https://x.io/500 pages") == ["https://x.io/500"]


def test_memories_about_one_code_link_whatever_its_case(mem: Mnemon) -> None:
    gateway = mem.remember("HTTP 502 from the gateway when the upstream pod restarts")
    nginx = mem.remember("got a http 502 from nginx after the deploy")
    edges = [e for e in mem.show(nginx["id"])["edges"] if e["edge_type"] == "entity"]
    # (an entity link is written both ways)
    assert {e["metadata"]["entity"] for e in edges if gateway["id"] in (e["source_id"], e["target_id"])} == {"HTTP 502"}
