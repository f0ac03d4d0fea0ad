"""QA session 37, the interfaces' contract, seventh round: a value JSON cannot write (NaN, Infinity — Python's JSON
reads them) in free-form metadata is refused naming where it sits, by every tool taking such metadata; a key the
world store indexes is one the schema states it takes (500 characters: 2,000 UTF-8 bytes at most); a verify block is
refused naming where it was given, `verify` or Mneme's `metadata.verify`."""
from __future__ import annotations

import json
import math
from typing import Any

import pytest

from mnemon.interfaces.mcp import handle

NAN, INF = math.nan, math.inf
_PREDICTION = {"title": "Acme pays", "check_after": "2026-01-02", "expires_at": "2026-02-01",
               "match_json": {"sense_type": "gws", "source_id": "m1"}}
_EVENT = {"sense_type": "gws", "observed_at": "2026-01-05T00:00:00Z", "source_id": "m1"}


def _call(mem: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """One tools/call as the MCP server answers it (a client's JSON read by Python, NaN and all)."""
    reply = handle(lambda: mem, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                 "params": {"name": name, "arguments": arguments}})
    assert reply is not None
    result = reply["result"]
    return dict(json.loads(result["content"][0]["text"]), isError=result.get("isError", False))


# ── 1. NaN and Infinity in free-form metadata ──────────────────────────────────────────────────────────────────
@pytest.mark.parametrize("name, arguments, field", [
    ("sense_add", {"events": [{**_EVENT, "metadata": {"a": NAN}}]}, "metadata.a"),
    ("sense_add", {"events": [_EVENT, {**_EVENT, "source_id": "m2", "metadata": {"a": [1, {"b": -INF}]}}]},
     "metadata.a[1].b"),
    ("action_record", {"action": {"action_type": "email", "title": "Sent", "metadata": {"a": {"b": INF}}}},
     "metadata.a.b"),
    ("action_record", {"action": {"action_type": "email", "title": "Sent", "metadata": '{"a": NaN}'}}, "metadata.a"),
    ("predict_add", {"prediction": {**_PREDICTION, "metadata": {"x": 1, "a": NAN}}}, "metadata.a"),
    ("predict_add", {"prediction": {**_PREDICTION, "metadata_json": '{"a": [Infinity]}'}}, "metadata_json.a[0]"),
    ("remember_payload", {"payload": {"source_path": "mneme://s/1", "assertions": [
        {"subject": "Ada", "predicate": "owns", "object": "payments", "metadata": {"a": NAN}}]}}, "metadata.a"),
])
def test_a_value_json_cannot_write_in_metadata_is_refused_naming_where(mem: Any, name: str,
                                                                     arguments: dict[str, Any], field: str) -> None:
    """sense_add with metadata {"a": NaN} was refused 'metadata must contain only JSON values' with only `index` in
    details (action_record and predict_add with no details at all): the refusal names the field."""
    answer = _call(mem, name, arguments)
    assert answer["isError"] and answer["error"]["code"] == "invalid_input", answer
    assert answer["error"]["details"].get("field") == field, answer["error"]
    assert field in answer["error"]["message"]
    if name == "sense_add":
        assert answer["error"]["details"]["index"] == len(arguments["events"]) - 1


@pytest.mark.parametrize("meta, field", [({"a": NAN}, "meta.a"), ({"a": [1, {"b": INF}]}, "meta.a[1].b"),
                                         ({"why": "dup", "w": -INF}, "meta.w")])
def test_link_refuses_what_json_cannot_write_in_meta(mem: Any, meta: dict[str, Any], field: str) -> None:
    """link's meta over MCP or HTTP (an object, not the CLI's text) with NaN or Infinity was stored as written:
    the edge row's metadata held 'NaN' or 'Infinity' — not JSON — and the reply showed null; the CLI's --meta
    refused the same value."""
    ada = mem.remember("Ada Quill owns the payment service")["id"]
    bob = mem.remember("Bob Marsh runs the billing team")["id"]
    answer = _call(mem, "link", {"source_id": ada, "target_id": bob, "meta": meta})
    assert answer["isError"] and answer["error"]["details"].get("field") == field, answer
    def semantic() -> list[Any]:
        return mem.related(ada, edge_type="semantic")["related"]
    assert semantic() == []  # nothing stored
    assert not _call(mem, "link", {"source_id": ada, "target_id": bob, "meta": {"a": 1.5}})["isError"]
    assert [item["id"] for item in semantic()] == [bob]


# ── 2. keys the store indexes: at most 2,000 UTF-8 bytes ───────────────────────────────────────────────────────────
_ACTION = {"action_type": "email", "title": "Sent the invoice"}
_KEYS = [("action_record", "action", _ACTION, "id"), ("action_record", "action", _ACTION, "actor"),
         ("action_record", "action", _ACTION, "source_path"), ("predict_add", "prediction", _PREDICTION, "id"),
         ("predict_add", "prediction", _PREDICTION, "subject_assertion_id"),
         ("predict_add", "prediction", _PREDICTION, "source_path"), ("sense_add", "events", _EVENT, "id"),
         ("sense_add", "events", _EVENT, "source_uri")]


def _arguments(argument: str, base: dict[str, Any], key: str, value: str) -> dict[str, Any]:
    item = {**base, key: value}
    return {argument: [item] if argument == "events" else item}


def _stated(name: str) -> dict[str, Any]:
    reply = handle(lambda: None, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert reply is not None
    return next(tool["inputSchema"] for tool in reply["result"]["tools"] if tool["name"] == name)


@pytest.mark.parametrize("name, argument, base, key", _KEYS)
def test_a_key_the_schema_takes_fits_the_stores_byte_limit(mem: Any, name: str, argument: str,
                                                           base: dict[str, Any], key: str) -> None:
    """An id of 3,000 characters passed tools/list's schema and was refused by the store's limit of 2,000 UTF-8
    bytes (a PostgreSQL index entry). JSON Schema counts characters: 500 of any script fit, and the schema says so,
    the byte rule in words; a longer one is refused before the library, naming the field."""
    from jsonschema import Draft202012Validator

    from mnemon.core.errors import InvalidInput
    from mnemon.interfaces.operations import BY_NAME, check_args

    schema = _stated(name)
    validator = Draft202012Validator(schema)
    widest = "\U0001f600" * 500  # 4 UTF-8 bytes each: 2,000 bytes
    fits = _arguments(argument, base, key, widest)
    assert validator.is_valid(fits)
    answer = _call(mem, name, fits)
    assert not answer["isError"] or answer["error"]["code"] != "invalid_input", answer
    for too_long in ("\U0001f600" * 501, "x" * 3000):
        refused = _arguments(argument, base, key, too_long)
        assert not validator.is_valid(refused), key
        with pytest.raises(InvalidInput) as error:
            check_args(BY_NAME[name], refused)
        assert key in error.value.message and "the limit is 500" in error.value.message
    assert "2,000 UTF-8 bytes" in json.dumps(schema)


@pytest.mark.parametrize("where, field", [({"source_uri": "https://x.test/" + "a" * 2100}, "source_uri"),
                                          ({"metadata": {"path": "a" * 2100}}, "metadata.path"),
                                          ({"metadata": {"source_path": "a" * 2100}}, "metadata.source_path")])
def test_a_sense_events_path_over_the_limit_names_what_gave_it(mem: Any, where: dict[str, Any], field: str) -> None:
    """The store keeps a sense event's source path from its metadata's source_path or path, else its source_uri: one
    over 2,000 bytes was refused as 'sense event: source_path is 2,115 bytes long', naming a field the event does not
    have, and no index."""
    from mnemon.core.errors import InvalidInput

    with pytest.raises(InvalidInput) as refused:  # the library, as the CLI's `sense add --file` reaches it
        mem.sense_add([_EVENT, {**_EVENT, "source_id": "m2", **where}])
    assert refused.value.details.get("field") == field and refused.value.details.get("index") == 1
    assert field in refused.value.message
    assert mem.sense_add([_EVENT])["added"] == 1  # nothing of the refused batch was stored


# ── 3. Mneme's verify block inside an action's metadata ─────────────────────────────────────────────────────────────
_SIDE_EFFECT = {"side_effect_level": "external", "tool_call_id": "call-1"}


@pytest.mark.parametrize("action, field", [
    ({"metadata": {"verify": {"sense_type": "email"}}}, "metadata.verify.sense_type"),
    ({**_SIDE_EFFECT, "metadata": {"verify": {"sense_type": "email"}}}, "metadata.verify.sense_type"),
    ({**_SIDE_EFFECT, "metadata": {"verify": {"sense_type": "gws", "check_after": "soon"}}},
     "metadata.verify.check_after"),
    ({**_SIDE_EFFECT, "metadata": {"verify": {"sense_type": "gws", "check_afterr": "1d"}}},
     "metadata.verify.check_afterr"),
    ({**_SIDE_EFFECT, "metadata": {"verify": {"sense_type": "gws", "confidence": 2}}}, "metadata.verify.confidence"),
    ({"metadata": {"verify": {"sense_type": "gws", "terms": ["invoice"]}}}, "metadata.verify"),
    ({"verify": None, "metadata": {"verify": {"sense_type": "gws", "terms": ["invoice"]}}}, "metadata.verify"),
    ({**_SIDE_EFFECT, "metadata": {"verify": {"sense_type": "gws", "check_after": "3d", "expires": "1d"}}},
     "metadata.verify.expires"),
    ({**_SIDE_EFFECT, "metadata": {"verify": {"sense_type": "gws"}}, "title": "the of"}, "metadata.verify.terms"),
    ({"verify": {"sense_type": "email"}, **_SIDE_EFFECT}, "verify.sense_type"),
    ({"verify": {"sense_type": "gws", "check_after": "soon"}, **_SIDE_EFFECT}, "verify.check_after"),
    ({"verify": {"sense_type": "gws", "check_afterr": "1d"}, **_SIDE_EFFECT}, "verify.check_afterr"),
])
def test_a_verify_block_is_refused_naming_where_it_was_given(mem: Any, action: dict[str, Any], field: str) -> None:
    """The library reads Mneme's verify block from an action's metadata when verify is not given (Mneme's `action
    record` does): {"metadata": {"verify": {"sense_type": "email"}}} was refused as action.verify.sense_type — a
    field the call did not have, and spelt unlike the block's other refusals (verify.expires; a misspelt key was
    named alone, check_afterr). Each refusal names the field where the block was given."""
    from mnemon.core.errors import InvalidInput

    action = {"action_type": "email", "title": "Sent the invoice", **action}
    with pytest.raises(InvalidInput) as refused:
        mem.action_record(json.loads(json.dumps(action)))
    assert refused.value.details.get("field") == field, refused.value.details


def test_a_verify_block_in_metadata_spawns_its_prediction(mem: Any) -> None:
    """verify null is not given (as everywhere in a payload): the metadata's block is read, as without it."""
    block = {"sense_type": "gws", "terms": ["invoice"], "expires_at": "4d"}
    for n, extra in enumerate(({"metadata": {"verify": block, "origin": "mneme"}},
                               {"metadata": json.dumps({"verify": block})},
                               {"verify": None, "metadata": {"verify": block}})):
        action = {"action_type": "email", "title": f"Sent the invoice {n}", **_SIDE_EFFECT, **extra}
        assert mem.action_record(action)["spawned_prediction_id"], extra
