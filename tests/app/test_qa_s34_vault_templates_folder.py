"""An Obsidian vault's templates folder (the Templates core plugin's `.obsidian/templates.json`, or Templater's
`templates_folder`) was ingested as notes: a template's placeholder task "Follow up with {{client}} about the
deadline" was the top proactive thought, above the vault's real dated task, and every template's `{{title}}`
heading and links went into the graph. The configured templates folders are now passed over
(`templates_folder`); a folder that merely has that name, in a vault that does not name it, is ingested."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

from app.test_vault_incremental import _write

TEMPLATE = "# {{title}}\n\n## Tasks\n- [ ] Follow up with {{client}} about the deadline\n"
REAL = "# Real\n- [ ] Call the plumber about the leak before the deadline 2026-03-09\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    _write(root, {"Templates/Meeting.md": TEMPLATE, "Meta/Templater/Daily.md": TEMPLATE, "Real.md": REAL,
                  ".obsidian/templates.json": json.dumps({"folder": "Templates/"}),
                  ".obsidian/plugins/templater-obsidian/data.json": json.dumps({"templates_folder": "Meta/Templater"})})
    return root


def test_the_configured_templates_folders_are_passed_over(mem: Mnemon, vault: Path) -> None:
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_total"] == 1
    assert {"path": "Templates", "reason": "templates_folder"} in out["skipped"]
    assert {"path": "Meta/Templater", "reason": "templates_folder"} in out["skipped"]
    texts = [c["observation"]["text"] for c in mem.candidates(limit=5)["candidates"]]
    assert texts and not any("{{" in text for text in texts)


def test_a_folder_named_templates_in_a_vault_that_does_not_name_it_is_ingested(mem: Mnemon, vault: Path) -> None:
    (vault / ".obsidian" / "templates.json").unlink()
    (vault / ".obsidian" / "plugins" / "templater-obsidian" / "data.json").write_text("not json", encoding="utf-8")
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_total"] == 3 and not [s for s in out["skipped"] if s["reason"] == "templates_folder"]
