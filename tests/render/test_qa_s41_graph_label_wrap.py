"""A graph node's DOT label is wrapped between characters a reader sees as one (`render/graph_export.py`):
`textwrap` cut a ZWJ family into lone people, a flag into two letters and an accent off its letter."""
from __future__ import annotations

import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.render.graph_export import LABEL_WIDTH, label_lines, shown

_GRAPHEME = regex.compile(r"\X")
FAMILY = "\U0001F468\u200D\U0001F469\u200D\U0001F467\u200D\U0001F466"
FLAG = "\U0001F1EF\U0001F1F5"  # Japan
E_ACUTE = "e\u0301"  # "é" written as a letter and its accent


def _clusters(text: str) -> list[str]:
    return _GRAPHEME.findall(text)


def test_a_family_emoji_is_not_cut_into_people() -> None:
    title = "Trip planning x" + FAMILY * 20
    lines = label_lines(title)
    assert "".join(lines).replace(" ", "") == shown(title).replace(" ", "")
    for line in lines:
        assert line.count(FAMILY) == line.count("\U0001F468")  # every man is in a whole family


def test_a_flag_and_an_accented_letter_stay_whole() -> None:
    for unit in (FLAG, E_ACUTE):
        lines = label_lines("x" + unit * 40)  # the "x" puts the units off textwrap's count of code points
        assert len(lines) > 1
        assert all(set(_clusters(line)) <= {"x", unit} for line in lines)
        assert all(len(_clusters(line)) <= LABEL_WIDTH for line in lines)


def test_words_still_wrap_between_words() -> None:
    assert label_lines("Chose Qdrant for vectors because it runs locally and fast") == [
        "Chose Qdrant for vectors", "because it runs locally and", "fast"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([FAMILY, FLAG, E_ACUTE, "a", "Ω", "中", " ", "-"]), max_size=120))
def test_no_line_splits_a_character_and_nothing_is_lost(parts: list[str]) -> None:
    title = "".join(parts)
    lines = label_lines(title)
    whole = set(_clusters(shown(title)))
    for line in lines:
        assert set(_clusters(line)) <= whole
        assert len(_clusters(line)) <= LABEL_WIDTH
    assert "".join(lines).replace(" ", "") == shown(title).replace(" ", "")
