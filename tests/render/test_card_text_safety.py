"""What a card writes as text: never a bidi override or a control character (a U+202E made a title read backwards,
a C0 control made the file invalid XML), never a cut inside a word when a word boundary will do, and never inside a
date or a time ("Meeting 2026-1…" reads as another date)."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from hypothesis import given, settings, strategies as st

from mnemon.render.cards import INNER_W, _middle_truncate, clip, render_svg, sample_thought, text_width, wrap

SVG = "{http://www.w3.org/2000/svg}"
STAMP = "2026-03-01T12:00:00.000000Z"
# the bidi embeddings, overrides, isolates and marks, and every C0/C1 control but the whitespace ones
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
CONTROLS = "".join(chr(c) for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)])
NOT_SHOWN = re.compile(f"[{re.escape(BIDI + CONTROLS)}\ud800-\udfff\ufffe\uffff]")

# any text at all — lone surrogates, controls, overrides, private use — with the dangerous characters made likely
ANY_CHAR = st.characters(codec=None, exclude_categories=())
ANY_TEXT = st.text(st.one_of(ANY_CHAR, st.sampled_from(BIDI + CONTROLS + "<>&\"'")), max_size=120)


def _texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)  # raises on anything XML 1.0 does not allow
    return [t.text or "" for t in root.iter(f"{SVG}text")] + [root.get("aria-label") or ""]


@settings(max_examples=150, deadline=None)
@given(title=ANY_TEXT, evidence=st.lists(ANY_TEXT, max_size=3), insight=ANY_TEXT, action=ANY_TEXT, name=ANY_TEXT,
       via=ANY_TEXT, kind=ANY_TEXT, why=ANY_TEXT, src=ANY_TEXT, matched=st.lists(ANY_TEXT, max_size=2),
       theme=st.sampled_from(["dark", "light"]))
def test_any_note_text_gives_a_well_formed_card_without_controls(
        title: str, evidence: list[str], insight: str, action: str, name: str, via: str, kind: str, why: str,
        src: str, matched: list[str], theme: str) -> None:
    thought: dict[str, Any] = {
        "title": title, "evidence": evidence, "observations": evidence[:1], "insight": insight, "action": action,
        "path": [{"id": "a", "name": name, "type": kind}, {"id": "b", "name": title, "type": "note", "from": "a",
                                                            "via": via}],
        "why_now": why, "source_path": src, "surface": {"matched_terms": matched}, "score": 1.5}
    svg = render_svg(thought, theme=theme, generated_at=STAMP)
    assert NOT_SHOWN.search(svg) is None
    for text in _texts(svg):
        assert NOT_SHOWN.search(text) is None


def test_a_right_to_left_override_in_a_title_is_dropped_and_its_letters_kept() -> None:
    thought = {**sample_thought(), "title": "Invoice \u202eexe.fdp\u202c from \u2067vendor\u2069 \u200fok\x85"}
    svg = render_svg(thought, generated_at=STAMP)
    assert "\u202e" not in svg and "\u2067" not in svg and "\x85" not in svg
    assert "Invoice exe.fdp from vendor ok" in _texts(svg)


def test_other_scripts_emoji_and_joiners_are_kept_as_written() -> None:
    words = ["مرحبا بالعالم", "שלום עולם", "会议记录", "می\u200cخواهم", "👩\u200d💻", "Ærøskøbing"]
    thought = {**sample_thought(), "title": " ".join(words), "evidence": words, "observations": []}
    texts = " ".join(_texts(render_svg(thought, generated_at=STAMP)))
    for word in words:
        assert word in texts


WORD = st.one_of(st.sampled_from(["2026-10-14", "10:30", "09:05:59", "2026-01-02T10:30Z", "on", "a", "the"]),
                 st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=9))
SEPARATORS = "-/_.,;:|\\+&"
# an ISO date (with its time of day) or a time, not part of a longer run of digits
DATE_OR_TIME = re.compile(r"(?<!\d)(?:\d{4}-\d{2}-\d{2}(?:T\d{1,2}:\d{2}(?::\d{2})?Z?)?"
                          r"|\d{1,2}:\d{2}(?::\d{2})?)(?!\d)")


def _inside(text: str, cut: int) -> tuple[int, int] | None:
    """The date or time that `cut` (an index into `text`) falls strictly inside, if any."""
    return next(((m.start(), m.end()) for m in DATE_OR_TIME.finditer(text) if m.start() < cut < m.end()), None)


@settings(max_examples=300, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=60), st.sampled_from([(INNER_W, 40, True), (INNER_W, 17, False),
                                                                 (150.0, 15, False), (60.0, 13, True)]),
       st.integers(min_value=1, max_value=3))
def test_wrapped_text_is_cut_between_words(words: list[str], box: tuple[float, int, bool], max_lines: int) -> None:
    """Words that fit a line are never split, so neither is a date or a time: a line is whole words, and the "…" of
    the last one comes after a whole word (or after a separator of one, as in `Projects/…`)."""
    width, size, bold = box
    words = [w for w in words if text_width(w + "…", size, bold) <= width]  # an over-wide word must be hard-broken
    lines = wrap(" ".join(words), width, size, max_lines, bold)
    assert len(lines) <= max_lines and all(text_width(line, size, bold) <= width for line in lines)
    bare = {w.rstrip(",;:") for w in words}
    for n, line in enumerate(lines):
        shown = line.removesuffix("…").split()
        for i, word in enumerate(shown):
            if word in words or word.rstrip(",;:") in bare:
                continue
            last = n == len(lines) - 1 and i == len(shown) - 1 and line.endswith("…")
            assert last and word[-1] in SEPARATORS and any(w.startswith(word) for w in words), (words, lines)
            assert not any(_inside(w, len(word)) for w in words if w.startswith(word)), (words, lines)


def test_a_title_is_not_cut_inside_a_time_or_a_date() -> None:
    title = ("Open loop: the landlord still has not confirmed the handover of the flat at 10:30 on 2026-10-14 with "
             "Alex and the agent")
    lines = wrap(title, INNER_W, 40, 2, bold=True)
    assert lines[-1].endswith("…") and not re.search(r"\d…$", lines[-1]), lines
    texts = _texts(render_svg({**sample_thought(), "title": title}, generated_at=STAMP))
    assert not any(re.search(r"\b(?:10:3|2026-1)…", t) for t in texts)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(WORD, st.sampled_from(["/", "-", "_", " "])), min_size=1, max_size=40).map("".join),
       st.integers(min_value=12, max_value=80))
def test_clipping_and_middle_truncation_keep_dates_and_times_whole(text: str, limit: int) -> None:
    """`clip` keeps a head, `_middle_truncate` a head and a tail: none ends or starts inside a date or a time, unless
    that date is all the room there is (a text that opens, or ends, with one longer than the limit)."""
    flat = " ".join(text.split())
    out = clip(text, limit)
    assert len(out) <= limit
    if out != flat:
        head = out.removesuffix("…")
        assert flat.startswith(head)
        assert (_inside(flat, len(head)) or (0, 0))[0] == 0, (flat, out)
    middle = _middle_truncate(flat, limit)
    assert len(middle) <= limit
    if middle != flat:
        head, tail = middle.split("…")
        assert flat.startswith(head) and flat.endswith(tail)
        assert (_inside(flat, len(head)) or (0, 0))[0] == 0, (flat, middle)
        assert (_inside(flat, len(flat) - len(tail)) or (0, len(flat)))[1] == len(flat), (flat, middle)


def test_a_thought_title_keeps_its_date_or_drops_it() -> None:
    from mnemon.app.thoughts import compose

    text = "Waiting on the landlord to confirm the handover: meeting 2026-10-14 at the flat"
    title = compose([], text, "blocked", "Move")["title"]
    assert title == "Open loop: Waiting on the landlord to confirm the handover: meeting…"
    assert clip("Meeting 2026-10-14 with the landlord", 14) == "Meeting…"
    assert _middle_truncate("Journal/2026/2026-10-14 meeting with the landlord.md", 30).endswith("landlord.md")
