"""Emoji are tokens: "Deploy went out 🚀 on friday" was indexed without its rocket, so `recall "🚀"` found nothing.
An emoji is its own token, spelled without the parts that only style it (a skin tone, a variation selector); a ZWJ
sequence (👩‍💻) is its parts and the whole; a flag and a keycap are one token each. The keyword index, whose
tokenizer (unicode61) drops symbols, holds each as an ASCII word (`core.keywords.index_term`). Text without emoji is
tokenised exactly as before."""
from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.core import text
from mnemon.core.keywords import index_term, keyword_text
from mnemon.core.text import token_text, tokens
from mnemon.ports.store.postgres_index import fts_words


def test_an_emoji_is_a_token_among_the_words() -> None:
    assert tokens("Deploy went out 🚀 on friday") == ["deploy", "went", "🚀", "friday"]
    assert tokens("🚀") == ["🚀"]


@pytest.mark.parametrize(("styled", "base"), [
    ("👍🏽", "👍"), ("👍🏿", "👍"), ("⚠️", "⚠"), ("⚠︎", "⚠"), ("❤️", "❤"), ("✅", "✅"), ("🏳️", "🏳"),
])
def test_a_skin_tone_or_variation_selector_matches_the_base_emoji(styled: str, base: str) -> None:
    assert tokens(styled) == tokens(base) == [base]


def test_a_zwj_sequence_is_its_parts_and_the_whole() -> None:
    coder = "👩\u200d💻"
    assert tokens(coder) == ["👩", "💻", coder]
    assert tokens("👩🏽\u200d💻") == tokens(coder)  # (a toned coder is a coder)
    kiss = "👩\u200d❤️\u200d💋\u200d👨"
    assert tokens(kiss) == ["👩", "❤", "💋", "👨", "👩\u200d❤\u200d💋\u200d👨"]


def test_a_flag_is_one_token() -> None:
    assert tokens("🇫🇷") == ["🇫🇷"]
    assert tokens("🇫🇷🇩🇪") == ["🇫🇷", "🇩🇪"]
    assert tokens("trip to 🇯🇵 in may") == ["trip", "🇯🇵", "may"]
    scotland = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"
    assert tokens(scotland) == ["🏴", scotland]  # (a tag flag is the black flag and the whole)


def test_a_keycap_is_one_token() -> None:
    assert tokens("1️⃣") == tokens("1\u20e3") == ["1\u20e3"]
    assert tokens("#️⃣ and *️⃣") == ["#\u20e3", "*\u20e3"]
    assert tokens("step 1️⃣ done") == ["step", "1\u20e3", "done"]


@pytest.mark.parametrize(("glued", "spaced"), [
    ("done✅", "done ✅"), ("✅done", "✅ done"), ("build❌failed", "build ❌ failed"),
    ("東京🚀大阪", "東京 🚀 大阪"), ("v2.3.1🔥", "v2.3.1 🔥"), ("parseConfig⚠️", "parseConfig ⚠️"),
])
def test_an_emoji_glued_to_a_word_is_its_own_token(glued: str, spaced: str) -> None:
    assert tokens(glued) == tokens(spaced)


@pytest.mark.parametrize("emoji", ["🚀", "✅", "⚠", "👩\u200d💻", "🇫🇷", "1\u20e3", "#\u20e3", "©", "👍"])
def test_the_keyword_index_holds_an_emoji_as_one_ascii_word(emoji: str) -> None:
    (token,) = [t for t in tokens(emoji) if t == emoji]
    spelled = index_term(token)
    assert spelled.isascii() and spelled.isalnum() and fts_words(spelled) == [spelled]
    assert keyword_text(None, f"shipped {emoji}", "user", None).split()[-1] == spelled


def test_token_text_is_tokens_with_emoji() -> None:
    said = "Réunion ✅ done👍🏽 🇫🇷 東京 1️⃣ 👩‍💻 v2.0"
    assert token_text(said) == " ".join(tokens(said))


def test_two_emoji_are_two_index_words() -> None:
    assert index_term("🚀") != index_term("🔥")
    assert len({index_term(t) for t in ("🇫🇷", "🇩🇪", "👩\u200d💻", "👩", "1\u20e3", "#\u20e3")}) == 6


# Code points that make an emoji (pictographs, regional indicators, the keycap mark): text without any is
# tokenised as it was before emoji were tokens.
_NO_EMOJI = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\u20e3").filter(
    lambda ch: text.EMOJI.search(ch) is None), max_size=60)
# (and characters beside them: a lone skin tone, emoji-block digits, legacy computing symbols, joiners, arrows)
_WORDS = st.lists(st.sampled_from(["Zoë's", "parseConfig", "v2.3.1", "東京に行き", "हिन्दी", "ข้าวผัด", "don't",
                                   "a\u200db", "1\ufe0f", "x\u20dd", "→", "—", "•", "√", "(", "ⓜ", "™", "㊗",
                                   "🏽", "\U0001f10b", "\U0001fb00", "\ufe0f\u200d"]),
                  max_size=8).map(" ".join)


@given(st.one_of(_NO_EMOJI, _WORDS, st.tuples(_WORDS, _NO_EMOJI).map("".join)))
def test_text_without_emoji_is_tokenised_as_before(said: str) -> None:
    with pytest.MonkeyPatch.context() as before:  # the tokenizer with no emoji step
        before.setattr(text, "EMOJI", re.compile("(?!)"))
        expected = tokens(said), token_text(said), keyword_text(None, said, "user", None)
    assert (tokens(said), token_text(said), keyword_text(None, said, "user", None)) == expected
