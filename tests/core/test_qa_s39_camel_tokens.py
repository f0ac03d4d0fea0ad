"""camelCase identifiers are their words and themselves; plural acronyms and long letter runs are left whole."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.core.text import stem, token_text, tokens


def _stems(*words: str) -> list[str]:
    return [stem(w) for w in words]


def test_a_camel_case_word_gives_its_words_then_itself() -> None:
    assert tokens("parseConfig") == _stems("parse", "config", "parseconfig")
    assert tokens("HTTPServer") == _stems("http", "server", "httpserver")
    assert tokens("parseHTTPResponse") == _stems("parse", "http", "response", "parsehttpresponse")
    assert tokens("base64Encode") == _stems("base64", "encode", "base64encode")
    assert set(tokens("OrderService.reserve_stock")) >= set(_stems("order", "service", "reserve", "stock"))


def test_snake_and_camel_spellings_share_every_word_of_the_snake_one() -> None:
    assert set(tokens("load_user_profile")) <= set(tokens("loadUserProfile"))


def test_words_that_only_look_camel_stay_whole() -> None:
    assert tokens("PDFs IDs URLs E0425 TS2322 ECONNREFUSED") == _stems("pdfs", "ids", "urls", "e0425", "ts2322",
                                                                     "econnrefused")
    assert tokens("aB" * 40) == ["ab" * 40]  # no identifier: a key or a hash
    assert tokens("don'tStop") == [stem("don'tstop")]
    assert tokens("parseConfig's value") == _stems("parse", "config", "parseconfig", "value")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aZb_'. 9Xq", max_size=40))
def test_identifier_like_text_keeps_every_word_it_has_in_lower_case(value: str) -> None:
    assert token_text(value) == " ".join(tokens(value))
    assert set(tokens(value.lower())) <= set(tokens(value))  # "parseconfig" finds "parseConfig" as before
