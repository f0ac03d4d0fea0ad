"""A line a person added to a part of an evidence pack that `resolve` writes — a bullet under "## Unresolved" (as
`note add-bullet` puts it: after the payload comment), a remark under the title or under "## Claims" — vanished the
next time the same research was resolved: the pack was rewritten from the payload, the line only in a backup, the
reply saying nothing of it (sections of the user's own were already carried, `kept_sections`). Such lines are now
carried into the rewritten pack at the end of the same part and named in the reply (`kept_lines`); running the
research again changes nothing."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon

CLAIM = {"subject": "Acme", "predicate": "located_in", "object": "Porto", "confidence": 0.95, "certainty": "confirmed",
         "source_type": "document", "evidence": "The lease names the Porto warehouse."}
PAYLOAD: dict[str, Any] = {"slug": "warehouse", "title": "Warehouse", "date": "2026-05-02", "claims": [CLAIM],
                           "unresolved": ["Who signs the renewal?"], "sources_checked": ["lease"]}
MINE = ["- Ana says the landlord signs (phone, 3 May)", "Checked again after the call.", "- Depot B is in Braga?"]


def _part(text: str, heading: str) -> list[str]:
    lines = text.split("\n")
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith(("## ", "<!--"))), len(lines))
    return [line for line in lines[start:end] if line.strip()]


def test_lines_a_person_added_to_a_pack_survive_resolving_again(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    first = mem.resolve(str(vault), PAYLOAD)
    assert mem.note_add_bullet(str(vault), first["note_path"], "Unresolved", MINE[0][2:])["ok"]
    pack = vault / first["note_path"]
    text = pack.read_text(encoding="utf-8")
    text = text.replace("Resolved on 2026-05-02.\n", f"Resolved on 2026-05-02.\n{MINE[1]}\n")
    text = text.replace("\n\n## Sources checked", f"\n{MINE[2]}\n\n## Sources checked")
    pack.write_text(text, encoding="utf-8")
    again = mem.resolve(str(vault), PAYLOAD)
    text = pack.read_text(encoding="utf-8")
    assert _part(text, "## Unresolved") == ["- Who signs the renewal?", MINE[0]]
    assert _part(text, "# Warehouse") == ["Resolved on 2026-05-02.", MINE[1]]
    assert _part(text, "## Claims")[1:] == [MINE[2]]
    assert sorted(again["kept_lines"]) == sorted(MINE)
    assert text.rstrip("\n").endswith("-->")  # (add-bullet put its bullet after the payload comment: moved above it)
    assert mem.resolve(str(vault), PAYLOAD)["pack_changed"] is False
    changed = {**PAYLOAD, "unresolved": []}  # the part goes from the research: the person's line stays
    mem.resolve(str(vault), changed)
    assert _part(pack.read_text(encoding="utf-8"), "## Unresolved") == [MINE[0]]
    assert mem.resolve(str(vault), changed)["pack_changed"] is False
