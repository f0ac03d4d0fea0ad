"""Recall's cheaper reads of a candidate answer what the full reads answer: the checks made before a text's
hand-overs, measured values and versions are read never miss one, and a case-insensitive pattern searched
lower-cased in ASCII text finds what its flagged expression finds."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core import diff_measures, diff_slots, diff_updates
from mnemon.core.cue_words import CHANGE_SAID, MAY_CORRECT
from mnemon.core.diff_handover import _roles, hands_over, may_hand_over
from mnemon.core.lazy_regex import AsciiCaseless

_PIECES = ["Ana", "Bob Chen", "now", "NOW", "Now", "new", "New", "also", "jointly", "the", "our", "is", "was",
           "became", "has", "owner", "Owner", "lead", "leader", "manager", "maintainer", "head", "chair", "of", "for",
           "on", "owns", "OWNS", "leads", "runs", "manages", "maintains", "heads", "oversees", "chairs", "owned",
           "led", "run", "overseen", "by", "took", "taken", "takes", "taking", "over", "from", "as", "replaced",
           "replaces", "Ownership", "leadership", "management", "stewardship", "moved", "went", "shifted", "passed",
           "handed", "hands", "passes", "transferred", "transfers", "to", "pipeline", "deployment", "billing",
           "co-owns", "too", "together", "with", "since", "May", "ta\u212aen", "pa\u017f\u017fed", "n\u00f6w",
           "現在", "负责", ",", ", ", ".", ";", ":", "(", ")", " — ", " - ", "\n", "and", "but", "so", "'s", "’s"]
_TEXTS = st.lists(st.sampled_from(_PIECES), max_size=16).map(" ".join)
_JOINED = st.lists(st.sampled_from(_PIECES), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_TEXTS, _JOINED, st.text(max_size=40)))
def test_the_word_check_never_misses_a_hand_over(text: str) -> None:
    if any(role.handed_over for role in _roles(text)):
        assert may_hand_over(text), text
    assert hands_over(text) == any(role.handed_over for role in _roles(text))


def test_each_form_of_a_hand_over_passes_the_word_check() -> None:
    for text in ("Ana is now the owner of the pipeline", "Ana is the new lead for payments",
                 "Ana took over the pipeline", "Ana replaced Bob as owner of the pipeline",
                 "Ownership of the billing service moved from Alice to Bob", "Leadership of payments went to Bob",
                 "Kenji handed the CI pipeline over to Aiko", "Kenji passes the pipeline on to Aiko",
                 "Ana Ruiz now owns the deployment pipeline",
                 "The pipeline is now owned by Ana", "ANA NOW OWNS THE PIPELINE"):
        assert hands_over(text) and may_hand_over(text), text
    assert not may_hand_over("Aiko replaced the session cache with Redis")
    assert not may_hand_over("Mira moved from Lisbon to Porto")


_VALUE_PIECES = ["The", "limit", "is", "now", "250", "100", "requests", "per", "minute", "on", "Friday", "Fridays",
                 "FRIDAY", "March", "3", "3rd", "2026-03-03", "10:15", "3pm", "3 pm", "$5,000", "5k", "30s", "20%",
                 "p99", "NIM-1824", "db-1", "v20", "version", "8", "Kubernetes", "1.29", "to", "from", "at", "age",
                 "turned", "35", "years", "old", "takes", "latency", "ms", "İstanbul", "²", "５", "٣", "x²", "_7",
                 "Build", "agent", "7", "Mira's", "is", "upgraded", "Python", "3.11", "Node.js", "tank", "2",
                 ",", ", ", ".", ".5", ";", ":", "!", "?", "(", ")", "-", "\n", "'", "’"]
_LEADS = ["The standup is on", "The limit is now", "Mira turned", "The deploy takes", "Upgraded Kubernetes version",
          "We run Python", "Node.js", "The launch moved to", "p99 latency dropped to", "Budget is", "Mira's age is",
          "Invoice INV", "Build agent", "tank", "(ticket", "In Sierra we moved LedgerSync on", "It is at"]
_STATED = st.tuples(st.sampled_from(_LEADS), st.sampled_from(["", " ", "  ", "\n", "-", "(", "."]),
                    st.sampled_from(_VALUE_PIECES),
                    st.sampled_from(["", " ", "ms", " ms", "%", " years old", ".", ")"])).map("".join)
_VALUE_TEXTS = st.one_of(_STATED, st.lists(st.sampled_from(_VALUE_PIECES), max_size=14).map(" ".join),
                         st.lists(st.sampled_from(_VALUE_PIECES), max_size=10).map("".join), st.text(max_size=30))


@settings(max_examples=400, deadline=None)
@given(_VALUE_TEXTS)
def test_the_value_check_never_misses_a_measure(text: str) -> None:
    read_all = diff_measures._measures.__wrapped__.__wrapped__  # type: ignore[attr-defined]
    original = diff_measures._may_state_value
    try:
        diff_measures._may_state_value = lambda _text: True  # type: ignore[assignment]
        measured = read_all(text)
    finally:
        diff_measures._may_state_value = original  # type: ignore[assignment]
    assert read_all(text) == measured, text


@settings(max_examples=400, deadline=None)
@given(_VALUE_TEXTS)
def test_the_version_check_never_misses_a_version(text: str) -> None:
    if diff_updates._MAY_VERSION.search(text) is None:
        assert diff_updates._VERSIONED.search(text) is None, text


_CASE_PIECES = ["now", "NOW", "Now", "nOw", "also", "ALSO", "as", "well", "As Well", "in", "addition", "both",
                "raised", "RAISED", "by", "50", "$5", "went", "up", "Went  Up", "these", "days", "These\tdays",
                "in fact", "FYI", "update", "Updated", "currently", "moved", "Rolled", "out", "pushed back",
                "snow", "known", "nowhere", "_now", "now_", "2now", "now's", "now’s", "the", "limit", "is", "250",
                "现在", "也", "还", "K", "k", "\u212a", "\u017f", "ß", "İ", ",", ".", "-", "'", "\n", " "]
_CASE_TEXTS = st.one_of(st.lists(st.sampled_from(_CASE_PIECES), max_size=14).map(" ".join),
                        st.lists(st.sampled_from(_CASE_PIECES), max_size=10).map("".join), st.text(max_size=30))


@settings(max_examples=400, deadline=None)
@given(_CASE_TEXTS)
def test_a_caseless_pattern_finds_what_its_flagged_expression_finds(text: str) -> None:
    for caseless in (diff_updates._ADDED, diff_updates._DELTA, diff_slots._MARKERS):
        m = caseless.caseless.search(text)
        assert caseless.span(text) == (m.span() if m else None), text
        assert caseless.found_in(text) == (m is not None)
        assert caseless.blanked(text) == caseless.caseless.sub(" ", text), text
    for cue in (CHANGE_SAID, MAY_CORRECT):
        m = cue.search(text)
        assert cue.span(text) == (m.span() if m else None), text


def test_a_caseless_pattern_spells_its_letters_in_lower_case() -> None:
    with pytest.raises(ValueError):
        AsciiCaseless(r"\bNow\b")
    assert AsciiCaseless(r"\bnow\s+\d").span("It is NOW 5") == (6, 11)
