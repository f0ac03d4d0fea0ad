"""QA round (session 39): an unknown recall intent is refused alike everywhere — the value sent, the valid values and
the field. `mnemon recall x --intent HOW` gave details {intent, valid}; tools/call recall {"query": "x", "intent":
"HOW"} gave only {field} and did not say what it was sent."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.core.intent import VALID_INTENTS, parse_intent
from mnemon.interfaces.http.server import Api
from mnemon.interfaces.mcp import handle
from mnemon.interfaces.operations import OPERATIONS, check_args

RECALL = next(op for op in OPERATIONS if op.name == "recall")
EXPECTED = {"field": "intent", "intent": "HOW", "valid": list(VALID_INTENTS)}


def test_cli_mcp_and_http_refuse_an_unknown_intent_alike(mem: Mnemon, cli_run: Any) -> None:
    code, cli = cli_run(["recall", "x", "--intent", "HOW"])
    assert code == 1
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": "recall", "arguments": {"query": "x", "intent": "HOW"}}})
    assert reply is not None and reply["result"]["isError"]
    answer = Api(lambda: mem).handle("GET", "/api/recall?query=x&intent=HOW", {"host": "localhost"}, b"")
    assert answer.status == 400
    for error in (cli["error"], reply["result"]["structuredContent"]["error"], json.loads(answer.body)["error"]):
        assert error["code"] == "invalid_input" and error["details"] == EXPECTED, error
        assert "got 'HOW'" in error["message"] and "WHY, WHEN, ENTITY, GENERAL" in error["message"], error


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=12))
def test_the_servers_and_the_library_name_the_same_details(text: str) -> None:
    try:
        parse_intent(text)
        library = None
    except InvalidInput as exc:
        library = exc.details
    try:
        check_args(RECALL, {"query": "x", "intent": text})
        served = None
    except InvalidInput as exc:
        served = exc.details
    if library is None:
        assert served is None  # what the library takes the schema takes
    else:
        assert served == library == {"field": "intent", "intent": text, "valid": list(VALID_INTENTS)}


def test_an_intent_of_another_type_names_the_field_and_the_values(mem: Mnemon) -> None:
    with pytest.raises(InvalidInput) as caught:
        check_args(RECALL, {"query": "x", "intent": 5})
    assert caught.value.details == {"field": "intent", "intent": 5, "valid": list(VALID_INTENTS)}
    with pytest.raises(InvalidInput) as library:
        mem.recall("x", intent=5)  # type: ignore[arg-type]
    assert library.value.details == caught.value.details
