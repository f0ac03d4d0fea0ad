"""Thought cards: golden SVGs per theme, escaping, theme choice, wrapping bounds, safe file names, PNG output."""
from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.errors import InvalidInput
from mnemon.render.cards import (INNER_W, badge_for, render_svg, resolve_theme, sample_thought, text_width, wrap,
                                 write_card)

GOLDEN = Path(__file__).parent / "golden"
STAMP = "2026-03-01T12:00:00.000000Z"
# read at import: the autouse fixture in conftest scrubs MNEMON_* variables before each test
UPDATE_GOLDEN = os.environ.get("MNEMON_UPDATE_GOLDEN") == "1"


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_card_matches_golden_file(theme: str) -> None:
    svg = render_svg(sample_thought(), theme=theme, generated_at=STAMP)
    golden = GOLDEN / f"card_{theme}.svg"
    if UPDATE_GOLDEN:
        golden.write_text(svg, encoding="utf-8")
    assert svg == golden.read_text(encoding="utf-8"), "card layout changed; rerun with MNEMON_UPDATE_GOLDEN=1 and look at it"


def test_card_is_well_formed_xml_and_escapes_note_text() -> None:
    thought = sample_thought()
    thought["title"] = 'Open loop: <script>alert("x")</script> & co'
    svg = render_svg(thought, generated_at=STAMP)
    root = ET.fromstring(svg)  # raises if a note's markup leaked into the document
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "<script>" in texts and "<script>" not in svg
    assert "&lt;with &amp; markup&gt;" in svg


def test_themes_differ_and_env_picks_light(monkeypatch: pytest.MonkeyPatch) -> None:
    assert render_svg(sample_thought(), theme="dark") != render_svg(sample_thought(), theme="light")
    monkeypatch.setenv("MNEMON_CARD_THEME", "light")
    assert resolve_theme(None) == "light"
    assert resolve_theme("LIGHT", {}) == "light"


@pytest.mark.parametrize(("name", "environ"), [("neon", {}), (None, {"MNEMON_CARD_THEME": "solarized"})])
def test_an_unknown_theme_is_refused_naming_the_themes(name: str | None, environ: dict[str, str]) -> None:
    # it used to draw the card dark without a word
    with pytest.raises(InvalidInput) as caught:
        resolve_theme(name, environ)
    assert "dark, light" in caught.value.message and caught.value.details["allowed"] == ["dark", "light"]
    with pytest.raises(InvalidInput):
        render_svg(sample_thought(), theme=name or "solarized")


def test_badge_classification() -> None:
    assert badge_for({"title": "Open loop: x"})[0] == "Open loop"
    assert badge_for({"title": "Deadline: y"})[0] == "Deadline"
    assert badge_for({"title": "Past due: y"})[0] == "Deadline"
    assert badge_for({"title": "z", "surface": {"source_id": "m1"}})[0] == "Surface match"
    assert badge_for({"title": "z"})[0] == "Reasoned walk"


def test_path_longer_than_the_card_shows_more_chip() -> None:
    thought = sample_thought()
    thought["path"] = [{"name": f"Node {i}", "type": "note", "via": "links_to"} for i in range(10)]
    assert "+3 more" in render_svg(thought)


def test_the_footer_names_matched_words_once_as_the_prompt_typed_them() -> None:
    """A prompt card's "why now" says "matched battery"; the footer then said "matched: batteri" (the stem) again."""
    thought = {**sample_thought(), "why_now": "matched battery, risk", "surface": {"matched_terms": ["batteri", "risk"]}}
    svg = render_svg(thought, generated_at=STAMP)
    assert "matched battery, risk" in svg and "batteri," not in svg
    no_reason = render_svg({**thought, "why_now": ""}, generated_at=STAMP)  # nothing else says what matched
    assert "matched: batteri, risk" in no_reason


def test_empty_thought_still_renders() -> None:
    ET.fromstring(render_svg({}))


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=0, max_size=400), st.integers(min_value=10, max_value=40), st.integers(min_value=1, max_value=4))
def test_wrap_respects_width_and_line_count(text: str, size: int, lines: int) -> None:
    out = wrap(text, INNER_W, size, lines)
    assert len(out) <= lines
    assert all(text_width(line, size) <= INNER_W + 1e-6 for line in out)


def test_write_card_sanitises_stamp_and_writes_png(tmp_path: Path) -> None:
    files = write_card(sample_thought(), tmp_path / "out", stamp="../../etc/passwd title", theme="dark",
                       generated_at=STAMP)
    assert files.svg.parent == tmp_path / "out"
    assert files.svg.name == "thought_etc_passwd_title.svg"
    ET.fromstring(files.svg.read_text(encoding="utf-8"))
    if files.png is None:
        pytest.skip("no rasteriser (resvg-py or ImageMagick) installed")
    assert files.png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert files.image == files.png


def test_write_card_without_png(tmp_path: Path) -> None:
    files = write_card(sample_thought(), tmp_path, stamp="x", png=False)
    assert files.png is None and files.image == files.svg and files.rasteriser is None


def test_a_statement_and_its_readable_form_are_one_evidence_line() -> None:
    from mnemon.render.cards import _evidence_lines

    thought = {"observations": ["Northwind overdue; Gull on time"],
               "evidence": ["- Northwind overdue\n- Gull on time", "Another statement"]}
    assert _evidence_lines(thought) == (["Northwind overdue; Gull on time", "Another statement"], 0)


def test_a_branching_path_is_drawn_as_branches_not_a_chain() -> None:
    """A walk that backs up at a dead end: B and C both hang on A, D on C over an edge stored D → C. The card must not
    draw B → C (no such edge), and D's arrow must point into C."""
    from mnemon.render.cards import path_links

    thought = sample_thought()
    thought["path"] = [
        {"id": "a", "name": "Project A", "type": "project"},
        {"id": "b", "name": "Waiting on the vendor", "type": "observation", "from": "a", "via": "has_blocked"},
        {"id": "c", "name": "Person C", "type": "person", "from": "a", "via": "links_to"},
        {"id": "d", "name": "Note D", "type": "note", "from": "c", "via": "links_to", "reverse": True},
    ]
    assert [(lk.parent, lk.child, lk.reverse) for lk in path_links(thought)] == [(0, 1, False), (0, 2, False),
                                                                                 (2, 3, True)]
    svg = render_svg(thought, generated_at=STAMP)
    root = ET.fromstring(svg)
    lines = [p.get("d") or "" for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("marker-end")]
    assert len(lines) == 3  # one connector per edge, none between B and C
    arcs, elbows = [d for d in lines if " Q" in d], [d for d in lines if " V" in d]
    assert len(arcs) == 2 and len(elbows) == 1
    xs = [float(c.get("cx") or 0) for c in root.iter("{http://www.w3.org/2000/svg}circle")]
    start, _, _, end, _ = (float(n) for n in re.findall(r"-?\d+", elbows[0]))
    assert xs[0] < start < xs[1] and xs[1] < end < xs[2]  # the elbow leaves A, passes over B and comes down into C
    start, _, _, _, end, _ = (float(n) for n in re.findall(r"-?\d+", arcs[1]))
    assert xs[2] < end < start < xs[3]  # the reversed edge is drawn from D's side, its arrow ending at C
    chain = render_svg({**thought, "path": [{k: v for k, v in s.items() if k not in ("from", "reverse")}
                                             for s in thought["path"]]}, generated_at=STAMP)
    assert int(root.get("height") or 0) > int(ET.fromstring(chain).get("height") or 0)  # room for the branch line


def test_control_characters_in_note_text_leave_a_well_formed_card() -> None:
    thought = {**sample_thought(), "title": "Risk: \x01 vendor\x0b audit\x1f", "insight": "a\x00b",
               "evidence": ["pasted \x08 text", "lone \ud800 surrogate"],
               "path": [{"name": "N\x02ode", "type": "note"}]}
    svg = render_svg(thought, generated_at=STAMP)
    ET.fromstring(svg)  # XML 1.0 has no escape for these: they are dropped
    assert "Risk:  vendor audit" in svg and "\x01" not in svg and "\ud800" not in svg


def test_a_rasteriser_failure_is_reported_apart_from_none_installed(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import sys
    import types

    from mnemon.render import cards

    monkeypatch.setattr(shutil, "which", lambda _name: None)  # no ImageMagick either way
    broken = types.ModuleType("resvg_py")

    def svg_to_bytes(svg_string: str) -> bytes:
        raise ValueError("not well-formed")

    broken.svg_to_bytes = svg_to_bytes  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "resvg_py", broken)
    files = write_card(sample_thought(), tmp_path, stamp="broken")
    assert files.png is None and files.rasteriser is None
    assert files.to_dict()["png_error"] == "rasterising failed: resvg-py: ValueError: not well-formed"
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # the optional extra not installed: the import fails
    files = write_card(sample_thought(), tmp_path, stamp="none")
    assert files.png is None and files.png_error == cards.NO_RASTERISER
    assert write_card(sample_thought(), tmp_path, stamp="x", png=False).png_error is None


def test_an_out_path_that_is_a_file_is_invalid_input(tmp_path: Path) -> None:
    from mnemon.core.errors import InvalidInput

    (tmp_path / "afile").write_text("x", encoding="utf-8")
    for out in (tmp_path / "afile", tmp_path / "afile" / "deeper"):
        with pytest.raises(InvalidInput):
            write_card(sample_thought(), out, stamp="x", png=False)
    assert (tmp_path / "afile").read_text(encoding="utf-8") == "x"


def test_two_cards_in_the_same_second_do_not_overwrite_each_other(tmp_path) -> None:
    """A loop or a cron job making two thoughts in one second wrote both to one file; the first answer then named
    the second card."""
    from mnemon.render.cards import sample_thought, write_card

    first = write_card({**sample_thought(), "title": "First thought"}, tmp_path, stamp="20261204_170739", png=False)
    second = write_card({**sample_thought(), "title": "Second thought"}, tmp_path, stamp="20261204_170739", png=False)
    assert first.svg != second.svg
    assert "First thought" in first.svg.read_text(encoding="utf-8")
    assert "Second thought" in second.svg.read_text(encoding="utf-8")


@pytest.mark.parametrize("text", ["東京の学校の確認を待っています" * 6, "x" * 300])
def test_a_bullet_stays_on_the_line_of_an_unspaced_statement(text: str) -> None:
    # Chinese or Japanese evidence has no spaces: the whole statement was one word too wide for the line, so the
    # bullet was left alone on the first of the two lines the band keeps
    lines = wrap("• " + text, INNER_W, 17, 2)
    assert len(lines) == 2 and lines[0].startswith("• ") and len(lines[0]) > 10
    assert all(text_width(line, 17) <= INNER_W for line in lines)


def test_the_evidence_band_shows_links_as_their_names_as_the_title_does() -> None:
    # `mneme surface --prompt "Lighthouse pilot vendor contract" --render` on the example vault: the fifth card's
    # Evidence band read "Follow-up to [[2026-03-04 Kickoff]]" where its title read "Follow-up to 2026-03-04 Kickoff"
    from mnemon.render.cards import _evidence_lines

    thought = {**sample_thought(),
               "observations": ["Follow-up to [[2026-03-04 Kickoff]]. Vendor contract signed"],
               "evidence": ["Follow-up to [[2026-03-04 Kickoff]].\n\n- Vendor contract signed",
                            "Waiting on [[People/bram-okafor|Bram]] for the ![[contract.pdf]] draft"]}
    assert _evidence_lines(thought) == (["Follow-up to 2026-03-04 Kickoff. Vendor contract signed",
                                         "Waiting on Bram for the contract.pdf draft"], 0)
    svg = render_svg(thought)
    assert "[[" not in svg and "]]" not in svg
    assert "Follow-up to 2026-03-04 Kickoff" in svg and "Waiting on Bram" in svg


SVG_NS = "{http://www.w3.org/2000/svg}"
RELATIONS = ["has_blocked", "has_risk", "has_section", "supersedes", "contains_location", "has_correction"]


def _chip_boxes(root: ET.Element) -> list[tuple[float, float, float, float]]:
    """(left, top, right, bottom) of each relation chip: a rounded rect drawn with the connector's colour."""
    return [(float(r.get("x") or 0), float(r.get("y") or 0), float(r.get("x") or 0) + float(r.get("width") or 0),
             float(r.get("y") or 0) + float(r.get("height") or 0))
            for r in root.iter(f"{SVG_NS}rect") if r.get("stroke") == "#4b5563"]


@pytest.mark.parametrize("branch", [False, True], ids=["chain", "branch"])
def test_a_seven_step_path_names_each_relation_readably(branch: bool) -> None:
    # a card whose path showed 7 steps as a chain read "has…" under every arc (a label had ≈ 60 px): which of
    # blocked, risk or section linked two steps was lost
    path = [{"id": "n0", "name": "Lighthouse", "type": "project"}]
    for i, via in enumerate(RELATIONS, 1):
        parent = "n0" if branch and i == 4 else f"n{i - 1}"
        path.append({"id": f"n{i}", "name": f"Step {i}", "type": "observation", "from": parent, "via": via})
    root = ET.fromstring(render_svg({**sample_thought(), "path": path}))
    texts = [t.text or "" for t in root.iter(f"{SVG_NS}text")]
    assert not [t for t in texts if t.startswith("has…")]
    for word in ("blocked", "risk", "section", "supersedes", "contains", "location", "correction"):
        assert any(word in t for t in texts), word
    chips = _chip_boxes(root)
    assert len(chips) == len(RELATIONS)
    circles = [(float(c.get("cx") or 0), float(c.get("cy") or 0), float(c.get("r") or 0))
               for c in root.iter(f"{SVG_NS}circle")]
    for k, (left, top, right, bottom) in enumerate(chips):
        for other in chips[k + 1:]:  # no chip covers another
            assert right <= other[0] or other[2] <= left or bottom <= other[1] or other[3] <= top
        for cx, cy, r in circles:  # nor a node: the nearest point of the chip is outside the circle
            nx, ny = min(max(cx, left), right), min(max(cy, top), bottom)
            assert (nx - cx) ** 2 + (ny - cy) ** 2 >= r * r, (left, top, right, bottom, cx, cy)
