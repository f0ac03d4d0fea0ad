"""The italic type under a path node is the note's front-matter `type`, any length: "quarterly planning meeting notes
for the harbour station project team" was drawn on one line centred on the first node and ran off the card's left
edge, over its neighbours' labels on the way."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings, strategies as st

from mnemon.render.cards import PANEL_X, WIDTH, render_svg, sample_thought, text_width

SVG = "{http://www.w3.org/2000/svg}"
LONG_TYPE = "quarterly planning meeting notes for the harbour station project team"


def _type_labels(svg: str) -> list[tuple[float, str]]:
    root = ET.fromstring(svg)
    return [(float(t.get("x") or 0), t.text or "") for t in root.iter(f"{SVG}text") if t.get("font-style") == "italic"]


def _assert_inside(svg: str) -> None:
    for x, text in _type_labels(svg):
        half = text_width(text, 13) / 2
        assert PANEL_X <= x - half and x + half <= WIDTH - PANEL_X, text
        assert half * 2 <= 150 + 1e-6, text  # no wider than the node's name above it may be


def test_a_long_front_matter_type_is_cut_to_the_node_not_run_off_the_card() -> None:
    thought = sample_thought()
    thought["path"][0]["type"] = LONG_TYPE
    svg = render_svg(thought, generated_at="2026-03-01T12:00:00Z")
    _assert_inside(svg)
    shown = next(text for _, text in _type_labels(svg) if text.startswith("quarterly"))
    assert shown.endswith("…")


@settings(max_examples=60, deadline=None)
@given(kinds=st.lists(st.text(st.sampled_from("abcWM 東京-"), max_size=90), min_size=1, max_size=9))
def test_every_type_label_stays_under_its_node(kinds: list[str]) -> None:
    thought = sample_thought()
    thought["path"] = [{"id": f"n{i}", "name": f"Node {i}", "type": kind, **({"from": f"n{i - 1}", "via": "links_to"}
                                                                            if i else {})}
                       for i, kind in enumerate(kinds)]
    _assert_inside(render_svg(thought, generated_at="2026-03-01T12:00:00Z"))
