"""A card's text stays inside its panel: the width estimate took `<`, `=`, `+`, `#` and `~` (0.838 em in DejaVu Sans)
for 0.61 em and `O`, `Æ`, `Œ`, `Ж` for capitals of 0.68 em, so a note line of "=====", "<<<>>>" or "ÆŒÆŒ" ran off the
card's right edge."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.render.cards import INNER_W, text_width, wrap

# advance widths in em of DejaVu Sans (regular, bold), the card's first font, read from its 2.37 TTF files
DEJAVU = {
    "<": (0.838, 0.838), "=": (0.838, 0.838), "+": (0.838, 0.838), "#": (0.838, 0.838), "~": (0.838, 0.838),
    "&": (0.780, 0.872), "%": (0.950, 1.002), "O": (0.787, 0.850), "Q": (0.787, 0.850), "W": (0.989, 1.103),
    "m": (0.974, 1.042), "t": (0.392, 0.478), "!": (0.401, 0.456), "[": (0.390, 0.457), " ": (0.318, 0.348),
    "a": (0.613, 0.675), ";": (0.337, 0.400), "'": (0.275, 0.306), ",": (0.318, 0.380), "s": (0.521, 0.595),
    "e": (0.615, 0.678), "é": (0.615, 0.678), "Æ": (0.974, 1.085), "Œ": (1.070, 1.167),
    "æ": (0.982, 1.048), "Ж": (1.077, 1.224), "Щ": (1.094, 1.326), "М": (0.863, 0.995), "…": (1.0, 1.0),
    "—": (1.0, 1.0), "•": (0.590, 0.639), "“": (0.518, 0.657), "✓": (0.838, 0.838), "❤": (0.838, 0.838),
}


def real_width(text: str, size: float, bold: bool) -> float:
    return sum(DEJAVU[ch][bold] for ch in text) * size


@settings(max_examples=200, deadline=None)
@given(ch=st.sampled_from(sorted(DEJAVU)), size=st.sampled_from([13, 14, 15, 17, 18, 40]), bold=st.booleans())
def test_no_character_is_estimated_narrower_than_it_is_drawn(ch: str, size: int, bold: bool) -> None:
    assert text_width(ch * 40, size, bold) >= real_width(ch * 40, size, bold) - 1e-6


@settings(max_examples=100, deadline=None)
@given(text=st.text(st.sampled_from(sorted(DEJAVU)), min_size=1, max_size=400), size=st.sampled_from([17, 18, 40]),
       bold=st.booleans())
def test_wrapped_lines_fit_the_band_as_drawn(text: str, size: int, bold: bool) -> None:
    for line in wrap(text, INNER_W, size, 3, bold=bold):
        assert real_width(line, size, bold) <= INNER_W


def test_a_line_of_equals_signs_in_a_note_stays_inside_the_evidence_band() -> None:
    lines = wrap("• " + "=" * 200, INNER_W, 17, 2)
    assert all(real_width(line, 17, False) <= INNER_W for line in lines)


def test_plain_prose_still_fills_most_of_a_line() -> None:
    prose = "a team meets at a tea estate; mate, eat at a mate's " * 8
    first = wrap(prose, INNER_W, 18, 3)[0]
    assert real_width(first, 18, False) >= 0.85 * INNER_W
