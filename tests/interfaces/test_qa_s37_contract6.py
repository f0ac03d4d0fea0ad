"""QA session 37, the interfaces' contract, sixth round: tools/list back within a budget every agent session can
pay (predict_add's match stated once: Mneme's alias `match` says it is match_json's object, the eight term lists one
pattern group), and an action's rules between its fields — a verify block needs a side effect, status verified needs
its proof — stated by the schema, refused by check_args and by the library naming the field."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mnemon.core.errors import InvalidInput
from mnemon.interfaces.mcp import handle
from mnemon.interfaces.operations import BY_NAME, check_args

TOOLS_LIST_BUDGET = 55_000  # bytes of json.dumps of a writable server's tools/list (51.9 KB before session 37)


def _tools() -> list[dict[str, Any]]:
    reply = handle(lambda: None, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert reply is not None
    return list(reply["result"]["tools"])


def _accepted(call: Any) -> bool:
    try:
        call()
    except InvalidInput:
        return False
    return True


# ── 1. tools/list's size ──────────────────────────────────────────────────────────────────────────────────────────────
def test_tools_list_fits_its_budget() -> None:
    """Every agent session pays tools/list in tokens: 51.9 KB at the start of session 37, 68.7 KB after its match
    rules (each written out under match_json and again under its alias match, the eight term lists each in full in
    the match and again in its gate)."""
    tools = _tools()
    assert len(json.dumps({"tools": tools})) <= TOOLS_LIST_BUDGET, sorted(
        ((len(json.dumps(tool)), tool["name"]) for tool in tools), reverse=True)[:5]


def _prediction_fields() -> dict[str, Any]:
    schema = next(t for t in _tools() if t["name"] == "predict_add")["inputSchema"]
    return dict(schema["properties"]["prediction"]["properties"])


def test_the_alias_match_says_it_is_match_json_and_is_checked_by_its_rules() -> None:
    """`match` (Mneme's spelling) is stated as the same object as match_json, not written out again; check_args
    reads it by match_json's rules, as the library does."""
    stated = _prediction_fields()["match"]
    assert len(json.dumps(stated)) < 400 and "match_json" in stated["description"]
    op = BY_NAME["predict_add"]
    base = {"title": "Acme pays", "check_after": "2026-01-02", "expires_at": "2026-02-01"}
    for match, refused in (({"sense_type": "gws"}, "source_id or a term list"),
                           ({"sense_type": "gws", "observation_terms": ["x"]}, "observation_terms_all"),
                           ({"sense_type": "gws", "source_id": "m1", "min_score": 2}, "min_score"),
                           ({"sense_type": "gws", "title_terms_any": [" "]}, "blank")):
        for given_as in (match, json.dumps(match)):
            with pytest.raises(InvalidInput, match=refused):
                check_args(op, {"prediction": {**base, "match": given_as}})
    check_args(op, {"prediction": {**base, "match": {"sense_type": "gws", "title_terms_any": ["invoice"]}}})
    full = op.schema(full=True)["properties"]["prediction"]["properties"]
    assert full["match"]["properties"] == full["match_json"]["properties"]


def test_the_term_lists_are_one_pattern_group() -> None:
    """The eight term-list keys were each written out in full, in the match and again in its gate: one
    patternProperties group each, which check_args reads (a misspelt key is still refused with did-you-mean)."""
    match = _prediction_fields()["match_json"]
    for obj in (match, match["properties"]["gate"]):
        assert not any("terms" in key for key in obj["properties"])
        (pattern, terms), = obj["patternProperties"].items()
        assert terms["type"] == ["array", "null"]
    op = BY_NAME["predict_add"]
    base = {"title": "Acme pays", "check_after": "2026-01-02", "expires_at": "2026-02-01"}
    with pytest.raises(InvalidInput, match="did you mean 'observation_terms_a") as refused:
        check_args(op, {"prediction": {**base, "match_json": {"sense_type": "gws", "observation_terms": ["x"]}}})
    assert refused.value.details["field"] == "prediction"
    with pytest.raises(InvalidInput, match="'text_terms'.*must be an array"):
        check_args(op, {"prediction": {**base, "match_json": {"sense_type": "gws", "source_id": "m1",
                                                             "text_terms": "invoice"}}})
    gate = {"sense_type": "gws", "title_terms_all": ["paid"]}
    check_args(op, {"prediction": {**base, "match_json": {"sense_type": "gws", "source_id": "m1", "gate": gate}}})


# ── 2. an action's rules between its fields ───────────────────────────────────────────────────────────────────────────
_LEVELS = st.sampled_from([None, "", " none ", "NONE", "external", "read"])
_VERIFIES = st.sampled_from([None, {"sense_type": "gws", "terms": ["invoice"]}])
_STATUSES = st.sampled_from([None, "recorded", " verified ", "succeeded", "verified"])
_PROOFS = st.sampled_from([None, "", " ", "pred-1"])
_CONFIRMED = st.sampled_from([None, True, False, "true", "false"])
_TAGS = iter(range(10**9))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(level=_LEVELS, verify=_VERIFIES, status=_STATUSES, proof=_PROOFS, confirmed=_CONFIRMED)
def test_an_actions_rules_are_the_schemas(mem: Any, level: Any, verify: Any, status: Any, proof: Any,
                                         confirmed: Any) -> None:
    """A verify block on an action with no side effect (side_effect_level none, the default) and status verified
    with neither verified_by_prediction nor user_confirmed true passed tools/list's schema and check_args and were
    refused by the library, without a field. A standard validator (the value as JSON writes it), check_args and the
    library agree, and the library's refusal names the field."""
    action: dict[str, Any] = {"action_type": "email", "title": f"Sent invoice {next(_TAGS)}",
                              "tool_call_id": f"call-{next(_TAGS)}"}
    if proof == "pred-1":  # a confirmed prediction (one naming no row, or an open one, no schema can refuse)
        # about this action (another's cannot verify it): the action recorded first, the prediction naming it
        action["id"] = mem.action_record(dict(action))["action"]["id"]
        proof = mem.predict_add({"title": "Acme pays", "check_after": "2026-01-02", "expires_at": "2026-02-01",
                                 "source_action_id": action["id"],
                                 "match_json": {"sense_type": "gws", "source_id": "m1"}})["prediction"]["id"]
        mem.sense_add([{"sense_type": "gws", "observed_at": "2026-01-05T00:00:00Z", "source_id": "m1"}])
        mem.predict_check(prediction_id=proof)
    for key, value in (("side_effect_level", level), ("verify", verify), ("status", status),
                       ("verified_by_prediction", proof), ("user_confirmed", confirmed)):
        if value is not None:
            action[key] = value
    op = BY_NAME["action_record"]
    typed = {**action, **({"user_confirmed": json.loads(confirmed)} if isinstance(confirmed, str) else {})}
    valid = Draft202012Validator(op.schema()).is_valid({"action": typed})
    assert _accepted(lambda: check_args(op, {"action": action})) == valid, action
    try:
        mem.action_record(json.loads(json.dumps(typed)))
        taken = True
    except InvalidInput as exc:
        taken = False
        assert exc.details.get("field") in ("verify", "status", "side_effect_level"), exc.details
    assert taken == valid, action


def test_an_actions_rules_are_said_in_words() -> None:
    op = BY_NAME["action_record"]
    with pytest.raises(InvalidInput, match="has a verify block, which needs a side_effect_level other than none"):
        check_args(op, {"action": {"action_type": "email", "title": "t", "verify": {"sense_type": "gws"}}})
    with pytest.raises(InvalidInput, match="status verified, which needs verified_by_prediction or user_confirmed"):
        check_args(op, {"action": {"action_type": "email", "title": "t", "status": "verified"}})
    check_args(op, {"action": {"action_type": "email", "title": "t", "status": "verified", "user_confirmed": "true"}})


# ── 3. what no schema can say, refused naming the field ──────────────────────────────────────────────────────────
@pytest.mark.parametrize("verify, title, field", [
    ({"sense_type": "gws", "terms": ["invoice"], "check_after": "3d", "expires": "1d"}, "Sent invoice", "verify.expires"),
    ({"sense_type": "gws", "terms": ["invoice"], "check_after": "2d", "expires_at": "1d"}, "Sent invoice",
     "verify.expires"),
    ({"sense_type": "gws"}, "the of", "verify.terms"),
    ({"sense_type": "gws", "terms": []}, "an it", "verify.terms"),
])
def test_a_verify_block_the_library_refuses_names_its_field(mem, verify: dict[str, Any], title: str,
                                                             field: str) -> None:
    """A verify block whose expires comes before its check_after (two durations: no schema compares them), or with
    nothing to match (no source_id, no terms, a title without usable words), passed the schema and was refused by
    the library naming no field (details {}), where every other refusal of the block names one."""
    action = {"action_type": "email", "title": title, "side_effect_level": "external", "tool_call_id": "c1",
              "verify": verify}
    assert Draft202012Validator(BY_NAME["action_record"].schema()).is_valid({"action": action})
    with pytest.raises(InvalidInput) as refused:
        mem.action_record(action)
    assert refused.value.details.get("field") == field, refused.value.details
