"""Where a card cuts text that has no spaces or is made of multi-character letters: never inside a user-perceived
character (a family emoji broke into lone people and a dangling joiner, a flag pair re-paired into another country's
flag, an accent moved to the start of the next line), and between two ideographs or emoji as readily as between
words (a title "Risk: <Japanese sentence>" read "Risk…")."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import regex
from hypothesis import given, settings, strategies as st

from mnemon.render.cards import _middle_truncate, clip, render_svg, sample_thought, wrap

SVG = "{http://www.w3.org/2000/svg}"
FAMILY = "👩\u200d👩\u200d👧\u200d👦"
FLAGS = "🇯🇵🇫🇷"  # Japan, France: cut between the two, and the halves pair into other flags
ACCENTED = "e\u0301"  # e and a combining acute accent
CLUSTERS = [FAMILY, "🇯🇵", "🇫🇷", ACCENTED, "👍🏽", "❤\ufe0f", "東", "京", "a", "b", "Ω"]
JAPANESE = "東京の学校の申込締切は2026年3月1日です" * 3


def graphemes(text: str) -> list[str]:
    return regex.findall(r"\X", text)


def assert_whole_graphemes(source: str, shown: str) -> None:
    """Every character `shown` draws is one the source has: no part of one, no two halves of others."""
    allowed = set(graphemes(source)) | {" ", "…"}
    assert set(graphemes(shown)) <= allowed, (source, shown)


CLUSTER_TEXT = st.lists(st.one_of(st.sampled_from(CLUSTERS), st.just(" ")), min_size=1, max_size=80).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=CLUSTER_TEXT, width=st.integers(20, 400), lines=st.integers(1, 3))
def test_wrap_never_splits_a_character_a_reader_sees_as_one(text: str, width: int, lines: int) -> None:
    for line in wrap(text, width, 18, lines):
        assert_whole_graphemes(text, line)


@settings(max_examples=200, deadline=None)
@given(text=CLUSTER_TEXT, limit=st.integers(2, 60))
def test_clip_and_middle_truncation_never_split_a_character(text: str, limit: int) -> None:
    assert_whole_graphemes(text, clip(text, limit))
    assert_whole_graphemes(text, _middle_truncate(text, limit))


def test_a_family_emoji_run_wraps_between_families() -> None:
    for line in wrap(FAMILY * 40, 300, 18, 3):
        assert line.rstrip("…").endswith(FAMILY) and line.startswith(FAMILY)


def test_flags_keep_their_pairs_when_wrapped() -> None:
    assert all(len(line.rstrip("…")) % 2 == 0 for line in wrap(FLAGS * 40, 300, 18, 3))


def test_a_japanese_sentence_after_a_label_is_clipped_near_the_limit_not_at_the_label() -> None:
    clipped = clip("Risk: " + JAPANESE, 60)
    assert clipped.startswith("Risk: 東京の学校") and clipped.endswith("…")
    assert len(clipped) >= 50


def test_an_emoji_run_after_a_label_is_clipped_near_the_limit() -> None:
    clipped = clip("Risk: " + FAMILY * 30, 60)
    assert clipped.startswith("Risk: " + FAMILY) and len(clipped) >= 50
    assert_whole_graphemes(FAMILY, clipped.removeprefix("Risk: "))


def test_a_card_draws_only_whole_characters_of_its_note() -> None:
    evidence = [FAMILY * 40, FLAGS * 60, ACCENTED * 150, JAPANESE]
    thought = {**sample_thought(), "title": "Risk: " + FAMILY * 40, "evidence": evidence, "observations": [],
               "insight": " ".join(evidence), "action": FLAGS * 50}
    root = ET.fromstring(render_svg(thought, generated_at="2026-03-01T12:00:00Z"))
    drawn = [node.text or "" for node in root.iter(f"{SVG}text")]
    assert any(FAMILY in text for text in drawn) and any(JAPANESE[:8] in text for text in drawn)
    for text in drawn:
        shown = "".join(g for g in graphemes(text) if not g.isascii() and g not in "•“”—·")
        assert_whole_graphemes("Risk: " + " ".join(evidence), shown)
