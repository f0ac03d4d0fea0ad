"""Text that cannot be UTF-8 (a lone surrogate: JSON "\\ud800") is refused alike by every MCP tool and HTTP route:
`invalid_input` naming the argument. `search` and `recall` used to answer as if the text were fine (empty results),
while `show` refused it and `remember` refused it in other words."""
from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.interfaces.http.server import Api, make_server
from mnemon.interfaces.mcp import handle
from mnemon.interfaces.operations import OPERATIONS, Operation

LONE = "a\ud800b"


def _filler(spec: dict[str, Any]) -> Any:
    """A value of the argument's kind the schema accepts (required arguments other than the one under test)."""
    kind = spec.get("type")
    if kind == "string":
        if "enum" in spec:
            return spec["enum"][0]
        return "mneme://agent/s" if "mneme" in spec.get("pattern", "") else "x"
    return {"integer": 1, "number": 0.5, "boolean": False, "object": {}, "array": [{}]}[kind]


def _text_arguments() -> list[tuple[Operation, str]]:
    return [(op, name) for op in OPERATIONS for name, spec in op.properties.items()
            if spec.get("type") == "string" and "enum" not in spec]


def _mcp(mem: Mnemon, name: str, args: dict[str, Any]) -> dict[str, Any]:
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": name, "arguments": args}})
    assert reply is not None and "result" in reply, reply
    return dict(reply["result"])


@pytest.mark.parametrize("op, argument", _text_arguments(), ids=lambda v: v if isinstance(v, str) else v.name)
def test_every_text_argument_refuses_a_lone_surrogate(mem: Mnemon, op: Operation, argument: str) -> None:
    args = {name: _filler(op.properties[name]) for name in op.required}
    args[argument] = LONE
    result = _mcp(mem, op.name, args)
    assert result["isError"] is True
    error = result["structuredContent"]["error"]
    assert error["code"] == "invalid_input"
    assert f"argument {argument!r}" in error["message"] and "UTF-8" in error["message"]


@pytest.mark.parametrize("name, args, where", [
    ("sense_add", {"events": [{"sense_type": "manual", "observed_at": "2026-01-01", "text": LONE}]},
     "events[0].text"),
    ("remember_payload", {"payload": {"source_path": "mneme://agent/s", "nodes": [{"ref": "n", "name": LONE}]}},
     "payload.nodes[0].name"),
    ("predict_add", {"prediction": {"title": "t", "metadata": {LONE: 1}}}, "prediction.metadata"),
])
def test_a_lone_surrogate_inside_a_document_argument_is_named(mem: Mnemon, name: str, args: dict[str, Any],
                                                              where: str) -> None:
    result = _mcp(mem, name, args)
    error = result["structuredContent"]["error"]
    assert result["isError"] is True and error["code"] == "invalid_input"
    assert where in error["message"], error["message"]


@pytest.fixture
def http_base(mem: Mnemon) -> Iterator[str]:
    server = make_server(Api(lambda: mem), "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("route, body", [("search", {"query": LONE}), ("recall", {"query": LONE}),
                                         ("show", {"id": LONE}), ("retrieve", {"prompt": LONE})])
def test_http_refuses_a_lone_surrogate_with_the_same_envelope(mem: Mnemon, http_base: str, route: str,
                                                              body: dict[str, Any]) -> None:
    mem.remember("alpha beta gamma")
    data = json.dumps(body).encode("ascii")  # "\ud800" as the escape a client sends
    req = urllib.request.Request(f"{http_base}/api/{route}", data=data, method="POST",
                                 headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(req, timeout=30)
    assert info.value.code == 400
    payload = json.loads(info.value.read())
    assert payload["ok"] is False and payload["error"]["code"] == "invalid_input"
    assert "UTF-8" in payload["error"]["message"]
