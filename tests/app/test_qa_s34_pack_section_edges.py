"""A context pack that holds a note's section also listed the note's `has_section` edge to it as an item of its own,
its text the section's first line: "```bash", "%%", or the first of a long list — a second, truncated copy of the
item, paid for from the budget and read by an agent as a separate fact. An edge from a note to a section the pack
already holds is now a `duplicate_of_item`, as an observation edge to a held bullet is."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon


@pytest.fixture
def runbook(mem: Mnemon, tmp_path: Path) -> Mnemon:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Runbook.md").write_text(
        "# Runbook\n\n```bash\nsystemctl restart generator-monitor\n```\n\n"
        "Restart the generator monitor after each fuel delivery.\n", encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    return mem


def test_a_held_section_is_not_repeated_by_its_notes_edge(runbook: Mnemon) -> None:
    pack = runbook.retrieve("restart the generator monitor")
    [section] = [i for i in pack["items"] if i["id"].startswith("vault:Runbook.md:section:")]
    assert not [i for i in pack["items"] if i.get("relation") == "has_section"], pack["items"]
    [skip] = [s for s in pack["skipped"] if s["reason"] == "duplicate_of_item" and "has_section" in s["title"]]
    assert skip["duplicate_of"] == section["id"]
