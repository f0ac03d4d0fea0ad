"""QA session 37, the interfaces' contract, fifth round: a number or a boolean given as its JSON text ("5", "0.5",
"true": what many MCP clients send from a model's output) is read as that value by `check_args`, the one place
arguments are checked, with the schemas unchanged (a type array `[kind, "string"]` cost every session's tools/list
and is refused by some hosts' function declarations)."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mnemon.core.errors import InvalidInput
from mnemon.interfaces.mcp import handle
from mnemon.interfaces.operations import BY_NAME, OPERATIONS, check_args

SCALAR_KINDS = {"integer", "number", "boolean"}


def _mcp_call(mem: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": name, "arguments": arguments}})
    assert reply is not None
    return dict(reply["result"])


def _http(mem: Any, name: str, args: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    from mnemon.interfaces.http.server import Api

    reply = Api(lambda: mem, allow_writes=True).handle(
        "POST", f"/api/{name}", {"host": "localhost", "content-type": "application/json"}, json.dumps(args).encode())
    return reply.status, json.loads(reply.body)


def _ids(payload: dict[str, Any]) -> list[Any]:
    rows = payload.get("results", payload.get("items", []))
    return [row.get("insight", row).get("id") for row in rows]


def _tools_list() -> list[dict[str, Any]]:
    reply = handle(lambda: None, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert reply is not None
    return list(reply["result"]["tools"])


def _specs(spec: Any) -> list[dict[str, Any]]:
    """Every schema inside `spec` (itself too)."""
    if isinstance(spec, list):
        return [found for item in spec for found in _specs(item)]
    if not isinstance(spec, dict):
        return []
    return [spec] + [found for value in spec.values() for found in _specs(value)]


def test_the_schemas_state_numbers_and_booleans_as_themselves() -> None:
    """The leniency is the server's, not the schema's: no `"type": ["integer", "string"]` (Gemini's function
    declarations refuse type arrays of two kinds, and their patterns grew tools/list by a third)."""
    for tool in _tools_list():
        for spec in _specs(tool["inputSchema"]):
            kinds = spec.get("type")
            if isinstance(kinds, list):
                assert not (SCALAR_KINDS & set(kinds) and "string" in kinds), (tool["name"], spec)


@pytest.mark.parametrize("name, args, field", [
    ("recall", {"query": "Alice", "limit": "2"}, None), ("recall", {"query": "Alice", "brief": "true"}, None),
    ("recall", {"query": "Alice", "brief": "false", "verbose": "true"}, None),
    ("recall", {"query": "Alice", "brief": "true", "excerpt_chars": "30"}, None),
    ("search", {"query": "Alice", "limit": "1"}, None),
    ("retrieve", {"prompt": "Alice", "budget": "900", "max_items": "3", "include_candidates": "false"}, None),
    ("recall", {"query": "Alice", "limit": "500"}, "limit"), ("recall", {"query": "Alice", "limit": "5x"}, "limit"),
    ("recall", {"query": "Alice", "limit": " 5"}, "limit"), ("recall", {"query": "Alice", "limit": "05"}, "limit"),
    ("recall", {"query": "Alice", "limit": "1e2"}, "limit"), ("recall", {"query": "Alice", "limit": "٥"}, "limit"),
    ("recall", {"query": "Alice", "brief": "yes"}, "brief"), ("recall", {"query": "Alice", "brief": "True"}, "brief"),
    ("recall", {"query": "Alice", "brief": "true", "verbose": "true"}, "-"),
    ("search", {"query": "Alice", "brief": "false", "excerpt_chars": "30"}, "excerpt_chars"),
])
def test_a_number_or_boolean_as_text_is_taken_by_both_servers(mem, name: str, args: dict[str, Any],
                                                                field: str | None) -> None:
    """recall's "limit": "5" or "brief": "true" were refused 'must be an integer; got string' while the CLI reads
    them from text: taken as the value by HTTP and MCP (JSON's own spellings only), the answer the typed call's."""
    mem.remember("Alice moved to Berlin in 2024")
    mem.remember("Alice works at Acme on the invoice tool")
    status, body = _http(mem, name, args)
    result = _mcp_call(mem, name, args)
    if field is None:
        assert status == 200 and result["isError"] is False, (body, result)
        typed = {k: json.loads(v) if k not in ("query", "prompt") else v for k, v in args.items()}
        assert Draft202012Validator(BY_NAME[name].schema()).is_valid(typed)
        again = _http(mem, name, typed)[1]  # the same answer as the typed call's (an access count aside)
        assert sorted(again) == sorted(body) and _ids(again) == _ids(body)
    else:
        assert status == 400 and body["error"]["code"] == "invalid_input" and result["isError"] is True
        if field != "-":
            assert body["error"]["details"]["field"] == field
            assert result["structuredContent"]["error"]["details"]["field"] == field


def test_text_numbers_inside_an_object_are_read_as_numbers(mem) -> None:
    """A prediction's confidence "0.8", an action's user_confirmed "false", a payload edge's confidence "0.5" or an
    observation's score "40" (nested fields a model stringifies as well) are the numbers and booleans they say."""
    status, body = _http(mem, "predict_add", {"prediction": {
        "title": "Acme confirms the invoice", "check_after": "2026-01-02T00:00:00Z",
        "expires_at": "2026-01-09T00:00:00Z", "confidence": "0.8",
        "match_json": json.dumps({"sense_type": "gws", "observation_terms_all": ["invoice"], "min_score": "0.25"})}})
    assert status == 200, body
    assert body["prediction"]["confidence"] == 0.8
    assert json.loads(json.dumps(body["prediction"]["match_json"]))["min_score"] == 0.25
    status, body = _http(mem, "action_record", {"action": {"action_type": "email", "title": "Sent the invoice",
                                                           "user_confirmed": "false"}})
    assert status == 200, body
    assert body["action"]["user_confirmed"] is False
    status, body = _http(mem, "remember_payload", {"payload": {
        "source_path": "mneme://agent/s1", "nodes": [{"ref": "a", "name": "Acme"}, {"ref": "b", "name": "Invoice"}],
        "edges": [{"src": "a", "dst": "b", "relation": "related_to", "confidence": "0.5", "validated": "false"}],
        "observations": [{"node": "a", "text": "Acme pays late", "score": "40"}]}})
    assert status == 200, body


def test_a_number_given_as_text_off_its_range_is_told_in_words() -> None:
    with pytest.raises(InvalidInput, match=r"'limit' must be from 1 to 100; got 500") as refused:
        check_args(BY_NAME["recall"], {"query": "a", "limit": "500"})
    assert refused.value.details["field"] == "limit"
    with pytest.raises(InvalidInput, match=r"'brief' must be a boolean; got the string 'yes'"):
        check_args(BY_NAME["recall"], {"query": "a", "brief": "yes"})
    with pytest.raises(InvalidInput, match=r"'confidence' must be from 0 to 1; got 2"):
        check_args(BY_NAME["action_record"], {"action": {"action_type": "email", "title": "t",
                                                         "side_effect_level": "external", "tool_call_id": "c1",
                                                         "verify": {"sense_type": "gws", "confidence": "2"}}})


# ── what the schema takes, and the one leniency beyond it ───────────────────────────────────────────────────
_JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?")  # JSON's own spelling, no exponent


def as_written(kinds: set[str], text: Any) -> Any:
    """The value a number's or a boolean's JSON text writes (the documented leniency), else `text` as given."""
    if not isinstance(text, str) or "string" in kinds:
        return text
    if "boolean" in kinds and text in ("true", "false"):
        return text == "true"
    if kinds & {"integer", "number"} and _JSON_NUMBER.fullmatch(text):
        return json.loads(text)
    return text


_TOP_SCALARS = [(op.name, name) for op in OPERATIONS for name, spec in op.parameters.items()
                if SCALAR_KINDS & set(spec["type"] if isinstance(spec["type"], list) else [spec["type"]])]
_TEXTS = st.one_of(st.integers(-20, 120_000).map(str), st.floats(-2, 150, allow_nan=False).map(repr),
                   st.sampled_from(["true", "false", "True", "yes", "1", "0", "-0", "05", "1e2", "0.50", "1.0",
                                    "1.", ".5", " 1", "1 ", "+1", "0x1", "٥", "1_0", "", "nan", "9" * 25, "5\n"]),
                   st.text(max_size=4))


@pytest.mark.parametrize("op_name, name", _TOP_SCALARS)
@settings(max_examples=60, deadline=None)
@given(text=_TEXTS)
def test_a_scalar_as_text_is_accepted_exactly_when_its_value_is(op_name: str, name: str, text: str) -> None:
    """A text is refused by the schema; `check_args` takes it exactly when it is JSON's spelling of a value the
    schema takes, and hands on that value."""
    op = BY_NAME[op_name]
    spec = op.parameters[name]
    kinds = set(spec["type"] if isinstance(spec["type"], list) else [spec["type"]])
    assert not Draft202012Validator({"type": "object", "properties": {name: spec}}).is_valid({name: text})
    fillers = {"source_path": "mneme://agent/s1", "payload": {"source_path": "mneme://agent/s1"}}
    others = {r: fillers.get(r, {"string": "x", "integer": 1}.get(op.parameters[r]["type"])) for r in op.required
              if r != name}
    valid = Draft202012Validator(op.schema()).is_valid  # the operation's rules too (excerpt_chars needs brief)
    value = as_written(kinds, text)
    try:
        checked = check_args(op, {**others, name: text})[name]
    except InvalidInput as exc:
        assert exc.details["field"] == name
        assert isinstance(value, str) or not valid({**others, name: value}), text
        return
    assert not isinstance(value, str) and valid({**others, name: value}), text
    assert checked == value and (type(checked) is type(value) or (type(checked), type(value)) == (int, float))


# ── predict_add's match, stated once ─────────────────────────────────────────────────────────────────────────────
def test_a_match_states_its_rules_once_per_argument() -> None:
    """f2040d0 stated the match's rules on its object and again in its JSON text's contentSchema, for match_json
    and match: predict_add's schema went from 8.8 to 43 KB and tools/list from 52 to 86 KB, paid by every agent
    session. The text holds what the object states (its description says so; check_args reads it so)."""
    tools = _tools_list()
    predict = next(tool for tool in tools if tool["name"] == "predict_add")["inputSchema"]
    stated = [spec for spec in _specs(predict) if "sense_type" in spec.get("properties", {})]
    assert len(stated) == 2  # match_json's object and its gate (match says it is match_json's: contract6)
    match = predict["properties"]["prediction"]["properties"]["match_json"]
    assert match["contentSchema"] == {"type": "object"} and "its JSON text" in match["description"]
    assert "its JSON text" in predict["properties"]["prediction"]["properties"]["match"]["description"]
    assert len(json.dumps({"tools": tools})) < 70_000


@pytest.mark.parametrize("match, refused", [
    ({"sense_type": "gws", "observation_terms_all": ["invoice"]}, None),
    ({"sense_type": "gws", "observation_terms": ["invoice"]}, "observation_terms"),
    ({"sense_type": "gws"}, "source_id or a term list"),
    ({"sense_type": "gws", "source_id": "m1", "min_score": 2}, "min_score"),
    ({"sense_type": "gws", "source_id": "m1", "gate": {"sense_type": "gws"}}, "source_id, event_type or a term"),
])
def test_a_match_as_text_is_checked_by_the_objects_rules(match: dict[str, Any], refused: str | None) -> None:
    op = BY_NAME["predict_add"]
    prediction = {"title": "Acme pays", "check_after": "2026-01-02", "expires_at": "2026-02-01"}
    for name in ("match_json", "match"):
        args = {"prediction": {**prediction, name: json.dumps(match)}}
        if refused is None:
            check_args(op, args)
            continue
        with pytest.raises(InvalidInput, match=refused):
            check_args(op, args)


# ── an action's verify block: when to check, as the library reads it ──────────────────────────────────────────────
_OFFSETS = ["1d", " 4h ", "1.5w", "30 m", "2D", "2020-01-05", "2020-01-05T09:00:00Z", " 20200105T0900Z ", "٥d", "１d",
            "5.٥h", "soon", "", " ", "5", "1e2d", "d", "-1d", "1y", "2020-01-05x09:00"]


@pytest.mark.parametrize("key", ["check_after", "expires", "expires_at"])
@pytest.mark.parametrize("text", _OFFSETS)
def test_a_verify_time_the_schema_takes_is_one_the_library_takes(mem, key: str, text: str) -> None:
    """verify.check_after / expires / expires_at were any text to the schema, a duration (1d) or an ISO instant to
    the library: the schema states it, and check_args and the library agree with it."""
    op = BY_NAME["action_record"]
    verify = {"sense_type": "gws", "terms": ["invoice"], key: text,
              **({"expires": "2999-01-01"} if key == "check_after" else {"check_after": "2019-01-01"})}
    action = {"action_type": "email", "title": f"Sent invoice {key} {text!r}", "side_effect_level": "external",
              "tool_call_id": f"call-{key}-{text!r}", "verify": verify}
    valid = Draft202012Validator(op.schema()).is_valid({"action": action})
    verdicts = []
    for call in (lambda: check_args(op, {"action": action}), lambda: mem.action_record(json.loads(json.dumps(action)))):
        try:
            call()
            verdicts.append(True)
        except InvalidInput:
            verdicts.append(False)
    assert verdicts == [valid, valid], (valid, verdicts)
