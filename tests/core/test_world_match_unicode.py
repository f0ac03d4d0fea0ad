"""Prediction terms match evidence whatever its Unicode normal form: text written decomposed (macOS, many mail
clients: "e" + combining accent) matched no term typed composed, and a decomposed term lost its accent (the combining
mark is no word character, so "café" was stored as the term "cafe")."""
from __future__ import annotations

import unicodedata
from datetime import datetime, timezone

import pytest

from mnemon.core.world.match import parse_match, score_event, tokenize
from mnemon.core.world.predictions import evaluate_prediction, parse_prediction
from mnemon.core.world.senses import parse_sense_event

TEXT = "Votre commande au Café Müller est prête — 한국어 안내, Straße 5"


def nf(form: str, text: str) -> str:
    return unicodedata.normalize(form, text)


@pytest.mark.parametrize("text_form", ["NFC", "NFD"])
@pytest.mark.parametrize("term_form", ["NFC", "NFD"])
@pytest.mark.parametrize("term", ["café", "CAFÉ MÜLLER", "prête", "한국어", "strasse"])
def test_a_term_matches_the_text_in_any_normal_form(text_form: str, term_form: str, term: str) -> None:
    event = parse_sense_event({"sense_type": "gws", "observed_at": "2026-06-01T08:00:00Z",
                               "title": nf(text_form, "Commande"), "text": nf(text_form, TEXT)})
    spec = parse_match({"sense_type": "gws", "observation_terms_all": [nf(term_form, term)]})
    assert score_event(spec, event) == 1.0


def test_a_decomposed_term_keeps_its_accent() -> None:
    assert tokenize(nf("NFD", "Café")) == ("café",) == tokenize("CAFÉ")
    spec = parse_match({"sense_type": "gws", "observation_terms_all": [nf("NFD", "café")]})
    plain = parse_sense_event({"sense_type": "gws", "observed_at": "2026-06-01", "text": "cafe au lait"})
    assert score_event(spec, plain) == 0.0  # "cafe" without its accent is another word


def test_a_prediction_is_confirmed_by_decomposed_evidence() -> None:
    now = datetime(2026, 6, 5, tzinfo=timezone.utc)
    prediction = parse_prediction({"title": "Order ready", "check_after": "2026-06-01T00:00:00Z",
                                   "expires_at": "2026-06-10T00:00:00Z",
                                   "match_json": {"sense_type": "gws", "observation_terms_all": ["Café Müller"]}},
                                  datetime(2026, 5, 30, tzinfo=timezone.utc))
    event = parse_sense_event({"sense_type": "gws", "observed_at": "2026-06-02T08:00:00Z", "text": nf("NFD", TEXT)})
    assert evaluate_prediction(prediction, [event], now).new_status == "confirmed"
