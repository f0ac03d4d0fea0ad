"""Predictions: match_json grammar, ids, scoring, transitions, gates, weakening, due/watch, truth policies."""
from __future__ import annotations

import json
import random
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from mnemon.core.errors import InvalidInput
from mnemon.core.world import (
    Prediction,
    SenseEvent,
    apply_transition,
    due_predictions,
    evaluate_prediction,
    parse_assertion,
    parse_match,
    parse_prediction,
    parse_sense_event,
    prediction_id,
    score_event,
    truth_policy_for_prediction,
    watch_radar,
    weaken_on_miss,
)

UTC = timezone.utc
CHECK_AFTER = datetime(2026, 7, 1, tzinfo=UTC)
EXPIRES = datetime(2026, 7, 3, tzinfo=UTC)


def payload(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "title": "School confirmation should arrive",
        "prediction_type": "confirmation_expected",
        "match_json": {"sense_type": "md", "observation_terms_all": ["school", "confirmation"]},
        "check_after": "2026-07-01T00:00:00+00:00",
        "expires_at": "2026-07-03T00:00:00+00:00",
        "confidence": 0.8,
    }
    base.update(overrides)
    return base


def prediction(**overrides: Any) -> Prediction:
    return parse_prediction(payload(**overrides), CHECK_AFTER - timedelta(days=5))


def event(at: datetime, text: str = "", sense_type: str = "md", **extra: Any) -> SenseEvent:
    return parse_sense_event({"sense_type": sense_type, "observed_at": at.isoformat(), "text": text or "noise",
                              "title": extra.pop("title", ""), **extra})


# ---- grammar ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("match", "fragment"),
    [
        ({"observation_terms_all": ["x"]}, "missing required field 'sense_type'"),
        ({"sense_type": "telepathy", "title_terms_any": ["x"]}, "unknown sense type 'telepathy'"),
        ({"sense_type": 3, "title_terms_any": ["x"]}, "sense_type must be a string"),
        ({"sense_type": "md"}, "needs source_id or at least one term list"),
        ({"sense_type": "md", "title_terms_any": "school"}, "title_terms_any must be a list of strings"),
        ({"sense_type": "md", "title_terms_any": ["ok", 4]}, "title_terms_any[1] must be a string"),
        ({"sense_type": "md", "title_terms_any": ["  "]}, "title_terms_any[0] must not be empty"),
        ({"sense_type": "md", "title_terms_any": ["!!"]}, "no word characters"),
        ({"sense_type": "md", "source_id": "a", "observed_after": "July 1st"}, "observed_after is not a valid"),
        ({"sense_type": "md", "source_id": "a", "min_score": 2}, "min_score must be in [0, 1]"),
        ({"sense_type": "md", "source_id": "a", "observation_term_all": ["x"]}, "unknown field(s) 'observation_term_all'"),
        ({"sense_type": "md", "source_id": "a", "gate": {"title_terms_any": ["x"]}}, "gate: missing required field"),
        ({"sense_type": "md", "source_id": "a", "gate": {"sense_type": "gws"}}, "gate needs source_id, event_type"),
        (
            {"sense_type": "md", "source_id": "a", "gate": {"sense_type": "gws", "event_type": "x", "time_field": "start"}},
            "time_field must be 'observed_at' or 'metadata.<path>'",
        ),
        ({"sense_type": "md", "source_id": "a", "observed_after": "2026-07-02", "observed_before": "2026-07-01"},
         "observed_before is earlier"),
    ],
)
def test_parse_match_rejects_with_a_precise_message(match: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidInput) as error:
        parse_match(match)
    assert fragment in error.value.message


def test_unknown_sense_type_error_lists_the_known_ones() -> None:
    with pytest.raises(InvalidInput) as error:
        parse_match({"sense_type": "fax", "source_id": "a"})
    assert "md" in error.value.details["known"] and "gws" in error.value.details["known"]


def test_legacy_term_keys_and_round_trip() -> None:
    spec = parse_match({"sense_type": "GWS", "title_terms": ["Paris flight"], "text_terms": ["boarding"],
                        "gate": {"sense_type": "gws", "event_type": "calendar_event",
                                 "time_field": "metadata.gws.start"}})
    normal = spec.to_json()
    assert normal["sense_type"] == "gws"
    assert normal["title_terms_any"] == ["paris flight"]
    assert normal["observation_terms_any"] == ["boarding"]
    assert parse_match(normal) == spec


@pytest.mark.parametrize(
    ("overrides", "fragment"),
    [
        ({"title": None}, "missing required field 'title'"),
        ({"check_after": None}, "missing required field 'check_after'"),
        ({"expires_at": "2026-02-30T00:00:00Z"}, "expires_at is not a valid ISO-8601"),
        ({"expires_at": "2026-06-30T00:00:00Z"}, "expires_at (2026-06-30T00:00:00+00:00) is before check_after"),
        ({"prediction_type": "hunch"}, "prediction_type must be one of"),
        ({"confidence": -0.1}, "confidence must be in [0, 1]"),
        ({"match_json": None}, "missing required field 'match_json'"),
        ({"match_json": "{not json"}, "match_json is not valid JSON"),
    ],
)
def test_parse_prediction_rejects_bad_payloads(overrides: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InvalidInput) as error:
        parse_prediction(payload(**overrides), CHECK_AFTER)
    assert fragment in error.value.message


def test_match_json_may_arrive_as_json_text() -> None:
    as_text = prediction(match_json=json.dumps(payload()["match_json"]))
    assert as_text.match == prediction().match


# ---- ids ----------------------------------------------------------------------------------------------------------

def test_prediction_id_is_a_replay_stable_content_hash() -> None:
    first = prediction_id(payload())
    reordered = dict(reversed(list(payload().items())))
    spelled_differently = payload(check_after="2026-07-01T00:00:00Z", expires_at="2026-07-03T02:00:00+02:00")
    assert prediction_id(reordered) == first
    assert prediction_id(spelled_differently) == first
    assert prediction(confidence=0.3).id == first  # confidence is not identity
    assert prediction_id(payload(title="Another expectation")) != first
    assert len(first) == 24


def test_explicit_id_is_kept() -> None:
    assert prediction(id="example-school-confirmation").id == "example-school-confirmation"


# ---- scoring ------------------------------------------------------------------------------------------------------

def test_score_is_the_fraction_of_criterion_tokens_found() -> None:
    spec = parse_match({"sense_type": "md", "observation_terms_any": ["school", "confirmation", "uniform", "fees"]})
    assert score_event(spec, event(CHECK_AFTER, "School confirmation received")) == 0.5
    assert score_event(spec, event(CHECK_AFTER, "nothing relevant")) == 0.0


def test_a_fully_matched_one_word_prediction_scores_one() -> None:
    spec = parse_match({"sense_type": "md", "title_terms_all": ["invoice"]})
    assert score_event(spec, event(CHECK_AFTER, title="Invoice #42 paid")) == 1.0


def test_hard_criteria_zero_the_score() -> None:
    spec = parse_match({"sense_type": "md", "source_id": "m-1", "observation_terms_all": ["school", "confirmation"]})
    good = event(CHECK_AFTER, "school confirmation", source_id="m-1")
    assert score_event(spec, good) == 1.0
    assert score_event(spec, event(CHECK_AFTER, "school only", source_id="m-1")) == 0.0
    assert score_event(spec, event(CHECK_AFTER, "school confirmation", source_id="m-2")) == 0.0
    assert score_event(spec, event(CHECK_AFTER, "school confirmation", sense_type="gws", source_id="m-1")) == 0.0


def test_multi_word_terms_and_unspaced_scripts_match() -> None:
    spec = parse_match({"sense_type": "md", "observation_terms_all": ["boarding pass", "巴黎"]})
    assert score_event(spec, event(CHECK_AFTER, "Your boarding pass for 去巴黎的航班")) == 1.0
    assert score_event(spec, event(CHECK_AFTER, "boarding starts soon, 去巴黎")) == 0.0


def test_source_path_terms_read_source_fields() -> None:
    spec = parse_match({"sense_type": "md", "source_path_terms_any": ["projects"]})
    assert score_event(spec, event(CHECK_AFTER, "x", metadata={"path": "Projects/school.md"})) == 1.0


# ---- transitions ----------------------------------------------------------------------------------------------------

def test_matching_event_in_window_confirms() -> None:
    hit = event(CHECK_AFTER + timedelta(hours=5), "School confirmation letter arrived")
    result = evaluate_prediction(prediction(), [event(CHECK_AFTER, "unrelated"), hit], CHECK_AFTER + timedelta(hours=6))
    assert result.new_status == "confirmed"
    assert result.matched_event_ids == (hit.id,)
    assert result.outcome_summary.startswith("confirmed by md:")


def test_evidence_outside_the_window_or_after_now_does_not_count() -> None:
    early = event(CHECK_AFTER - timedelta(hours=1), "school confirmation")
    later = event(CHECK_AFTER + timedelta(hours=30), "school confirmation")
    now = CHECK_AFTER + timedelta(hours=20)
    result = evaluate_prediction(prediction(), [early, later], now)
    assert result.new_status == "open"
    assert result.outcome_summary == "no matching sense event yet"


def test_expiry_without_match_is_missed_when_the_sense_was_alive() -> None:
    pred = prediction(subject_assertion_id="wsa-1")
    alive = event(CHECK_AFTER + timedelta(hours=1), "weekly newsletter")
    result = evaluate_prediction(pred, [alive], EXPIRES + timedelta(seconds=1))
    assert result.new_status == "missed"
    assert result.weaken_assertion_id == "wsa-1"
    assert result.outcome_summary == "expired without matching sense event"


def test_expiry_with_a_dead_sense_is_unverifiable() -> None:
    long_ago = event(CHECK_AFTER - timedelta(days=300), "old note")
    result = evaluate_prediction(prediction(), [long_ago], EXPIRES + timedelta(days=1))
    assert result.new_status == "unverifiable"
    assert "no stored events for sense_type=md" in result.outcome_summary


def test_no_news_expected_is_missed_by_news_and_confirmed_by_silence() -> None:
    quiet = prediction(prediction_type="no_news_expected",
                       match_json={"sense_type": "gws", "observation_terms_any": ["overdue"]})
    bad_news = event(CHECK_AFTER + timedelta(hours=2), "Your rent is overdue", sense_type="gws")
    chatter = event(CHECK_AFTER + timedelta(hours=2), "Lunch on Friday?", sense_type="gws")
    after = EXPIRES + timedelta(hours=1)
    assert evaluate_prediction(quiet, [bad_news], CHECK_AFTER + timedelta(hours=3)).new_status == "missed"
    assert evaluate_prediction(quiet, [chatter], after).new_status == "confirmed"
    assert evaluate_prediction(quiet, [chatter], CHECK_AFTER + timedelta(hours=3)).new_status == "open"
    assert evaluate_prediction(quiet, [], after).new_status == "unverifiable"


def test_terminal_status_never_moves_again() -> None:
    pred = prediction()
    hit = event(CHECK_AFTER + timedelta(hours=1), "school confirmation")
    now = CHECK_AFTER + timedelta(hours=2)
    confirmed = apply_transition(pred, evaluate_prediction(pred, [hit], now), now)
    assert (confirmed.status, confirmed.checked_at, confirmed.outcome_event_ids) == ("confirmed", now, (hit.id,))
    later = EXPIRES + timedelta(days=9)
    again = evaluate_prediction(confirmed, [], later)
    assert again.new_status == "confirmed" and not again.changed
    assert apply_transition(confirmed, again, later) == confirmed


def test_evaluation_is_replay_deterministic_and_order_independent() -> None:
    pred = prediction()
    events = [event(CHECK_AFTER + timedelta(hours=h), t) for h, t in
              [(1, "noise"), (4, "school confirmation"), (9, "the school confirmation again")]]
    now = CHECK_AFTER + timedelta(hours=10)
    baseline = evaluate_prediction(pred, events, now)
    for seed in range(5):
        shuffled = events[:]
        random.Random(seed).shuffle(shuffled)
        assert evaluate_prediction(pred, shuffled, now) == baseline
    assert baseline.matched_event_ids == (events[1].id, events[2].id)


# ---- gates --------------------------------------------------------------------------------------------------------

def gated(prediction_type: str = "confirmation_expected") -> Prediction:
    return prediction(
        prediction_type=prediction_type,
        match_json={
            "sense_type": "gws",
            "observation_terms_all": ["boarding", "confirmation"],
            "gate": {"sense_type": "gws", "event_type": "calendar_event", "title_terms_all": ["paris", "flight"],
                     "time_field": "metadata.gws.start"},
        },
        check_after="2026-07-01T00:00:00Z",
        expires_at="2026-07-20T00:00:00Z",
    )


def flight(start: Any) -> SenseEvent:
    return parse_sense_event({"sense_type": "gws", "event_type": "calendar_event", "title": "Flight to Paris",
                              "observed_at": "2026-06-20T10:00:00Z", "metadata": {"gws": {"start": start}}})


def boarding(at: datetime) -> SenseEvent:
    return event(at, "Boarding confirmation for AF1234", sense_type="gws")


def test_gate_time_becomes_the_effective_deadline() -> None:
    gate_event = flight({"dateTime": "2026-07-05T08:00:00+02:00"})
    gate_at = datetime(2026, 7, 5, 6, 0, tzinfo=UTC)
    before = boarding(gate_at - timedelta(hours=3))
    after = boarding(gate_at + timedelta(hours=3))
    confirmed = evaluate_prediction(gated(), [gate_event, before], gate_at)
    assert confirmed.new_status == "confirmed" and confirmed.gate_time == gate_at
    late = evaluate_prediction(gated(), [gate_event, after], gate_at + timedelta(hours=4))
    assert late.new_status == "missed"
    assert late.effective_expires_at == gate_at


def test_gate_accepts_bare_dates_in_metadata() -> None:
    result = evaluate_prediction(gated(), [flight({"date": "2026-07-05"})], datetime(2026, 7, 2, tzinfo=UTC))
    assert result.gate_time == datetime(2026, 7, 5, tzinfo=UTC)


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        # Google Calendar: a dateTime without an offset is in the event's timeZone (CET in winter, CEST in summer)
        ({"dateTime": "2026-07-05T08:00:00", "timeZone": "Europe/Paris"}, datetime(2026, 7, 5, 6, 0, tzinfo=UTC)),
        ({"dateTime": "2026-07-05T08:00:00", "timeZone": "America/New_York"},
         datetime(2026, 7, 5, 12, 0, tzinfo=UTC)),
        # an all-day event starts at midnight where it is held
        ({"date": "2026-07-05", "timeZone": "Asia/Tokyo"}, datetime(2026, 7, 4, 15, 0, tzinfo=UTC)),
        # an offset in the text wins over the zone's name
        ({"dateTime": "2026-07-05T08:00:00+02:00", "timeZone": "America/New_York"},
         datetime(2026, 7, 5, 6, 0, tzinfo=UTC)),
        ({"dateTime": "2026-07-05T08:00:00Z", "timeZone": "Asia/Tokyo"}, datetime(2026, 7, 5, 8, 0, tzinfo=UTC)),
        # no zone named: UTC, as before
        ({"dateTime": "2026-07-05T08:00:00"}, datetime(2026, 7, 5, 8, 0, tzinfo=UTC)),
    ],
)
def test_a_calendar_time_without_an_offset_is_read_in_its_time_zone(start: Any, expected: datetime) -> None:
    result = evaluate_prediction(gated(), [flight(start)], datetime(2026, 7, 2, tzinfo=UTC))
    assert result.gate_time == expected


def test_a_calendar_time_in_an_unknown_zone_does_not_resolve_the_gate() -> None:
    at = datetime(2026, 7, 2, tzinfo=UTC)
    unknown = flight({"dateTime": "2026-07-05T08:00:00", "timeZone": "Mars/Olympus_Mons"})
    assert evaluate_prediction(gated(), [unknown], at).gate_time is None
    known = flight({"dateTime": "2026-07-06T08:00:00", "timeZone": "UTC"})
    assert evaluate_prediction(gated(), [unknown, known], at).gate_time == datetime(2026, 7, 6, 8, 0, tzinfo=UTC)


def test_unresolved_gate_waits_then_becomes_unverifiable() -> None:
    pred = gated()
    evidence = boarding(datetime(2026, 7, 4, tzinfo=UTC))
    assert evaluate_prediction(pred, [evidence], datetime(2026, 7, 10, tzinfo=UTC)).new_status == "open"
    result = evaluate_prediction(pred, [evidence], datetime(2026, 7, 21, tzinfo=UTC))
    assert result.new_status == "unverifiable"
    assert result.outcome_summary == "configured event gate could not be resolved from stored sense evidence"


def test_a_past_check_says_its_missing_evidence_was_missing_from_what_was_recorded_by_then() -> None:
    at = datetime(2026, 7, 21, tzinfo=UTC)
    gate = evaluate_prediction(gated(), [], at, recorded_by=at)
    assert gate.outcome_summary == ("configured event gate could not be resolved from sense evidence recorded by "
                                    "2026-07-21T00:00:00+00:00")
    silent = evaluate_prediction(prediction(), [], EXPIRES + timedelta(days=1), recorded_by=at)
    assert silent.new_status == "unverifiable" and "no stored events" not in silent.outcome_summary
    assert silent.outcome_summary.endswith("recorded by 2026-07-21T00:00:00+00:00")


def test_gate_event_stored_after_now_is_invisible() -> None:
    late_calendar = parse_sense_event({"sense_type": "gws", "event_type": "calendar_event", "title": "Paris flight",
                                       "observed_at": "2026-07-08T00:00:00Z",
                                       "metadata": {"gws": {"start": "2026-07-09T00:00:00Z"}}})
    result = evaluate_prediction(gated(), [late_calendar], datetime(2026, 7, 7, tzinfo=UTC))
    assert result.gate_time is None and result.new_status == "open"


# ---- weakening ----------------------------------------------------------------------------------------------------

def fact() -> Any:
    return parse_assertion({"subject": "Alice", "predicate": "attends_activity", "object": "Handwriting Club",
                            "object_type": "activity", "confidence": 0.95, "certainty": "confirmed",
                            "evidence": "receipt", "source_path": "Sources/clubs.md", "source_type": "payment"},
                           CHECK_AFTER - timedelta(days=30))


def missed(assertion_id: str) -> Prediction:
    pred = prediction(subject_assertion_id=assertion_id)
    now = EXPIRES + timedelta(hours=1)
    return apply_transition(pred, evaluate_prediction(pred, [event(CHECK_AFTER, "noise")], now), now)


def test_miss_weakens_once_without_demoting_the_fact() -> None:
    belief = fact()
    miss = missed(belief.id)
    assert miss.status == "missed"
    weaker = weaken_on_miss(belief, miss, EXPIRES + timedelta(hours=2))
    assert weaker is not None
    assert weaker.confidence == pytest.approx(0.76)
    assert weaker.status == "current"  # below the 0.9 write gate, still the current fact
    assert weaker.prediction_misses[0]["prediction_id"] == miss.id
    assert weaken_on_miss(weaker, miss, EXPIRES + timedelta(days=1)) is None


def test_weakening_has_a_floor_and_needs_a_linked_missed_prediction() -> None:
    belief = fact()
    weak = replace(belief, confidence=0.11)
    result = weaken_on_miss(weak, missed(belief.id), EXPIRES)
    assert result is not None and result.confidence == 0.1
    with pytest.raises(InvalidInput, match="only a missed prediction"):
        weaken_on_miss(belief, prediction(subject_assertion_id=belief.id), EXPIRES)
    with pytest.raises(InvalidInput, match="not linked"):
        weaken_on_miss(belief, missed("another-assertion"), EXPIRES)


# ---- due / watch / truth --------------------------------------------------------------------------------------------

def test_due_predictions_lists_open_rows_due_before_the_cutoff() -> None:
    soon = prediction(title="soon")
    later = prediction(title="later", check_after="2026-07-10T00:00:00Z", expires_at="2026-07-12T00:00:00Z")
    done = apply_transition(soon, evaluate_prediction(
        soon, [event(CHECK_AFTER, "school confirmation")], CHECK_AFTER), CHECK_AFTER)
    assert [p.id for p in due_predictions([later, soon], CHECK_AFTER)] == [soon.id]
    assert due_predictions([later, soon], CHECK_AFTER - timedelta(seconds=1)) == []
    cutoff = datetime(2026, 7, 11, tzinfo=UTC)
    assert [p.id for p in due_predictions([later, soon, done], CHECK_AFTER, before=cutoff)] == [soon.id, later.id]


def test_watch_radar_flags_due_soon_predictions_without_evidence() -> None:
    pred = prediction()
    now = CHECK_AFTER - timedelta(hours=12)
    [item] = watch_radar([pred], [], now, timedelta(days=1))
    assert item.to_dict()["summary"] == "Expected confirmation by 2026-07-03T00:00:00+00:00; no md evidence yet."
    assert watch_radar([pred], [], now, timedelta(hours=6)) == []
    hit = event(CHECK_AFTER + timedelta(hours=1), "school confirmation")
    assert watch_radar([pred], [hit], CHECK_AFTER + timedelta(hours=2), timedelta(days=1)) == []
    assert watch_radar([pred], [], EXPIRES + timedelta(hours=1), timedelta(days=1)) == []
    quiet = prediction(prediction_type="no_news_expected")
    assert watch_radar([quiet], [], now, timedelta(days=1)) == []
    with pytest.raises(InvalidInput):
        watch_radar([pred], [], now, timedelta(days=-1))
    assert len(watch_radar([pred], [], now, timedelta.max)) == 1


def test_prediction_truth_policy_replays_the_status_at_as_of() -> None:
    belief_id = "wsa-9"
    miss = missed(belief_id)
    assert truth_policy_for_prediction(miss, EXPIRES + timedelta(days=1)) == "missed_prediction"
    assert truth_policy_for_prediction(miss, CHECK_AFTER) == "open_prediction"
    assert truth_policy_for_prediction(prediction(), CHECK_AFTER) == "open_prediction"


def test_prediction_row_round_trip() -> None:
    miss = missed("wsa-1")
    row = json.loads(json.dumps(miss.to_row()))
    assert Prediction.from_row(row) == miss


# ---- "any" means any (the default min_score never asks more than the hard criteria) --------------------------------

def test_one_hit_of_a_long_any_list_passes_the_default_min_score_and_a_higher_one_asks_for_more() -> None:
    from mnemon.core.world.match import effective_min_score, score_floor

    terms = ["lease", "rent", "tenancy", "landlord", "renewal", "deposit"]
    loose = prediction(match_json={"sense_type": "md", "observation_terms_any": terms})
    strict = prediction(match_json={"sense_type": "md", "observation_terms_any": terms, "min_score": 0.5})
    one_hit = event(CHECK_AFTER + timedelta(hours=1), "the landlord wrote back")
    assert score_event(loose.match, one_hit) == pytest.approx(1 / 6, abs=1e-6)
    assert effective_min_score(loose.match) == pytest.approx(1 / 6, abs=1e-6)
    assert evaluate_prediction(loose, [one_hit], EXPIRES).new_status == "confirmed"
    assert effective_min_score(strict.match) == 0.5
    missed = evaluate_prediction(strict, [one_hit], EXPIRES + timedelta(seconds=1))
    assert missed.new_status == "missed" and "scored at most 0.17, below min_score 0.5" in missed.outcome_summary
    both = parse_match({"sense_type": "md", "observation_terms_all": ["school"], "title_terms_any": ["a b", "c"]})
    assert score_floor(both.terms) == pytest.approx(2 / 4)  # "school" and the shorter term "c", of 4 tokens


def test_a_lower_min_score_is_never_stricter_than_the_default() -> None:
    from mnemon.core.world.match import effective_min_score

    terms = {"sense_type": "md", "title_terms_any": ["a", "b", "c", "d", "e", "f", "g", "h"]}
    needed = [effective_min_score(parse_match({**terms, "min_score": s})) for s in (0.0, 0.1, 0.2, 0.34, 0.35, 0.9)]
    assert needed == sorted(needed) and needed[3] == pytest.approx(1 / 8)
