"""A card drawn from a note whose text has no spaces (a Japanese or Chinese note, an emoji run, a pasted hash) took
minutes: every line measured the whole text at each step of a bisection. It is read only as far as a line fits."""
from __future__ import annotations

import time

from mnemon.render.cards import render_svg, sample_thought, wrap

JAPANESE = "東京の学校の申込締切は" * 30000  # 330,000 characters, not one space
FAMILY = "👩\u200d👩\u200d👧\u200d👦" * 30000


def test_a_card_of_a_long_sentence_without_spaces_renders_at_once() -> None:
    for text in (JAPANESE, FAMILY, "e\u0301" * 150000):
        thought = {**sample_thought(), "title": text, "insight": text, "action": text, "evidence": [text],
                   "why_now": text, "source_path": text, "path": [{"name": text, "type": text}] * 3}
        started = time.process_time()
        svg = render_svg(thought, generated_at="2026-03-01T12:00:00Z")
        assert time.process_time() - started < 10  # it took 100 s and more; 0.2 s now
        assert len(svg) < 60_000  # what is drawn is what fits, not the note


def test_wrap_of_a_long_spaceless_sentence_keeps_only_the_lines_asked_for() -> None:
    lines = wrap(JAPANESE, 1020, 18, 3)
    assert len(lines) == 3 and lines[-1].endswith("…") and lines[0] == JAPANESE[:len(lines[0])]
