"""An evidence pack moved with `note move` and the same research resolved again: a second pack appeared at the
original path, the claims' edges moved back to it and the moved pack (the person's filing of it) was left stale.
`resolve` follows the vault's move journal to the pack, rewrites it where it went and names that path."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemon.app import note_tools
from mnemon.app.memory import Mnemon

from conftest import FakeClock

CLAIM = {"subject": "Ada Quill", "predicate": "works_on", "object": "Lighthouse", "confidence": 0.95,
         "certainty": "confirmed", "source_type": "email", "evidence": "The kickoff email."}


def _research(**over: Any) -> dict[str, Any]:
    return {"slug": "staffing", "title": "Staffing", "date": "2026-04-26", "claims": [CLAIM], **over}


def test_resolving_a_moved_pack_again_rewrites_it_where_it_went(world: tuple[Mnemon, FakeClock],
                                                                 tmp_path: Path) -> None:
    mem, _ = world
    vault = str(tmp_path)
    [edge] = mem.resolve(vault, _research())["edges"]
    note_tools.move_note(vault, "Sources/2026-04-26-staffing.md", "Research/staffing.md")
    out = mem.resolve(vault, _research(unresolved=["Who leads Tidewatch?"]))
    assert out["note_path"] == "Research/staffing.md"
    assert not (tmp_path / "Sources" / "2026-04-26-staffing.md").exists()
    assert "Who leads Tidewatch?" in (tmp_path / "Research" / "staffing.md").read_text(encoding="utf-8")
    assert mem.rt.store.get_edge(edge["id"]).source_path == "Research/staffing.md"


def test_a_moved_note_that_is_no_longer_the_pack_leaves_the_original_path_free(world: tuple[Mnemon, FakeClock],
                                                                               tmp_path: Path) -> None:
    mem, _ = world
    vault = str(tmp_path)
    mem.resolve(vault, _research())
    note_tools.move_note(vault, "Sources/2026-04-26-staffing.md", "Research/staffing.md")
    (tmp_path / "Research" / "staffing.md").write_text("# My own note now\n", encoding="utf-8")
    assert mem.resolve(vault, _research())["note_path"] == "Sources/2026-04-26-staffing.md"
    assert (tmp_path / "Research" / "staffing.md").read_text(encoding="utf-8") == "# My own note now\n"


def test_a_moved_pack_resolved_without_its_belief_and_prediction_withdraws_them(world: tuple[Mnemon, FakeClock],
                                                                               tmp_path: Path) -> None:
    mem, _ = world
    vault = str(tmp_path)
    belief = {"subject": "Lighthouse", "predicate": "based_in", "object": "Lisbon", "confidence": 0.95,
              "certainty": "confirmed", "source_type": "email", "evidence": "The office lease."}
    prediction = {"title": "Kickoff happens", "match_json": {"sense_type": "gws", "observation_terms_all": ["kickoff"]},
                  "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z"}
    first = mem.resolve(vault, _research(assertions=[belief], predictions=[prediction]))
    note_tools.move_note(vault, "Sources/2026-04-26-staffing.md", "Research/staffing.md")
    out = mem.resolve(vault, _research())
    assert out["withdrawn_assertions"] == [first["assertions"][-1]["id"]]
    assert out["withdrawn_predictions"] == [first["predictions"][0]["prediction"]["id"]]
