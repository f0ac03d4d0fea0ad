"""QA session 38, what the workbench needs from the API to show what was forgotten and bring it back, over HTTP:

- `graph` focused on a forgotten memory answered "no node '…'; `recall`, or `graph` without a focus, lists ids", as
  of an id never stored, where `show` of the same id says when and by what it was removed;
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mnemon.interfaces.http.server import Api, make_server

from .test_http import Call, _request


@pytest.fixture
def serve(mem: Any) -> Iterator[Callable[..., Call]]:
    servers = []

    def start(**options: Any) -> Call:
        server = make_server(Api(lambda: mem, **options), "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        return lambda path, **kw: _request(base, path, **kw)

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _two(mem: Any) -> tuple[str, str]:
    a = mem.remember("Alice manages the Berlin office")["id"]
    b = mem.remember("Bob reports to Alice in the Berlin office")["id"]
    return a, b


def test_a_graph_focused_on_a_forgotten_memory_says_when_and_by_what(serve: Callable[..., Call], mem: Any) -> None:
    _, b = _two(mem)
    mem.forget(b)
    call = serve()
    status, graph, _ = call(f"/api/graph?focus={b}")
    _, shown, _ = call(f"/api/show?id={b}")
    assert status == 404 and graph["error"]["code"] == "not_found"
    details = graph["error"]["details"]
    assert details["removed_by"] == "forget" and details["deleted_at"] == shown["error"]["details"]["deleted_at"]
    assert "was forgotten at" in graph["error"]["message"] and "no node" not in graph["error"]["message"]


def test_a_graph_focused_on_an_id_never_stored_still_says_no_node(serve: Callable[..., Call], mem: Any) -> None:
    _two(mem)
    status, graph, _ = serve()("/api/graph?focus=never-stored")
    assert status == 404 and graph["error"]["message"].startswith("no node 'never-stored'")
    assert "removed_by" not in graph["error"].get("details", {})
