"""QA session 37, the interfaces' contract, fourth round: a prediction's match states the library's rules (numbers and
booleans as their JSON text: tests/interfaces/test_qa_s37_contract5.py)."""
from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mnemon.core.errors import InvalidInput
from mnemon.interfaces import operations, schema_keywords
from mnemon.interfaces.operations import BY_NAME, check_args


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
    def keys(obj: dict[str, Any]) -> set[str]:  # its fields, and the term lists' one pattern group
        return set(obj["properties"]) | {key for pattern in obj.get("patternProperties", {})
                                         for key in schema_keywords.GROUP_NAMES[pattern]}

    stated = BY_NAME["predict_add"].schema()["properties"]["prediction"]["properties"]["match_json"]
    assert keys(stated) == set(match._MATCH_KEYS)
    assert keys(stated["properties"]["gate"]) == set(match._GATE_KEYS)
