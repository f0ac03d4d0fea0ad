"""Thai, Lao, Khmer and Burmese are written without spaces between words, as Chinese is: a whole sentence was one
token, so a word inside it ("ข้าวผัด" in "ผมชอบกินข้าวผัดที่ร้านใกล้บ้าน") found nothing. Their runs are split like
CJK runs, into overlapping pairs — of letters with their marks, so a tone mark or vowel sign is never cut off."""
from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.core.text import tokens

_SENTENCES = [("ผมชอบกินข้าวผัดที่ร้านใกล้บ้าน", "ข้าวผัด"), ("ภาษาไทยง่ายมาก", "ง่าย"),
              ("ຂ້ອຍມັກກິນເຂົ້າໜຽວ", "ເຂົ້າໜຽວ"), ("ខ្ញុំចូលចិត្តកាហ្វេ", "កាហ្វេ"),
              ("ကျွန်တော်ကော်ဖီကြိုက်တယ်", "ကော်ဖီ")]


@pytest.mark.parametrize(("sentence", "word"), _SENTENCES)
def test_a_word_inside_a_spaceless_sentence_has_its_tokens_there(sentence: str, word: str) -> None:
    assert set(tokens(word)) <= set(tokens(sentence))
    assert len(tokens(sentence)) > 1


@given(st.sampled_from([s for s, _ in _SENTENCES]))
def test_no_token_starts_with_a_mark(sentence: str) -> None:
    assert all(unicodedata.category(t[0])[0] != "M" for t in tokens(sentence))


def test_cjk_is_split_as_before() -> None:
    assert tokens("東京に行きました") == ["東京", "京に", "に行", "行き", "きま", "まし", "した"]
    assert tokens("用 Postgres 16 做存储") == ["用", "postgr", "16", "做存", "存储"]


def test_search_finds_a_thai_word_inside_a_sentence(mem) -> None:
    rice = mem.remember("ผมชอบกินข้าวผัดที่ร้านใกล้บ้าน")["id"]
    mem.remember("พรุ่งนี้ฝนจะตกหนักมาก")
    assert [hit["id"] for hit in mem.search("ข้าวผัด")["results"]] == [rice]
