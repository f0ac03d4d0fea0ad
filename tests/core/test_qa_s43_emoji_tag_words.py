"""An emoji in a tag or an entity is a keyword too: the keyword index's tags and entities columns held "🔥" as it
was written, which both FTS5 (unicode61) and PostgreSQL's copy of it drop as a separator, so `recall "🔥"` never
reached a memory tagged 🔥. A tag or an entity now spells each emoji as the body does (`core.keywords.index_term`:
its parts and the whole, unstyled, in ASCII); everything else in it is indexed exactly as before."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.core import text
from mnemon.core.keywords import index_term, keyword_text, keyword_words
from mnemon.core.text import folded
from mnemon.ports.store.postgres_index import fts_words

FIRE = index_term("🔥")


def test_an_emoji_tag_is_indexed_as_the_body_spells_it() -> None:
    assert keyword_words(["🔥", "urgent"]) == f"{FIRE} urgent"
    assert keyword_words(json.dumps(["🔥", "urgent"])) == f"{FIRE} urgent"  # (the JSON column, as removal reads it)
    assert fts_words(keyword_words(["🔥"])) == [FIRE]  # (PostgreSQL splits the column as FTS5 does)


SCOTLAND = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"


@pytest.mark.parametrize("emoji", ["🚀", "👍🏽", "⚠️", "✅", "👩\u200d💻", "🇫🇷", "1️⃣", SCOTLAND])
def test_a_tag_holds_the_words_a_body_holds_for_its_emoji(emoji: str) -> None:
    assert keyword_words([emoji]).split() == keyword_text(None, emoji, "user", None).split()


@pytest.mark.parametrize(("value", "words"), [
    ("hot🔥", ["hot", FIRE]), ("Team 🚀", ["team", index_term("🚀")]), ("Zoë ✅", ["zoe", index_term("✅")]),
    ("release-2.0 🎉", ["release", "2", "0", index_term("🎉")]),
])
def test_the_words_beside_an_emoji_in_a_tag_are_indexed_as_before(value: str, words: list[str]) -> None:
    assert fts_words(keyword_words([value])) == words


# Tags and entities without an emoji (but with characters beside emoji: a lone skin tone, arrows, symbols, joiners)
_NO_EMOJI = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\u20e3").filter(
    lambda ch: text.EMOJI.search(ch) is None), max_size=30)
_NEAR_EMOJI = st.lists(st.sampled_from(["Zoë", "v2.3.1", "東京", "a\u200db", "1\ufe0f", "→", "™", "㊗", "🏽",
                                        "\U0001f10b", "\ufe0f\u200d", "C#", "İzmir"]), max_size=4).map(" ".join)


@given(st.lists(st.one_of(_NO_EMOJI, _NEAR_EMOJI), max_size=4))
def test_a_tag_without_emoji_is_indexed_as_before(values: list[str]) -> None:
    assert keyword_words(values) == " ".join(map(folded, values))
    assert keyword_words(json.dumps(values)) == keyword_words(values)
