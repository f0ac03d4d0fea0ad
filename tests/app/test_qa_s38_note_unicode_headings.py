"""QA round 38: a heading or bullet in another Unicode form is the same heading or bullet.

macOS, and the sync tools that copy its files, write "é" as "e" plus a combining accent (NFD), while a keyboard or an
agent gives the single code point (NFC). `note add-bullet --heading Café` against a note holding "## Café" in NFD
appended a second "## Café" section that no reader can tell from the first (and `note read --heading` then found
the new one); a bullet already there in the other form was added again."""
from __future__ import annotations

import unicodedata
from datetime import datetime, timezone
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app import notes
from mnemon.core.vault.parser import parse_note

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def test_add_bullet_under_a_heading_written_in_nfd(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_text(f"# N\n\n## {nfd('Café')}\n\n- a\n", encoding="utf-8")
    out = notes.add_bullet(tmp_path, "n.md", nfc("Café"), "b", clock=CLOCK)
    text = (tmp_path / "n.md").read_text(encoding="utf-8")
    assert text == f"# N\n\n## {nfd('Café')}\n\n- a\n- b\n"
    assert out["duplicate"] is False and "warnings" not in out
    assert [h.text for h in parse_note("n.md", text).headings] == ["N", nfd("Café")]


def test_read_and_upsert_find_the_nfd_heading(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_text(f"## {nfd('Über')}\nold\n", encoding="utf-8")
    assert notes.read_note(tmp_path, "n.md", heading=nfc("über"))["content"] == "old\n"
    out = notes.upsert_section(tmp_path, "n.md", nfc("Über"), "new", clock=CLOCK)
    assert out["section"] == "replaced"
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == f"## {nfd('Über')}\n\nnew\n"


def test_a_bullet_there_in_the_other_form_is_not_added_again(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_text(f"## S\n- call {nfd('José')}\n", encoding="utf-8")
    out = notes.add_bullet(tmp_path, "n.md", "S", f"call {nfc('José')}", clock=CLOCK)
    assert out["duplicate"] is True and out["changed"] is False and out["backup"] is None
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == f"## S\n- call {nfd('José')}\n"


@settings(max_examples=40, deadline=None)
@given(st.text(st.sampled_from("aeouAEOU\u00e9\u00fc\u00f1\u00c5\u1e9b\u0301\u0308 "), min_size=1, max_size=12)
       .filter(lambda s: nfc(s).strip() and not nfc(s)[0].isspace() and not unicodedata.combining(nfc(s)[0])))
def test_any_name_is_found_in_either_form(tmp_path_factory: object, name: str) -> None:
    vault = Path(getattr(tmp_path_factory, "mktemp")("v"))
    title = " ".join(nfd(name).split())
    (vault / "n.md").write_text(f"## {title}\n- a\n", encoding="utf-8")
    out = notes.add_bullet(vault, "n.md", nfc(name), "b", clock=CLOCK)
    assert out.get("warnings") is None
    assert (vault / "n.md").read_text(encoding="utf-8") == f"## {title}\n- a\n- b\n"
