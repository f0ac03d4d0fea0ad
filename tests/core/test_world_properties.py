"""Properties: parsers only ever raise InvalidInput; ids are stable; state invariants hold for any write order."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.core.errors import InvalidInput
from mnemon.core.world import (
    Action,
    Assertion,
    Prediction,
    SenseEvent,
    apply_assertion,
    check_contract,
    evaluate_prediction,
    parse_assertion,
    parse_match,
    parse_prediction,
    parse_sense_event,
    parse_sense_events,
    policy_for,
    prediction_id,
    score_event,
    validate_action,
)

UTC = timezone.utc
NOW = datetime(2026, 7, 1, tzinfo=UTC)
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-10, max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["md", "gws", "2026-07-01", "2026-07-01T00:00:00Z", "1d", "external", "current", "verified",
                     "confirmed", "observed_at", "metadata.gws.start", "x"]),
)
json_like = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children,
                                                                                 max_size=4)),
    max_leaves=12,
)


# Shallow values keep generation cheap; depth is covered by `json_like` in the first property.
field_values = st.one_of(scalars, st.lists(scalars, max_size=3), st.dictionaries(st.text(max_size=5), scalars,
                                                                                 max_size=3))


def keyed(keys: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects built from the real field names with arbitrary values — reaches far deeper than random keys."""
    return st.dictionaries(st.sampled_from(keys), field_values, max_size=len(keys))


MATCH_KEYS = ["sense_type", "source_id", "title_terms_any", "title_terms_all", "observation_terms_any",
              "observation_terms_all", "source_path_terms_any", "source_path_terms_all", "observed_after",
              "observed_before", "min_score", "gate", "title_terms", "text_terms"]
PREDICTION_KEYS = ["id", "title", "prediction_type", "match_json", "check_after", "expires_at", "confidence",
                   "subject_assertion_id", "source_action_id", "metadata", "created_at"]
SENSE_KEYS = ["id", "sense_type", "observed_at", "source_id", "title", "text", "event_type", "metadata", "source_uri"]
ACTION_KEYS = ["id", "actor", "action_type", "title", "tool_name", "tool_call_id", "external_ref",
               "side_effect_level", "status", "verified_by_prediction", "user_confirmed", "assertion_ids", "verify",
               "metadata", "created_at"]
ASSERTION_KEYS = ["subject", "predicate", "object", "object_name", "object_value", "object_type", "confidence",
                  "certainty", "evidence", "source_path", "valid_from", "valid_until", "state_type", "metadata"]


def only_invalid_input(parse: Callable[[Any], Any], value: Any) -> None:
    try:
        parse(value)
    except InvalidInput as error:
        assert error.message and error.code == "invalid_input"


PARSERS: dict[str, Callable[[Any], Any]] = {
    "match": parse_match,
    "prediction": lambda v: parse_prediction(v, NOW),
    "prediction_id": prediction_id,
    "sense": parse_sense_event,
    "senses": parse_sense_events,
    "action": lambda v: validate_action(v, NOW),
    "assertion": lambda v: parse_assertion(v, NOW),
    "assertion_row": Assertion.from_row,
    "prediction_row": Prediction.from_row,
    "action_row": Action.from_row,
    "sense_row": SenseEvent.from_row,
}


@FAST
@given(st.sampled_from(sorted(PARSERS)), json_like)
def test_every_parser_raises_only_invalid_input_on_arbitrary_json(name: str, value: Any) -> None:
    only_invalid_input(PARSERS[name], value)


@FAST
@given(keyed(MATCH_KEYS), st.one_of(st.none(), keyed(["sense_type", "event_type", "time_field", "title_terms_all",
                                                           "source_id"])))
def test_parse_match_with_real_keys(match: dict[str, Any], gate: dict[str, Any] | None) -> None:
    if gate is not None:
        match = {**match, "gate": gate}
    only_invalid_input(parse_match, match)
    only_invalid_input(lambda m: parse_prediction({"title": "t", "check_after": "2026-07-01",
                                                   "expires_at": "2026-07-02", "match_json": m}, NOW), match)


@FAST
@given(keyed(PREDICTION_KEYS), keyed(SENSE_KEYS), keyed(ACTION_KEYS), keyed(ASSERTION_KEYS))
def test_payload_parsers_with_real_keys(p: dict[str, Any], s: dict[str, Any], a: dict[str, Any],
                                        c: dict[str, Any]) -> None:
    only_invalid_input(PARSERS["prediction"], p)
    only_invalid_input(PARSERS["sense"], s)
    only_invalid_input(PARSERS["action"], a)
    only_invalid_input(PARSERS["assertion"], c)


@FAST
@given(st.lists(st.one_of(json_like, keyed(PREDICTION_KEYS)), max_size=3),
       st.lists(st.one_of(json_like, keyed(ACTION_KEYS)), max_size=3),
       st.lists(json_like, max_size=3))
def test_contract_check_never_crashes_on_stored_garbage(predictions: list[Any], actions: list[Any],
                                                        edges: list[Any]) -> None:
    rows = [p for p in predictions if isinstance(p, dict)]
    acts = [a for a in actions if isinstance(a, dict)]
    report = check_contract(edges, [], rows, acts)
    assert report.ok == (not report.violations)


words = st.sampled_from(["school", "confirmation", "boarding", "paris", "invoice", "rent", "club"])


@FAST
@given(st.lists(words, min_size=1, max_size=4), st.lists(words, max_size=6), st.permutations(list(range(3))))
def test_prediction_ids_ignore_key_order_and_scores_stay_in_unit_range(
    terms: list[str], text: list[str], order: list[int]
) -> None:
    items = [("title", "t"), ("check_after", "2026-07-01T00:00:00Z"),
             ("match_json", {"sense_type": "md", "observation_terms_any": terms})]
    shuffled = dict(items[i] for i in order)
    payload = {**dict(items), "expires_at": "2026-07-02"}
    assert prediction_id({**shuffled, "expires_at": "2026-07-02T00:00:00+00:00"}) == prediction_id(payload)
    spec = parse_match(payload["match_json"])
    event = parse_sense_event({"sense_type": "md", "observed_at": "2026-07-01T01:00:00Z", "text": " ".join(text) or "x"})
    assert 0.0 <= score_event(spec, event) <= 1.0


@FAST
@given(st.lists(st.tuples(st.sampled_from(["Paris", "Berlin", "Rome"]), st.integers(0, 30), st.booleans()),
                min_size=1, max_size=8))
def test_single_valued_state_never_has_two_current_values(writes: list[tuple[str, int, bool]]) -> None:
    """Any sequence of writes (in any date order, re-assertions included) leaves exactly one current row."""
    rows: dict[str, Assertion] = {}
    for step, (city, day, dated) in enumerate(writes):
        payload = {"subject": "Alice", "predicate": "lives_in", "object": city, "confidence": 0.95,
                   "certainty": "confirmed", "evidence": "e", "source_path": f"s{step}"}
        if dated:
            payload["valid_from"] = (NOW + timedelta(days=day)).isoformat()
        new = parse_assertion(payload, NOW + timedelta(minutes=step))
        change = apply_assertion(list(rows.values()), new, policy_for("lives_in"))
        for updated in change.updates:
            rows[updated.id] = updated
        if change.insert is not None:
            rows[change.insert.id] = change.insert
        current = [r for r in rows.values() if r.status == "current"]
        assert len(current) == 1
        assert change.current_ids == (current[0].id,)
        latest_start = max(r.starts_at for r in rows.values())
        assert current[0].starts_at == latest_start


@FAST
@given(st.lists(st.tuples(st.integers(-48, 96), words), max_size=6), st.integers(-24, 120))
def test_evaluation_is_a_pure_function_of_its_inputs(events: list[tuple[int, str]], hours: int) -> None:
    pred = parse_prediction({"title": "t", "check_after": "2026-07-01", "expires_at": "2026-07-03",
                             "match_json": {"sense_type": "md", "observation_terms_all": ["school"]}}, NOW)
    stored = [parse_sense_event({"sense_type": "md", "observed_at": (NOW + timedelta(hours=h)).isoformat(),
                                 "text": f"{w} note {i}"}) for i, (h, w) in enumerate(events)]
    now = NOW + timedelta(hours=hours)
    first = evaluate_prediction(pred, stored, now)
    assert evaluate_prediction(pred, list(reversed(stored)), now) == first
    visible = [e for e in stored if e.observed_at <= now]
    assert evaluate_prediction(pred, visible, now) == first  # the future cannot leak into a replay
