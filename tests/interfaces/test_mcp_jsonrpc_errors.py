"""JSON-RPC 2.0 over the MCP server: only a valid Request without an "id" is a notification; any other message
without an id is an Invalid Request and is answered -32600 with id null (JSON-RPC 2.0 §5, docs/agents.md)."""
from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.interfaces.mcp import answer, handle, serve

PING = {"jsonrpc": "2.0", "id": "after", "method": "ping"}


def _serve(mem: Mnemon, messages: list[Any]) -> list[Any]:
    """Every message on its own line through the real stdio loop, one reply per line back."""
    stdin = io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in messages))
    stdout = io.BytesIO()
    serve(lambda: mem, stdin, stdout)
    return [json.loads(line) for line in stdout.getvalue().decode().splitlines()]


def _invalid_request(reply: Any) -> bool:
    return (isinstance(reply, dict) and reply.get("jsonrpc") == "2.0" and reply.get("id") is None
            and reply.get("error", {}).get("code") == -32600)


@pytest.mark.parametrize("message", [
    {},
    {"jsonrpc": "2.0"},
    {"jsonrpc": "1.0", "method": "ping"},
    {"method": "ping"},
    {"method": 5},
    {"jsonrpc": "2.0", "method": 5},
    {"jsonrpc": "2.0", "method": None},
    {"foo": "boo"},
])
def test_an_invalid_message_without_an_id_is_answered_invalid_request(mem: Mnemon, message: dict) -> None:
    out = _serve(mem, [message, PING])
    assert len(out) == 2, out
    assert _invalid_request(out[0]), out[0]
    assert out[1] == {"jsonrpc": "2.0", "id": "after", "result": {}}  # the server goes on


def test_a_batch_answers_each_invalid_entry_and_each_request_but_no_notification(mem: Mnemon) -> None:
    batch = [
        {"foo": "boo"},
        {"jsonrpc": "2.0", "id": "b", "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},  # a valid notification: no answer
        {"jsonrpc": "1.0", "method": "ping"},
        {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "status", "arguments": {}}},
        {},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}},
    ]
    out = _serve(mem, [batch])
    assert len(out) == 1 and isinstance(out[0], list)
    replies = out[0]
    assert len(replies) == 5, replies
    assert sum(_invalid_request(r) for r in replies) == 3
    by_id = {r["id"]: r for r in replies if r["id"] is not None}
    assert by_id["b"]["result"] == {}
    assert by_id[7]["result"]["isError"] is False
    assert by_id[7]["result"]["structuredContent"]["total_insights"] == 0


def test_valid_notifications_and_responses_stay_unanswered(mem: Mnemon) -> None:
    out = _serve(mem, [{"jsonrpc": "2.0", "method": "notifications/initialized"},
                       {"jsonrpc": "2.0", "method": "no/such/notification"},  # an erring notification: no answer
                       {"jsonrpc": "2.0", "id": 3, "result": {}},  # a response sent to the server
                       [{"jsonrpc": "2.0", "method": "notifications/initialized"}],
                       PING])
    assert out == [{"jsonrpc": "2.0", "id": "after", "result": {}}]


_json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                         max_size=3), max_leaves=5)


@given(st.dictionaries(st.sampled_from(["jsonrpc", "method", "params", "foo"]), _json_values))
def test_any_id_less_object_that_is_not_a_request_gets_invalid_request(message: dict) -> None:
    valid_notification = message.get("jsonrpc") == "2.0" and isinstance(message.get("method"), str)
    # the facade is never reached: an invalid message is refused before any tool runs, a notification is not run
    reply = answer(lambda: pytest.fail("no tool may run"), json.dumps(message).encode())
    if valid_notification:
        assert reply is None
    else:
        assert reply is not None and _invalid_request(json.loads(reply)), reply


def test_initialize_names_the_installed_version(monkeypatch: pytest.MonkeyPatch) -> None:
    import mnemon

    monkeypatch.setattr(mnemon, "__version__", "9.8.7")  # a release bumps it in one place; the server follows
    reply = handle(lambda: None, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
    assert reply is not None and reply["result"]["serverInfo"] == {"name": "mnemon", "version": "9.8.7"}
