"""An edge a person killed (or validated) keeps the evidence it was decided on across rebuilds — but once its note
changed, `explain-edge` showed that old line as the edge's evidence with no word that the note no longer says it:
the line edited and moved down, or the link gone from the note. The tombstone still blocks the link, and still
shows what it was killed on; `source_now` says where the link is parsed from now (its line and text), or that the
note no longer holds it, and goes once the line is back as it was."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

PLAN = "# Plan\n\nIntro.\n\n- [ ] Ship the beta to [[Bob]] on 2026-03-02\n"
EDITED = "# Plan\n\nIntro.\nA new line above.\n\n- [ ] Hand the release candidate to [[Bob]] on 2026-03-09\n"
GONE = "# Plan\n\nIntro.\nNo link any more.\n"


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Bob.md").write_text("# Bob\n\nBob.\n", encoding="utf-8")
    return vault


def _write(mem: Mnemon, vault: Path, text: str) -> None:
    (vault / "Plan.md").write_text(text, encoding="utf-8")
    mem.ingest(str(vault), embed=False)


def _link_id(mem: Mnemon) -> int:
    [edge] = [e for e in mem.rt.store.vault.edges_touching(["note:Plan.md"])  # type: ignore[attr-defined]
              if e.type == "links_to" and e.src == "note:Plan.md" and e.dst == "note:Bob.md"]
    return int(edge.id or 0)


def test_a_killed_link_says_where_its_line_is_now(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    _write(mem, vault, PLAN)
    edge_id = _link_id(mem)
    mem.kill_edge(edge_id, reason="not a real tie")
    _write(mem, vault, EDITED)
    edge = mem.explain_edge(edge_id)["edge"]
    assert edge["status"] == "killed"
    assert edge["evidence_text"] == "- [ ] Ship the beta to [[Bob]] on 2026-03-02"  # what it was killed on
    now = edge["source_now"]
    assert (now["in_note"], now["changed"], now["line"]) == (True, True, 6)
    assert now["evidence_text"] == EDITED.splitlines()[5]

    _write(mem, vault, GONE)
    edge = mem.explain_edge(edge_id)["edge"]
    assert edge["status"] == "killed" and edge["source_now"]["in_note"] is False

    _write(mem, vault, PLAN)  # the line as it was killed: nothing to say
    edge = mem.explain_edge(edge_id)["edge"]
    assert edge["status"] == "killed" and "source_now" not in edge


def test_a_validated_link_says_so_once_and_clears(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    _write(mem, vault, PLAN)
    edge_id = _link_id(mem)
    mem.validate_edge(edge_id)
    _write(mem, vault, EDITED)
    _write(mem, vault, EDITED + "\nMore text.\n")  # the same line again: no second event
    explained = mem.explain_edge(edge_id)
    assert explained["edge"]["status"] == "active" and explained["edge"]["source_now"]["line"] == 6
    assert [e["event"] for e in explained["debug_log"]].count("source_changed") == 1
    _write(mem, vault, GONE)
    _write(mem, vault, GONE + "\nStill none.\n")
    explained = mem.explain_edge(edge_id)
    assert explained["edge"]["source_now"]["in_note"] is False
    assert [e["event"] for e in explained["debug_log"]].count("source_gone") == 1
    _write(mem, vault, PLAN)
    assert "source_now" not in mem.explain_edge(edge_id)["edge"]


def test_an_edit_elsewhere_in_the_note_says_nothing(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    _write(mem, vault, PLAN)
    edge_id = _link_id(mem)
    mem.kill_edge(edge_id)
    _write(mem, vault, PLAN + "\nA closing paragraph.\n")
    assert "source_now" not in mem.explain_edge(edge_id)["edge"]


def test_a_decided_link_whose_placeholder_became_a_note_is_still_in_its_note(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    _write(mem, vault, "# Plan\n\nWaiting on [[Legal Review]] sign-off.\n")
    [edge] = [e for e in mem.rt.store.vault.edges_touching(["note:Plan.md"])  # type: ignore[attr-defined]
              if e.type == "links_to"]
    mem.validate_edge(int(edge.id or 0))
    (vault / "Legal Review.md").write_text("# Legal Review\n\nThe review.\n", encoding="utf-8")
    mem.ingest(str(vault), embed=False)  # Plan.md is relinked, its validated link moved onto the new note
    explained = mem.explain_edge(int(edge.id or 0))
    assert explained["edge"]["dst"]["id"] == "note:Legal Review.md"
    assert "source_now" not in explained["edge"]  # it said the note no longer held the link
    _write(mem, vault, "# Plan\n\nIntro.\nWaiting on [[Legal Review]] sign-off, still.\n")
    assert mem.explain_edge(int(edge.id or 0))["edge"]["source_now"]["line"] == 4


def test_a_pack_cites_a_validated_link_where_its_note_says_it_now(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    _write(mem, vault, "# Plan\n\nThe zircon launch depends on [[Bob]].\n")
    edge_id = _link_id(mem)
    mem.validate_edge(edge_id)
    now = "# Plan\n\nIntro.\n\nMore.\n\nThe zircon launch now depends on [[Bob]] and Carol.\n"
    _write(mem, vault, now)
    [item] = [i for i in mem.retrieve("zircon launch Bob")["items"] if i["id"] == f"edge:{edge_id}"]
    assert (item["text"], item["line"]) == (now.splitlines()[6], 7)  # it quoted a sentence gone from the note
    assert item["decided_on"] == {"text": "The zircon launch depends on [[Bob]].", "line": 3}
    _write(mem, vault, "# Plan\n\nThe zircon launch has no dependency any more.\n")
    [item] = [i for i in mem.retrieve("zircon launch Bob")["items"] if i["id"] == f"edge:{edge_id}"]
    assert item["in_note"] is False and item["text"] == "The zircon launch depends on [[Bob]]."


def test_a_killed_link_to_a_note_moved_with_note_move_is_still_in_its_note(mem: Mnemon, tmp_path: Path) -> None:
    from datetime import datetime, timezone

    from mnemon.app import note_tools

    vault = _vault(tmp_path)
    _write(mem, vault, "# Plan\n\nDepends on [[Bob]] heavily.\n")
    edge_id = _link_id(mem)
    mem.kill_edge(edge_id)
    note_tools.move_note(vault, "Bob.md", "Archive/Robert.md", clock=lambda: datetime(2026, 6, 1, tzinfo=timezone.utc))
    mem.ingest(str(vault), embed=False)  # the kill moves with the note; the link was rewritten to [[Robert]]
    edge = mem.explain_edge(edge_id)["edge"]
    assert (edge["status"], edge["dst"]["id"]) == ("killed", "note:Archive/Robert.md")
    assert edge["source_now"]["in_note"] is True  # it said the note no longer held the link
    assert edge["source_now"]["evidence_text"] == "Depends on [[Robert]] heavily."
