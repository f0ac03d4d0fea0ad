"""Session 40's QA of `mnemon serve` against web pages on other origins. A page anywhere could call the local API
with requests a browser sends without a preflight: `<img src="http://127.0.0.1:8765/api/recall?query=…">` ran the
recall, which counts an access on each hit and writes a log entry (raising those memories in later rankings and
keeping them from auto-pruning), though no page may call it. Browsers say where a request comes from in
`Sec-Fetch-Site` (sent to loopback addresses too); the API refuses every request another origin made."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.interfaces.http.server import Api

HOST = {"host": "127.0.0.1:8765"}
JSON = {**HOST, "content-type": "application/json"}


@pytest.mark.parametrize("site", ["cross-site", "same-site", "Cross-Site"])
def test_a_read_from_another_origin_is_refused_and_records_nothing(mem, site: str) -> None:
    mem.remember("The staging password rotates on Fridays")
    api = Api(lambda: mem, allow_writes=True)
    before = mem.log(limit=100)["entries"]
    reply = api.handle("GET", "/api/recall?query=staging+password", {**HOST, "sec-fetch-site": site}, b"")
    assert reply.status == 403, reply.body
    assert json.loads(reply.body)["error"]["code"] == "forbidden_origin"
    assert mem.log(limit=100)["entries"] == before


def test_a_write_from_another_origin_is_refused_and_stores_nothing(mem) -> None:
    api = Api(lambda: mem, allow_writes=True)
    reply = api.handle("POST", "/api/remember", {**JSON, "sec-fetch-site": "cross-site"},
                       json.dumps({"content": "planted by a web page"}).encode())
    assert reply.status == 403 and json.loads(reply.body)["error"]["code"] == "forbidden_origin"
    assert mem.status()["total_insights"] == 0


@pytest.mark.parametrize("headers", [HOST, {**HOST, "sec-fetch-site": "same-origin"},
                                     {**HOST, "sec-fetch-site": "none"}])
def test_the_workbench_a_script_and_an_address_typed_in_are_answered(mem, headers: dict[str, str]) -> None:
    """The workbench's own calls (same-origin), a person typing the API's address (none), a client that is no
    browser (no header) are answered as before."""
    mem.remember("The staging password rotates on Fridays")
    reply = Api(lambda: mem).handle("GET", "/api/recall?query=staging", headers, b"")
    assert reply.status == 200 and json.loads(reply.body)["results"]


def test_a_link_from_another_site_still_opens_the_workbench(mem) -> None:
    """The page itself changes nothing: following a link to it from elsewhere opens it."""
    reply = Api(lambda: mem).handle("GET", "/", {**HOST, "sec-fetch-site": "cross-site"}, b"")
    assert reply.status == 200 and reply.content_type.startswith("text/html")


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=20).filter(lambda s: s.strip(" \t").lower() not in ("same-origin", "none")))
def test_any_other_word_for_the_site_is_refused(site: str) -> None:
    """Only the values that say the request is the server's own (or a person's) pass: an unknown one is refused."""
    reply = Api(lambda: None).handle("GET", "/api/status", {**HOST, "sec-fetch-site": site}, b"")
    assert reply.status == 403 and json.loads(reply.body)["error"]["code"] == "forbidden_origin"
