"""An evidence pack keeps every line of a resolution whatever its texts hold: comment openers and line breaks."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from mnemon.app.vault.resolve import pack_line
from mnemon.core.vault.parser import blank_comments

RESOLUTION = {
    "slug": "vendor-call", "title": "Vendor call", "date": "2026-04-26",
    "sources_checked": ["call notes %% draft"],
    "claims": [
        {"subject": "Bram Okafor", "predicate": "belongs_to", "object": "Lighthouse", "confidence": 0.94,
         "certainty": "confirmed", "source_type": "contract",
         "evidence": "Bram said <!-- in the call that he signs"},
        {"subject": "Cleo Marsh", "predicate": "attends_activity", "object": "Safety Training", "confidence": 0.7,
         "certainty": "likely", "source_type": "email", "evidence": "Calendar invite,\n## not a heading"},
    ],
    "unresolved": ["Gull Electronics has not answered the enclosure quote."],
}


def _sections(mem, note: str) -> dict[str, str]:
    """The pack's memories by the heading they sit under."""
    pack = mem.retrieve(f"`{note}` enclosure quote Gull Electronics Cleo Safety Training call notes", budget=20000,
                        max_items=20)
    return {str(i["heading_path"][-1]): str(i["text"]) for i in pack["items"]
            if i.get("item_type") == "memory" and i.get("heading_path")}


def test_a_comment_opener_in_an_evidence_hides_nothing_after_it(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    note = mem.resolve(str(example_vault), RESOLUTION)["note_path"]
    mem.ingest(str(example_vault))
    sections = _sections(mem, note)
    # "<!--" in the first claim's evidence ran to the payload comment's "-->": the headings after it were comment,
    # so the unresolved question and the sources checked were no sections of their own, only text of "Claims"
    assert "Gull Electronics has not answered the enclosure quote." in sections.get("Unresolved", "")
    assert "call notes" in sections.get("Sources checked", "")
    assert "not a heading" not in sections
    assert "[[Safety Training]]" in sections["Claims"] and "\n## " not in sections["Claims"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="<!-%# \nab", max_size=40))
def test_a_pack_line_is_one_line_and_opens_no_comment(text: str) -> None:
    line = pack_line(text)
    assert "\n" not in line
    closed = f"{line} --> %% x %% <!-- y -->"  # whatever follows it in the pack
    assert blank_comments(closed)[:len(line)] == line
