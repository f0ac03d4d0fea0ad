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


def test_a_capped_run_that_renames_a_note_relinks_the_notes_past_its_cap(mem: Mnemon, tmp_path: Path) -> None:
    # `--max-notes 1` read the renamed note (first by path) and removed its old path, but the links of the notes past
    # the cap still named the old path's note: the next full run found nothing changed and kept them there for good
    vault = tmp_path / "vault"
    _write(vault, {"a.md": "# Budget\nnumbers\n", "hub.md": "# Hub\nSee [[Budget]]\n", "plan.md": "# Budget\nold\n"})
    mem.ingest(str(vault), embed=False)
    store = mem.rt.store
    assert store.find_edge("note:hub.md", "note:a.md", "links_to") is not None  # (a.md before plan.md)
    (vault / "a.md").rename(vault / "Archive.md")
    _write(vault, {"Archive.md": "# Archive\nnumbers\n"})  # renamed and retitled: [[Budget]] is plan.md's now
    mem.ingest(str(vault), embed=False, max_notes=1)
    mem.ingest(str(vault), embed=False)
    links = sorted((e.src, e.dst) for e in store.iter_edges() if e.type == "links_to")
    assert links == [("note:hub.md", "note:plan.md")]


def test_explain_edge_says_how_a_decided_link_found_the_note_that_appeared(mem: Mnemon, tmp_path: Path) -> None:
    # a link validated while it waited on a placeholder keeps its row (a decision is never re-parsed), so its rule
    # stayed "wikilink" without a tier and explain-edge said nothing of how it reached the note that came later
    vault = tmp_path / "vault"
    _write(vault, {"hub.md": "# Hub\nSee [[Budget]]\n"})
    mem.ingest(str(vault), embed=False)
    parked = mem.rt.store.find_edge("note:hub.md", "placeholder:budget", "links_to")
    assert mem.explain_edge(parked.id)["edge"]["link_resolution"] == {
        "key": "budget", "tier": None, "resolves_to": None, "also_matching": []}
    mem.validate_edge(parked.id, reason="the budget note is coming")
    _write(vault, {"money.md": "---\naliases: [Budget]\n---\n# Money\n"})
    mem.ingest(str(vault), embed=False)
    edge = mem.explain_edge(parked.id)["edge"]
    assert (edge["dst"]["id"], edge["status"]) == ("note:money.md", "active")
    assert edge["link_resolution"] == {"key": "budget", "tier": "alias", "resolves_to": "money.md",
                                       "also_matching": []}


def test_explain_edge_names_the_notes_a_link_passed_over_for_a_better_claim(mem: Mnemon, tmp_path: Path) -> None:
    # roadmap.md gives itself the alias "Plan" and a meeting note is titled Plan: [[Plan]] goes to plan.md (a file
    # name outranks a title or an alias), and explain-edge said "also_matching: []", as if no other note held it
    vault = tmp_path / "vault"
    _write(vault, {"plan.md": "# Steps\n", "roadmap.md": "---\naliases: [Plan]\n---\n# Roadmap\n",
                   "Meetings/monday.md": "# Plan\n", "hub.md": "# Hub\nSee [[Plan]] and [[Roadmap]]\n"})
    mem.ingest(str(vault), embed=False)
    store = mem.rt.store
    plan = mem.explain_edge(store.find_edge("note:hub.md", "note:plan.md", "links_to").id)["edge"]["link_resolution"]
    assert (plan["tier"], plan["resolves_to"], plan["also_matching"]) == ("path", "plan.md", [])
    assert plan["outranked"] == [{"path": "Meetings/monday.md", "tier": "title"},
                                 {"path": "roadmap.md", "tier": "alias"}]
    plain = mem.explain_edge(store.find_edge("note:hub.md", "note:roadmap.md", "links_to").id)["edge"]
    assert "outranked" not in plain["link_resolution"]  # (only roadmap.md holds the name)


def test_a_kill_follows_a_note_renamed_past_the_cap_of_a_capped_run(mem: Mnemon, tmp_path: Path) -> None:
    # `--max-notes 1` removed hub.md (gone from disk) but did not read zzz.md (past its cap), so neither run paired
    # them: the kill stayed on the removed note and the next full run brought the same link back undecided
    vault = tmp_path / "vault"
    _write(vault, {"a.md": "# A\n", "hub.md": "# Hub\nSee [[Plan]]\n", "plan.md": "# Plan\n",
                   "notes.md": "# Notes\nsome more about [[A]]\n"})
    mem.ingest(str(vault), embed=False)
    store = mem.rt.store
    killed = store.find_edge("note:hub.md", "note:plan.md", "links_to")
    mem.kill_edge(killed.id, reason="not that plan")
    (vault / "hub.md").rename(vault / "zzz.md")
    (vault / "notes.md").unlink()  # (a deletion no note past the cap can be the new path of still goes at once)
    capped = mem.ingest(str(vault), embed=False, max_notes=1)
    assert capped["notes_removed"] == 1 and store.get_node("note:notes.md") is None
    assert mem.ingest(str(vault), embed=False)["decisions_moved"] == 1
    links = sorted((e.id, e.src, e.dst, e.status) for e in store.iter_edges() if e.type == "links_to")
    assert links == [(killed.id, "note:zzz.md", "note:plan.md", "killed")]
