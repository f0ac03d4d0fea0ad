"""A note living in a vault over weeks: renamed, moved, its links decided on. What a person decided keeps its
history as it happened — a moved decision is the same edge, created when it was first parsed, not at the move."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon


def _write(vault: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / rel).write_text(text, encoding="utf-8")


def test_a_killed_link_of_a_renamed_note_keeps_the_time_it_was_created(mem: Mnemon, tmp_path: Path) -> None:
    # SQLite stores an ingested edge's creation time as its source note's: moved to the note's new node, the killed
    # edge read as created at the move, after its kill (explain-edge listed "created" after "killed")
    vault = tmp_path / "vault"
    _write(vault, {"hub.md": "# Hub\nSee [[Plan]] and [[Bob]]\n", "plan.md": "# Plan\n", "bob.md": "# Bob\n"})
    mem.ingest(str(vault), embed=False)
    store = mem.rt.store
    killed = store.find_edge("note:hub.md", "note:plan.md", "links_to")
    validated = store.find_edge("note:hub.md", "note:bob.md", "links_to")
    mem.kill_edge(killed.id, reason="not that plan")
    mem.validate_edge(validated.id, reason="checked")
    born = store.get_edge(killed.id).created_at
    (vault / "Archive").mkdir()
    (vault / "hub.md").rename(vault / "Archive" / "hub.md")
    assert mem.ingest(str(vault), embed=False)["decisions_moved"] == 2
    for edge_id in (killed.id, validated.id):
        moved = store.get_edge(edge_id)
        assert moved.src == "note:Archive/hub.md"
        events = mem.explain_edge(edge_id)["debug_log"]
        assert events[0]["event"] == "created"
        assert [e["created_at"] for e in events] == sorted(e["created_at"] for e in events), events
    assert store.get_edge(killed.id).created_at == born
