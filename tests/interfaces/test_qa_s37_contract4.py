"""QA session 37, the interfaces' contract, fourth round: a number or a boolean given as its JSON text (what many MCP
clients send from a model's output) is taken wherever the tool takes the value, stated in the schema; a prediction's
match states the library's rules."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mnemon.core.errors import InvalidInput
from mnemon.interfaces import operations
from mnemon.interfaces.mcp import handle
from mnemon.interfaces.operations import BY_NAME, OPERATIONS, check_args


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


# ── 1. numbers and booleans as their JSON text ────────────────────────────────────────────────────────────────────
def _scalars(spec: dict[str, Any], where: str) -> list[tuple[str, dict[str, Any]]]:
    """Every integer, number or boolean the schema states, nested ones too, with where it is."""
    kinds = spec.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    found = [(where, spec)] if kinds & {"integer", "number", "boolean"} else []
    for key, inner in spec.get("properties", {}).items():
        found += _scalars(inner, f"{where}.{key}")
    if isinstance(spec.get("items"), dict):
        found += _scalars(spec["items"], f"{where}[]")
    return found


SCALARS = [(op.name, where, spec) for op in OPERATIONS for name, spec in op.schema()["properties"].items()
           for where, spec in _scalars(spec, name)]


def test_every_number_and_boolean_takes_its_json_text_in_the_schema() -> None:
    """recall's limit "5", brief "true" or weaken_edge's factor "0.5" were refused ('must be an integer; got
    string') though the CLI reads them from text and many MCP clients send a model's numbers so: the schema says
    the text is taken too, with a pattern of the texts taken."""
    assert len(SCALARS) > 40
    for op_name, where, spec in SCALARS:
        assert "string" in spec["type"] and "pattern" in spec, (op_name, where, spec)


@pytest.mark.parametrize("name, args, field", [
    ("recall", {"query": "Alice", "limit": "2"}, None), ("recall", {"query": "Alice", "brief": "true"}, None),
    ("recall", {"query": "Alice", "brief": "false", "verbose": "true"}, None),
    ("recall", {"query": "Alice", "brief": "true", "excerpt_chars": "30"}, None),
    ("search", {"query": "Alice", "limit": "1"}, None),
    ("retrieve", {"prompt": "Alice", "budget": "900", "max_items": "3", "include_candidates": "false"}, None),
    ("recall", {"query": "Alice", "limit": "500"}, "limit"), ("recall", {"query": "Alice", "limit": "5x"}, "limit"),
    ("recall", {"query": "Alice", "limit": " 5"}, "limit"), ("recall", {"query": "Alice", "limit": "2.0"}, "limit"),
    ("recall", {"query": "Alice", "brief": "yes"}, "brief"), ("recall", {"query": "Alice", "brief": "True"}, "brief"),
    ("recall", {"query": "Alice", "brief": "true", "verbose": "true"}, "-"),
    ("search", {"query": "Alice", "brief": "false", "excerpt_chars": "30"}, "excerpt_chars"),
])
def test_a_number_or_boolean_as_text_is_taken_by_both_servers(mem, name: str, args: dict[str, Any],
                                                                field: str | None) -> None:
    mem.remember("Alice moved to Berlin in 2024")
    mem.remember("Alice works at Acme on the invoice tool")
    op = BY_NAME[name]
    valid = Draft202012Validator(op.schema()).is_valid(args)
    status, body = _http(mem, name, args)
    result = _mcp_call(mem, name, args)
    if field is None:
        assert valid and status == 200 and result["isError"] is False, (body, result)
        typed = {k: json.loads(v) if k not in ("query", "prompt") else v for k, v in args.items()}
        again = _http(mem, name, typed)[1]  # the same answer as the typed call's (an access count aside)
        assert sorted(again) == sorted(body) and _ids(again) == _ids(body)
    else:
        assert not valid
        assert status == 400 and body["error"]["code"] == "invalid_input" and result["isError"] is True
        if field != "-":
            assert body["error"]["details"]["field"] == field
            assert result["structuredContent"]["error"]["details"]["field"] == field


def test_text_numbers_inside_an_object_are_read_as_numbers(mem) -> None:
    """A prediction's confidence "0.8", an action's user_confirmed "true", a payload edge's confidence "0.5" or an
    observation's score "40" (nested fields a model stringifies as well) are the numbers and booleans they say."""
    status, body = _http(mem, "predict_add", {"prediction": {
        "title": "Acme confirms the invoice", "check_after": "2026-01-02T00:00:00Z",
        "expires_at": "2026-01-09T00:00:00Z", "confidence": "0.8",
        "match_json": {"sense_type": "gws", "observation_terms_all": ["invoice"]}}})
    assert status == 200, body
    status, body = _http(mem, "action_record", {"action": {"action_type": "email", "title": "Sent the invoice",
                                                           "user_confirmed": "true"}})
    assert status == 200, body
    status, body = _http(mem, "remember_payload", {"payload": {
        "source_path": "mneme://agent/s1", "nodes": [{"ref": "a", "name": "Acme"}, {"ref": "b", "name": "Invoice"}],
        "edges": [{"src": "a", "dst": "b", "relation": "related_to", "confidence": "0.5", "validated": "false"}],
        "observations": [{"node": "a", "text": "Acme pays late", "score": "40"}]}})
    assert status == 200, body


_TEXTS = st.one_of(st.integers(-20, 120_000).map(str), st.floats(-2, 150, allow_nan=False).map(repr),
                   st.sampled_from(["true", "false", "True", "yes", "1", "0", "-0", "05", "1e2", "0.50", "1.0",
                                    "1.", ".5", " 1", "1 ", "+1", "0x1", "٥", "1_0", "", "nan", "9" * 25]),
                   st.text(max_size=4))


@pytest.mark.parametrize("op_name, where", [(op, where) for op, where, _ in SCALARS if "." not in where
                                            and "[" not in where])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=_TEXTS)
def test_a_text_the_schema_takes_is_one_check_args_takes(op_name: str, where: str, text: str) -> None:
    """Schema-valid ⇔ check_args, for every top-level number or boolean given as text; what is taken is the value
    JSON reads from the text."""
    op = BY_NAME[op_name]
    spec = op.schema()["properties"][where]
    valid = Draft202012Validator({"type": "object", "properties": {where: spec}}).is_valid({where: text})
    try:
        value = operations._checked(where, op.parameters[where], text)
    except InvalidInput:
        assert not valid, text
        return
    assert valid, text
    assert value == json.loads(text) and type(value) is type(json.loads(text))


def test_a_number_given_as_text_off_its_range_is_told_in_words() -> None:
    with pytest.raises(InvalidInput, match=r"'limit' must be an integer from 1 to 100"):
        check_args(BY_NAME["recall"], {"query": "a", "limit": "500"})
    with pytest.raises(InvalidInput, match=r"'brief' must be true or false"):
        check_args(BY_NAME["recall"], {"query": "a", "brief": "yes"})


# ── 2. a prediction's match states the library's rules ───────────────────────────────────────────────────────────
_TERM_LISTS = st.one_of(st.none(), st.just([]), st.just(["invoice"]), st.just(["boarding pass", "Acme"]),
                        st.just([" "]), st.just("invoice"), st.just([5]))
_GATES = st.one_of(st.none(), st.fixed_dictionaries(
    {"sense_type": st.sampled_from(["gws", "email"])},
    optional={"source_id": st.sampled_from(["msg-1", " ", 5]), "event_type": st.sampled_from(["reply", ""]),
              "title_terms_all": _TERM_LISTS, "time_field": st.sampled_from(
                  ["observed_at", " metadata.due.at ", "metadata.", "metadata.a b", "subject", ""]),
              "min_score": st.just(0.5)}))
_MATCHES = st.fixed_dictionaries(
    {}, optional={"sense_type": st.sampled_from(["gws", " GWS", "email", 5]),
                  "source_id": st.sampled_from(["msg-1", "", "  ", None, 7]),
                  "observation_terms_all": _TERM_LISTS, "title_terms_any": _TERM_LISTS, "text_terms": _TERM_LISTS,
                  "observed_after": st.sampled_from(["2026-01-01T00:00:00Z", None, "soon", 5]),
                  "observed_before": st.sampled_from(["2026-02-01", None, "later"]),
                  "min_score": st.sampled_from([0, 0.5, 1, 1.5, -0.1, True, None, "x"]),
                  "gate": _GATES, "observation_terms": st.just(["invoice"])})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(match=_MATCHES, as_text=st.booleans())
def test_a_match_the_schema_takes_is_one_the_library_takes(mem, match: dict[str, Any], as_text: bool) -> None:
    """predict_add's schema said only that a match names its sense_type: a match with no source_id and no term
    list, a misspelt key ('observation_terms'), a min_score of 2, observed_after 'soon', a term list [] or 'invoice'
    (not a list), a gate with no criterion or a time_field 'subject' passed tools/list's schema and were refused by
    the library. By a standard validator (the object) and by check_args (the object or its JSON text): valid ⇔ the
    prediction is added."""
    op = BY_NAME["predict_add"]
    prediction = {"title": "Acme confirms the invoice", "check_after": "2026-01-02T00:00:00Z",
                  "expires_at": "2026-03-01T00:00:00Z", "match_json": json.dumps(match) if as_text else match}
    try:
        mem.predict_add(json.loads(json.dumps(prediction)))
        taken = True
    except InvalidInput:
        taken = False
    try:
        check_args(op, {"prediction": prediction})
        checked = True
    except InvalidInput:
        checked = False
    assert checked == taken, match
    if not as_text:  # a standard validator does not read a text's contentSchema
        assert Draft202012Validator(op.schema()).is_valid({"prediction": prediction}) == taken, match


def test_a_match_says_in_words_what_no_schema_can() -> None:
    """The rules JSON Schema cannot state (bounds in order, a term with a letter or digit) are said in the match's
    description, and refused in words."""
    spec = BY_NAME["predict_add"].schema()["properties"]["prediction"]
    said = spec["properties"]["match_json"]["description"]
    assert "observed_before" in said and "letter or digit" in said
    assert "expires_at" in spec["description"] and "not before check_after" in spec["description"]


def test_the_match_keys_are_the_librarys() -> None:
    from mnemon.core.world import match

    assert set(operations._TERM_KEYS) == set(match.TERM_KEYS) | set(match.LEGACY_TERM_KEYS)
    stated = BY_NAME["predict_add"].schema()["properties"]["prediction"]["properties"]["match_json"]
    assert set(stated["properties"]) == set(match._MATCH_KEYS)
    assert set(stated["properties"]["gate"]["properties"]) == set(match._GATE_KEYS)
