"""QA round 33: `note upsert-section` content that holds headings.

An agent often sends the section with its own heading (`--heading Status --content "## Status\\nReady"`): the note
got "## Status" twice, and every later upsert found the first one, whose section ended at the second, so each run
added one more copy. Content with a heading at the section's level (or above) ends the section the same way, and
the next upsert duplicated that heading and all below it. The heading the content repeats is dropped; any other
heading that would end the section is refused, with the note left as it was."""
from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app import notes
from mnemon.core.errors import InvalidInput
from mnemon.core.vault.parser import parse_note

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731
NOTE = "# Plan\n\n## Status\nold\n\n## Next\n- n\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    (tmp_path / "p.md").write_text(NOTE, encoding="utf-8")
    return tmp_path


def _headings(vault: Path) -> list[tuple[int, str]]:
    text = (vault / "p.md").read_text(encoding="utf-8")
    return [(h.level, h.text) for h in parse_note("p.md", text).headings]


@pytest.mark.parametrize("content", ["## Status\nReady", "Status\n------\nReady", "##  status ##\n\nReady\n",
                                     "\n# Status\nReady"])
def test_content_repeating_the_section_heading_is_idempotent(vault: Path, content: str) -> None:
    for _ in range(3):
        notes.upsert_section(vault, "p.md", "Status", content, clock=CLOCK)
    assert _headings(vault) == [(1, "Plan"), (2, "Status"), (2, "Next")]
    assert (vault / "p.md").read_text(encoding="utf-8") == "# Plan\n\n## Status\n\nReady\n\n## Next\n- n\n"


def test_a_new_section_whose_content_repeats_its_heading_gets_it_once(vault: Path) -> None:
    for _ in range(2):
        out = notes.upsert_section(vault, "p.md", "Risks", "## Risks\n- battery", clock=CLOCK)
    assert out["changed"] is False
    assert _headings(vault) == [(1, "Plan"), (2, "Status"), (2, "Next"), (2, "Risks")]


@pytest.mark.parametrize("content", ["Ready\n\n## Other\n- y", "Ready\n# Top", "Ready\n\nOther\n======\n"])
def test_content_with_a_heading_that_would_end_the_section_is_refused(vault: Path, content: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        notes.upsert_section(vault, "p.md", "Status", content, clock=CLOCK)
    assert "end the section" in caught.value.message
    assert (vault / "p.md").read_text(encoding="utf-8") == NOTE  # nothing written
    assert not (vault / notes.BACKUP_DIR).exists()


def test_sub_headings_and_headings_in_code_stay_in_the_content(vault: Path) -> None:
    content = "## Status\nReady\n\n### Detail\n- d\n\n```\n## not a heading\n```"
    for _ in range(2):
        notes.upsert_section(vault, "p.md", "Status", content, clock=CLOCK)
    assert _headings(vault) == [(1, "Plan"), (2, "Status"), (3, "Detail"), (2, "Next")]
