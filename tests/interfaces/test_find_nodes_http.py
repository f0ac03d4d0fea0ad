"""`find_nodes` over HTTP: the workbench's search by title, a read-only operation of the shared table."""
from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from mnemon.interfaces.http.server import Api, make_server

Call = Callable[..., tuple[int, Any]]


@pytest.fixture
def call(mem, example_vault: Path) -> Iterator[Call]:
    """GET (or POST, given a body) against a read-only server over the ingested example vault."""
    mem.ingest(str(example_vault))
    server = make_server(Api(lambda: mem), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    def request(path: str, body: Any = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(base + path, data=data,
                                     headers={"Content-Type": "application/json"} if data is not None else {})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    yield request
    server.shutdown()
    server.server_close()


def test_a_title_is_found_over_http_as_the_facade_finds_it(call: Call, mem) -> None:
    status, out = call("/api/find_nodes?query=" + quote("lighthouse"))
    assert status == 200 and out == mem.find_nodes("lighthouse")
    assert out["nodes"][0]["id"] == "note:Projects/lighthouse.md"
    status, out = call("/api/find_nodes?query=2026&limit=1")
    assert status == 200 and len(out["nodes"]) == 1 and out["more"] is True
    assert call("/api/find_nodes", body={"query": "Ada", "limit": 3}) == (200, mem.find_nodes("Ada", limit=3))
    status, listing = call("/api")
    (op,) = [op for op in listing["operations"] if op["name"] == "find_nodes"]
    assert op["read_only"] is True and op["parameters"]["required"] == ["query"]


@pytest.mark.parametrize("path", ["/api/find_nodes", "/api/find_nodes?query=", "/api/find_nodes?query=%20%20",
                                  "/api/find_nodes?query=x&limit=0", "/api/find_nodes?query=x&limit=51",
                                  "/api/find_nodes?query=x&limit=ten", "/api/find_nodes?query=x&max=3",
                                  "/api/find_nodes?query=" + "x" * 2001])
def test_a_bad_query_is_an_invalid_input_envelope(call: Call, path: str) -> None:
    status, out = call(path)
    assert status == 400 and out["ok"] is False and out["error"]["code"] == "invalid_input"
    assert out["error"]["message"]
