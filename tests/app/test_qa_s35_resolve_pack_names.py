"""An evidence pack wrote a claim's subject and object, certainty and source type as given: a name holding a line
break started a heading of its own in the pack ("Ada Quill\\n## Notes" made a "## Notes]] works on …" section),
which the next run of the same research kept as a section the user had written — a copy more at every run, the
pack never the same twice; "Acme]] and [[Evil" linked the pack to an "Evil" note; a "<!--" hid every later line.
Each is now written on the claim's one line: folded, a comment opener escaped, and a name a wikilink cannot hold
(brackets, '|', '#', '^') as plain text with its brackets escaped."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.resolve import render_pack, validate_payload
from mnemon.core.vault.parser import WIKILINK, blank_comments

ODD = [("Ada Quill\n## Notes", "Lighthouse", "confirmed", "email"),
       ("Acme]] and [[Evil", "Lighthouse", "confirmed\n- a bullet", "email"),
       ("Gull <!-- Electronics", "Harbour %% Station", "likely", "call <!-- notes")]


def _research(rows: list[tuple[str, str, str, str]]) -> dict[str, Any]:
    return {"slug": "odd", "title": "Odd names", "date": "2026-04-26", "unresolved": ["Who signs?"],
            "claims": [{"subject": s, "predicate": "works_on", "object": o, "confidence": 0.95, "certainty": c,
                        "source_type": t, "evidence": f"e{i}"} for i, (s, o, c, t) in enumerate(rows)]}


def _shape(text: str) -> tuple[list[str], list[str]]:
    """The pack's `##` headings and its Claims lines, read as the parser reads them (comments blanked)."""
    body = blank_comments(text).split("\n")
    headings = [line for line in body if line.startswith("#")]
    start = body.index("## Claims") + 1
    claims = []
    for line in body[start:]:
        if not line.strip():
            break
        claims.append(line)
    return headings, claims


def test_odd_names_stay_on_their_claim_line_and_a_rerun_changes_nothing(mem: Mnemon, tmp_path: Path) -> None:
    research = _research(ODD)
    first = mem.resolve(str(tmp_path), research)
    pack = (tmp_path / first["note_path"]).read_text(encoding="utf-8")
    headings, claims = _shape(pack)
    assert headings == ["# Odd names", "## Claims", "## Unresolved"]
    assert len(claims) == 3 and all(line.startswith("- ") for line in claims)
    assert [m.group(1) for m in WIKILINK.finditer(blank_comments(pack))] == ["Lighthouse", "Lighthouse"]
    again = mem.resolve(str(tmp_path), research)
    assert again["pack_changed"] is False and "kept_sections" not in again


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(*[st.text(alphabet="ab <!-%#|^[]\n\r\t", min_size=1, max_size=16)] * 4), min_size=1,
                max_size=3))
def test_a_pack_has_one_line_per_claim_whatever_the_names(rows: list[tuple[str, str, str, str]]) -> None:
    rows = [(f"s{s}", f"o{o}", c, t) for s, o, c, t in rows]  # (a name needs a letter)
    text = render_pack(validate_payload(_research(rows)), 0.9)
    headings, claims = _shape(text)
    assert headings == ["# Odd names", "## Claims", "## Unresolved"]
    assert len(claims) == len(rows) and all(line.startswith("- ") for line in claims)
