"""A shortened text (an excerpt, a recall result's window, a context label) was cut at a code point: inside a
family emoji (its ZWJ sequence left as a lone man and a dangling joiner), between the two halves of a flag, between
a Devanagari letter and its vowel sign, or between a letter and its accent in NFD text — the user saw a broken or
different character before the "…". Cuts now fall between user-perceived characters (grapheme clusters)."""
from __future__ import annotations

import regex
from hypothesis import given
from hypothesis import strategies as st

from mnemon.core.text import excerpt, marked_window

_PIECES = ["a", "b", " ", "é", "e\u0301", "👨\u200d👩\u200d👧", "🇩🇪", "👍🏽", "❤\ufe0f", "हि", "न्दी", "ก่", "한",
           "\u1100\u1161\u11a8", "#\ufe0f\u20e3", "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"]


def _boundaries(text: str) -> set[int]:
    ends, at = {0}, 0
    for cluster in regex.findall(r"\X", text):
        at += len(cluster)
        ends.add(at)
    return ends


def _shown(cut: str) -> str:
    return cut.removeprefix("…").removesuffix("…")


@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=30), st.integers(2, 40))
def test_an_excerpt_ends_between_graphemes(pieces: list[str], limit: int) -> None:
    text = "".join(pieces)
    flat = " ".join(text.split())
    shown = _shown(excerpt(text, limit))
    assert flat.startswith(shown)
    assert len(shown) in _boundaries(flat) or flat[len(shown):len(shown) + 1].isspace()


@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=40), st.integers(3, 30))
def test_a_marked_window_ends_between_graphemes(pieces: list[str], room: int) -> None:
    text = "".join(pieces)
    shown = _shown(marked_window(text, room, frozenset()))
    assert text.startswith(shown)
    assert len(shown) in _boundaries(text)


def test_a_family_emoji_is_kept_whole_or_left_out() -> None:
    family = "👨\u200d👩\u200d👧"
    assert excerpt(f"ab {family} cd", 6) == "ab…"
    assert excerpt("ab 🇩🇪🇫🇷 cd", 6) == "ab 🇩🇪…"


def test_stacked_marks_are_cut_rather_than_left_out() -> None:
    zalgo = "a" + "\u0301" * 200
    assert len(excerpt(zalgo, 50)) == 50
