"""Every text of a thought card is readable on what it is drawn over: WCAG 2 AA contrast in both themes."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from mnemon.render.cards import NODE_COLOURS, THEMES, render_svg, sample_thought

SVG = "{http://www.w3.org/2000/svg}"
Shape = tuple[str, float, float, float, float]  # (fill, left, top, right, bottom)


def _luminance(colour: str) -> float:
    """WCAG 2 relative luminance of `#rrggbb`."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _under(shapes: list[Shape], x: float, y: float) -> str:
    """The fill of the last shape drawn that holds the point (x, y)."""
    return next(fill for fill, left, top, right, bottom in reversed(shapes)
                if left <= x <= right and top <= y <= bottom)


def _pairs(svg: str) -> list[tuple[str, str, str, float, bool]]:
    """(text, its colour, the colour under it, size, bold) for every text of a card, in drawing order."""
    shapes: list[Shape] = []
    out = []
    for node in ET.fromstring(svg).iter():
        a = node.attrib
        if node.tag == SVG + "rect" and a.get("fill", "none") != "none":
            x, y = float(a.get("x", 0)), float(a.get("y", 0))
            shapes.append((a["fill"], x, y, x + float(a["width"]), y + float(a["height"])))
        elif node.tag == SVG + "circle":
            cx, cy, r = float(a["cx"]), float(a["cy"]), float(a["r"]) * 0.7  # (the square inside the circle)
            shapes.append((a["fill"], cx - r, cy - r, cx + r, cy + r))
        elif node.tag == SVG + "text":
            size = float(a["font-size"])
            x, y = float(a["x"]), float(a["y"]) - size * 0.35  # the middle of a line of text, not its baseline
            out.append((node.text or "", a["fill"], _under(shapes, x, y), size, a.get("font-weight") == "bold"))
    return out


def _cards() -> list[dict]:
    """Cards between them showing every badge, every node colour, the no-path line and the overflow chip."""
    base = sample_thought()
    types = [*NODE_COLOURS, "unknown"]
    path = [{"name": f"Node {t}", "type": t, "via": "links_to"} for t in types]
    return [base, {**base, "title": "Deadline: invoice", "surface": {}, "why_now": ""},
            {**base, "title": "Ranked by the prompt", "surface": {"source_id": "m1"}},
            {**base, "title": "A walk", "surface": {}, "path": []}, {**base, "path": path[:9]},
            *({**base, "title": "A walk", "path": path[i:i + 7]} for i in range(0, len(path), 7))]


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_every_text_of_a_card_meets_wcag_aa_contrast(theme: str) -> None:
    """AA: 4.5:1 for body text, 3:1 for large text (24 px and up, or bold from 18.66 px: 14 pt). The light theme's
    header badge (amber on light grey, 1.5:1) and its node numbers (white on pastel) were near unreadable."""
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)  # (the formula, on WCAG's reference values)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    low = []
    for thought in _cards():
        for text, ink, under, size, bold in _pairs(render_svg(thought, theme=theme, generated_at="2026-03-01")):
            need = 3.0 if size >= 24 or (bold and size >= 18.66) else 4.5
            if contrast(ink, under) < need:
                low.append(f"{text!r} {ink} on {under}: {contrast(ink, under):.2f} < {need}")
    assert low == []
