"""Session 33's QA of `mnemon mcp serve` as an MCP client meets it: a message a Windows client starts with a byte
order mark is answered (its `initialize` went unanswered, and the client waited), and the object arguments' schemas
say which fields they need, where a description said a required one had a default."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from mnemon.core.errors import InvalidInput
from mnemon.interfaces.operations import BY_NAME, check_args

from interfaces.test_mcp import _raw_session, call

BOM = "\ufeff".encode()
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t"}}}


def _line(message: object) -> bytes:
    return json.dumps(message).encode() + b"\r\n"


# ── a byte order mark ────────────────────────────────────────────────────────
def test_an_initialize_after_a_byte_order_mark_is_answered(tmp_path: Path) -> None:
    """RFC 8259 §8.1 lets a parser ignore a BOM; .NET's UTF-8 writers put one before the first line. It was -32700
    with a null id, so the client's `initialize` was never answered and it waited for its timeout."""
    out = _raw_session(tmp_path, BOM + _line(INITIALIZE) + _line(call(2, "status", {})))
    assert [reply.get("id") for reply in out] == [1, 2], out
    assert out[0]["result"]["serverInfo"]["name"] == "mnemon"
    assert out[1]["result"]["isError"] is False
    # one mark before a message, nothing more: a second is no JSON, and one inside a text is the text's own
    out = _raw_session(tmp_path, BOM + BOM + _line(INITIALIZE)
                       + _line(call(1, "remember", {"content": "\ufeffThe pilot starts in June"}))
                       + _line(call(2, "search", {"query": "pilot"})))
    assert out[0]["error"]["code"] == -32700 and out[0]["id"] is None
    assert out[2]["result"]["structuredContent"]["results"][0]["content"] == "\ufeffThe pilot starts in June"


# ── object arguments state the fields they need ──────────────────────────────
@pytest.mark.parametrize("op_name, argument, value, missing", [
    ("sense_add", "events", [{"sense_type": "gws", "title": "Invoice paid"}], "observed_at"),
    ("sense_add", "events", [{"observed_at": "2025-01-02", "title": "Invoice paid"}], "sense_type"),
    ("predict_add", "prediction", {"title": "Invoice paid", "match_json": {"sense_type": "gws",
                                                                           "observation_terms_all": ["paid"]},
                                   "expires_at": "2025-02-01"}, "check_after"),
    ("action_record", "action", {"action_type": "email"}, "title"),
    ("remember_payload", "payload", {"nodes": []}, "source_path"),
])
def test_an_object_argument_states_its_required_fields(op_name: str, argument: str, value: object,
                                                       missing: str) -> None:
    """The schemas said only "an object": a client checking them sent a sense event without `observed_at` (its
    description said "default now") and was refused by the library; now the schema refuses it first, and the
    server in the same words, before anything runs."""
    op = BY_NAME[op_name]
    assert not Draft202012Validator(op.schema()).is_valid({argument: value})
    with pytest.raises(InvalidInput, match=f"missing {missing!r}"):
        check_args(op, {argument: value})


def test_the_sense_add_description_says_observed_at_is_needed_and_a_complete_event_runs(mem) -> None:
    op = BY_NAME["sense_add"]
    description = op.schema()["properties"]["events"]["description"]
    assert "default now" not in description and "observed_at" in description
    events = [{"sense_type": "gws", "title": "Invoice paid", "observed_at": "2025-01-02T09:00:00Z"}]
    assert Draft202012Validator(op.schema()).is_valid({"events": events})
    assert op.call(mem, check_args(op, {"events": events}))["added"] == 1
