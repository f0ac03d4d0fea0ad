"""Session 33's QA: `mnemon recall Qdrant --intent why` works (the library reads an intent in any case), but
`GET /api/recall?query=Qdrant&intent=why` and the MCP `recall` tool refused it: the schema's `enum` listed only
WHY|WHEN|ENTITY|GENERAL. The schema now takes what the library takes, and still names the upper-case spellings."""
from __future__ import annotations

from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from mnemon.core.errors import InvalidInput
from mnemon.core.intent import VALID_INTENTS, parse_intent
from mnemon.interfaces.operations import BY_NAME, check_args

from interfaces.test_http import serve  # noqa: F401  (a fixture)
from interfaces.test_mcp import _session, call

SPELLINGS = ["WHY", "why", "Why", "wHeN", "entity", "General", " why ", "\twhen\n", "\u3000ENTITY",
             "", " ", "whyy", "wh y", "because", "WHY!", "ENTITIES", "w\u0337hy", "\u0175hy", "WHY\x00"]


def _library_takes(value: str) -> bool:
    try:
        parse_intent(value)
    except InvalidInput:
        return False
    return True


@pytest.mark.parametrize("value", SPELLINGS)
def test_the_schema_takes_exactly_the_intents_the_library_takes(value: str) -> None:
    recall = BY_NAME["recall"]
    args = {"query": "Qdrant", "intent": value}
    takes = _library_takes(value)
    assert Draft202012Validator(recall.schema()).is_valid(args) == takes, value
    if takes:
        assert check_args(recall, args) == args
    else:
        with pytest.raises(InvalidInput, match="must be one of WHY, WHEN, ENTITY, GENERAL"):
            check_args(recall, args)


def test_the_canonical_spellings_stay_visible_to_clients() -> None:
    spec = BY_NAME["recall"].schema()["properties"]["intent"]
    assert spec["examples"] == list(VALID_INTENTS)
    assert all(name in spec["description"] for name in VALID_INTENTS)


def test_a_lower_case_intent_is_answered_over_http(serve, mem) -> None:
    mem.remember("Chose Qdrant because its filters are fast", category="decision")
    call_ = serve()
    status, found, _ = call_("/api/recall?query=Qdrant&intent=why")
    assert status == 200, found
    assert found["results"] and found["results"][0]["intent"] == "WHY"
    status, found, _ = call_("/api/recall", body={"query": "Qdrant", "intent": "When"})
    assert status == 200 and found["results"][0]["intent"] == "WHEN", found
    status, err, _ = call_("/api/recall?query=Qdrant&intent=because")
    assert (status, err["error"]["code"]) == (400, "invalid_input")
    assert "WHY, WHEN, ENTITY, GENERAL" in err["error"]["message"] and "^" not in err["error"]["message"]


def test_a_lower_case_intent_is_answered_over_mcp(tmp_path: Path) -> None:
    out = _session(tmp_path, [
        call(1, "remember", {"content": "Chose Qdrant because its filters are fast", "category": "decision"}),
        call(2, "recall", {"query": "Qdrant", "intent": "why"}),
    ])
    reply = {m["id"]: m for m in out}[2]["result"]
    assert not reply.get("isError"), reply
    assert '"intent":"WHY"' in reply["content"][0]["text"].replace(" ", "")
