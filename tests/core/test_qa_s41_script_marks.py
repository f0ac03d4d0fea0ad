"""A word of a script written with combining marks stays one word: Devanagari and Tamil matras and virama, Arabic
harakat, Hebrew niqqud, the dot of Turkish "İ" (Thai's pairs: test_qa_s41_spaceless_scripts.py). Marks split words
("हिन्दी" was the letters ह न द, "İstanbul" lost its "i" as a stopword and left "stanbul"), so "istanbul" never
found "İstanbul" and "كتب" never found "كَتَبَ". Marks people type without — harakat, niqqud, tatweel, soft hyphens
and zero-width joiners inside a word — are folded away, as Latin accents are."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.core.text import tokens


@pytest.mark.parametrize(("written", "typed"), [
    ("İstanbul", "istanbul"), ("İSTANBUL", "Istanbul"),
    ("كَتَبَ", "كتب"), ("عـــربي", "عربي"), ("مُحَمَّد", "محمد"),
    ("שָׁלוֹם", "שלום"), ("עִבְרִית", "עברית"),
    ("Ver\u00adsicherung", "Versicherung"), ("می\u200cخواهم", "میخواهم"),
    ("ΟΔΟΣ", "οδοσ"),
])
def test_a_word_written_with_marks_is_found_as_typed_without(written: str, typed: str) -> None:
    assert tokens(written) == tokens(typed)
    assert len(tokens(written)) == 1


@pytest.mark.parametrize("word", ["हिन्दी", "தமிழ்", "ქართული", "ব্যাংক"])
def test_a_word_with_vowel_signs_is_one_word(word: str) -> None:
    assert tokens(word) == [word]


def test_words_differing_only_in_a_vowel_sign_stay_apart() -> None:
    assert tokens("काम") != tokens("कम")


@given(st.sampled_from(["हिन्दी", "ไทย", "كَتَبَ", "שָׁלוֹם", "İzmir", "Müller", "東京"]),
       st.sampled_from(["हिन्दी", "ไทย", "كَتَبَ", "שָׁלוֹם", "İzmir", "Müller", "東京"]))
def test_a_sentence_holds_the_tokens_of_its_words(first: str, second: str) -> None:
    assert tokens(f"{first} {second}") == tokens(first) + tokens(second)


def test_search_finds_each_language_by_its_plain_spelling(mem) -> None:
    texts = {"istanbul": "Wir treffen uns in İstanbul am Bosporus",
             "كتب": "كَتَبَ أحمد الرسالة إلى المدير",
             "שלום": "שָׁלוֹם לכל החברים בצוות",
             "बहन": "मेरी बहन दिल्ली में रहती है"}
    ids = {query: mem.remember(text)["id"] for query, text in texts.items()}
    mem.remember("मेरा भाई मुंबई में काम करता है")
    for query, expected in ids.items():
        assert [hit["id"] for hit in mem.search(query)["results"]] == [expected], query
