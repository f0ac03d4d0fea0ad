"""The follow-up bullet a card offers to write into the note: a Japanese sentence after "Risk:" gave the bullet
"Follow up: Risk…" (everything after the label dropped, since the sentence has no spaces), and a run of emoji was cut
inside a family emoji, writing a broken character into the user's Markdown."""
from __future__ import annotations

import regex
from hypothesis import given, settings, strategies as st

from mnemon.app.suggested_actions import follow_up_text

FAMILY = "👩\u200d👩\u200d👧\u200d👦"
JAPANESE = "東京の学校の申込締切は2026年3月1日です" * 8


def test_a_japanese_sentence_after_a_label_is_kept_up_to_the_limit() -> None:
    out = follow_up_text("Risk: " + JAPANESE)
    assert out.startswith("Risk: 東京の学校の申込締切は") and out.endswith("…")
    assert 100 <= len(out) <= 120


def test_an_emoji_run_is_cut_between_whole_emoji() -> None:
    for text in (FAMILY * 40, "Risk: " + FAMILY * 40):
        out = follow_up_text(text)
        assert out.endswith(FAMILY + "…")
        assert set(regex.findall(r"\X", out[:-1])) <= set(regex.findall(r"\X", text))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Risk:", "[[Bram Okafor]]", JAPANESE[:30], FAMILY * 9, "e\u0301" * 30, "alpha"]),
                max_size=12).map(" ".join))
def test_no_bullet_splits_a_character_or_a_wikilink(text: str) -> None:
    out = follow_up_text(text, 60)
    assert len(out) <= 62
    kept = out.removesuffix("…").rstrip()
    assert kept.count("[[") == kept.count("]]")
    assert set(regex.findall(r"\X", kept)) <= set(regex.findall(r"\X", text))
