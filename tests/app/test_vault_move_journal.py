"""`note move` writes its moves down, so the next ingest keeps a renamed note's decisions (`app/vault/moves.py`)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from mnemon.app import note_tools
from mnemon.app.vault import moves

from app.test_vault_incremental import _write

HUB = "# Hub\nSee [[Plan]] and [x](../ext.md)\n- Risk: the vendor may slip\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    _write(root, {"Projects/hub.md": HUB, "plan.md": "# Plan\nsteps\n", "ext.md": "# Ext\n",
                  "other.md": "# Other\nabout [[hub]]\n"})
    return root


def _kill_hub_decisions(mem, hub: str) -> tuple[int, int]:
    store = mem.rt.store
    link = store.find_edge(hub, "note:plan.md", "links_to")
    risk = next(e for e in store.iter_edges() if e.src == hub and e.type == "has_risk")
    mem.kill_edge(link.id, reason="not that plan")
    mem.kill_edge(risk.id, reason="not a risk")
    return int(link.id), int(risk.id)


def _hub_decisions(mem, hub: str) -> tuple[str, list[str]]:
    store = mem.rt.store
    link = store.find_edge(hub, "note:plan.md", "links_to")
    risks = [e.status for e in store.iter_edges() if e.src == hub and e.type == "has_risk"]
    return link.status, risks


def test_a_note_renamed_with_its_links_rebased_keeps_its_kills(mem, vault: Path) -> None:
    # new name and new bytes (`../ext.md` → `../../ext.md`): neither the bytes nor the file name pair the notes
    mem.ingest(str(vault), embed=False)
    link_id, _risk_id = _kill_hub_decisions(mem, "note:Projects/hub.md")
    moved = note_tools.move_note(vault, "Projects/hub.md", "Archive/2025/summary.md")
    assert moved["content_changed"] and "../../ext.md" in (vault / "Archive/2025/summary.md").read_text("utf-8")
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_moved"] == 1 and out["decisions_moved"] == 2
    new = "note:Archive/2025/summary.md"
    assert _hub_decisions(mem, new) == ("killed", ["killed"])
    assert mem.rt.store.find_edge(new, "note:plan.md", "links_to").id == link_id  # its audit trail with it
    assert mem.ingest(str(vault), embed=False)["notes_read"] == 0


def test_moves_chain_and_edits_after_the_move_do_not_break_the_pairing(mem, vault: Path) -> None:
    mem.ingest(str(vault), embed=False)
    _kill_hub_decisions(mem, "note:Projects/hub.md")
    note_tools.move_note(vault, "Projects/hub.md", "Archive/summary.md")
    note_tools.move_note(vault, "Archive/summary.md", "Archive/2025/review.md")
    path = vault / "Archive/2025/review.md"
    path.write_text(path.read_text("utf-8") + "\nA line written after the move.\n", encoding="utf-8")
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_moved"] == 1
    assert _hub_decisions(mem, "note:Archive/2025/review.md") == ("killed", ["killed"])


def test_a_stale_move_of_an_earlier_note_under_that_path_pairs_nothing(mem, vault: Path) -> None:
    mem.ingest(str(vault), embed=False)
    note_tools.move_note(vault, "Projects/hub.md", "Archive/summary.md")
    mem.ingest(str(vault), embed=False)
    # another note is made under the old name, decided on, then replaced by hand with a new note elsewhere: the
    # journal's move was of the earlier note (other bytes), so this one's kills do not travel
    _write(vault, {"Projects/hub.md": "# Hub\nAnother hub for [[Plan]] and [x](../ext.md)\n- Risk: rain\n"})
    mem.ingest(str(vault), embed=False)
    _kill_hub_decisions(mem, "note:Projects/hub.md")
    (vault / "Projects/hub.md").unlink()
    _write(vault, {"Archive/2025/new.md": "# New\nSee [[Plan]] and [x](../../ext.md)\n- Risk: the road\n"})
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_moved"] == 0
    link, risks = _hub_decisions(mem, "note:Archive/2025/new.md")
    assert link != "killed" and risks == ["active"]


def test_the_journal_stays_small_and_a_broken_line_costs_only_itself(mem, vault: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    journal = vault / ".mnemon-backups" / moves.MOVES_FILE
    monkeypatch.setattr(moves, "MAX_JOURNAL_BYTES", 2_000)
    for _ in range(12):  # there and back: every move a line
        note_tools.move_note(vault, "plan.md", "Plans/plan-b.md", update_links=False)
        note_tools.move_note(vault, "Plans/plan-b.md", "plan.md", update_links=False)
    assert 0 < journal.stat().st_size <= 2_000
    assert [m["to"] for m in moves.read_moves(vault)][-2:] == ["Plans/plan-b.md", "plan.md"]
    with open(journal, "a", encoding="utf-8") as f:
        f.write("not json\n" + json.dumps({"from": 1}) + "\n")
    mem.ingest(str(vault), embed=False)
    _kill_hub_decisions(mem, "note:Projects/hub.md")
    note_tools.move_note(vault, "Projects/hub.md", "Archive/2025/summary.md")
    assert mem.ingest(str(vault), embed=False)["notes_moved"] == 1
    assert _hub_decisions(mem, "note:Archive/2025/summary.md") == ("killed", ["killed"])


def test_a_journal_behind_a_symlink_is_not_read(tmp_path: Path, vault: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / moves.MOVES_FILE).write_text(json.dumps(
        {"from": "Projects/hub.md", "to": "x.md", "from_sha256": "0", "to_sha256": "1"}) + "\n", encoding="utf-8")
    (vault / ".mnemon-backups").symlink_to(elsewhere, target_is_directory=True)
    assert moves.read_moves(vault) == []


def test_a_move_after_a_torn_journal_line_is_still_read(mem, vault: Path) -> None:
    """A process killed while appending leaves a last line without its newline: the next move was written onto it,
    both were one unreadable line, and the renamed note lost its kills."""
    journal = vault / ".mnemon-backups" / moves.MOVES_FILE
    journal.parent.mkdir(parents=True, exist_ok=True)
    journal.write_text('{"from": "plan.md", "to": "Pla', encoding="utf-8")  # cut short mid-line
    mem.ingest(str(vault), embed=False)
    _kill_hub_decisions(mem, "note:Projects/hub.md")
    note_tools.move_note(vault, "Projects/hub.md", "Archive/2025/summary.md")  # new bytes too: the journal pairs it
    assert [m["to"] for m in moves.read_moves(vault)] == ["Archive/2025/summary.md"]
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_moved"] == 1 and out["decisions_moved"] == 2
    assert _hub_decisions(mem, "note:Archive/2025/summary.md") == ("killed", ["killed"])
