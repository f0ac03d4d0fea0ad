"""Edge audit and lifecycle: explain-edge, promote-candidates, weaken-edge, kill/validate."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.vault.ingest import _EdgeView
from mnemon.app.vault.lifecycle import _edge_id
from mnemon.core.model import Edge
from mnemon.core.vault import promotion_plan
from mnemon.core.vault.lifecycle import evidence_blind_relations
from mnemon.core.errors import Conflict, InvalidInput, NotFound


def _first(mem, relation: str):
    return next(e for e in mem.rt.store.iter_edges() if e.type == relation)


def test_explain_edge_says_why_the_edge_exists(example_vault_mem) -> None:
    edge = _first(example_vault_mem, "links_to")
    out = example_vault_mem.explain_edge(edge.id)
    info = out["edge"]
    assert info["relation"] == "links_to" and info["relationship_type"]["category"] == "reference"
    assert info["requires_validation"] is False and info["truth_policy"] == "candidate_only"
    assert info["evidence_text"] and info["source_path"].endswith(".md") and info["rule"].startswith("wikilink")
    assert info["src"]["kind"] == "note" and info["dst"]["id"] == edge.dst
    assert out["debug_log"][0]["event"] == "created" and out["debug_log"][0]["actor"] == "ingest"


def test_explain_edge_names_the_other_notes_an_ambiguous_link_could_mean(make_mem, tmp_path: Path) -> None:
    """`[[Meeting]]` with a Meeting.md in two folders went to one of them without a word. The one in the linking
    note's folder wins, as in Obsidian; from elsewhere, the fixed rule (shallowest, then first by path)."""
    vault = tmp_path / "amb"
    for folder, title in (("Work/Meetings", "Work meeting"), ("Home/Meetings", "Home meeting")):
        (vault / folder).mkdir(parents=True)
        (vault / folder / "Meeting.md").write_text(f"# {title}\n", encoding="utf-8")
    (vault / "Work/Meetings/plan.md").write_text("# Plan\n\nSee [[Meeting]].\n", encoding="utf-8")
    (vault / "index.md").write_text("# Index\n\n[[meeting]], [[Work meeting]]\n", encoding="utf-8")
    mem = make_mem()
    mem.ingest(str(vault))
    links = {e.metadata["target"]: e for e in mem.rt.store.iter_edges() if e.type == "links_to"}
    ambiguous = mem.explain_edge(links["Meeting"].id)["edge"]["link_resolution"]
    assert ambiguous["tier"] == "stem" and ambiguous["resolves_to"] == "Work/Meetings/Meeting.md"
    assert ambiguous["also_matching"] == ["Home/Meetings/Meeting.md"] and "folder" in ambiguous["rule"]
    from_top = mem.explain_edge(links["meeting"].id)["edge"]["link_resolution"]
    assert from_top["resolves_to"] == "Home/Meetings/Meeting.md"
    assert from_top["also_matching"] == ["Work/Meetings/Meeting.md"]
    plain = mem.explain_edge(links["Work meeting"].id)["edge"]["link_resolution"]
    assert plain == {"key": "work meeting", "tier": "title", "resolves_to": "Work/Meetings/Meeting.md",
                     "also_matching": []}


def test_explain_edge_unknown_or_malformed_id_is_a_clean_error(example_vault_mem) -> None:
    with pytest.raises(NotFound):
        example_vault_mem.explain_edge(999999)
    with pytest.raises(InvalidInput):
        example_vault_mem.explain_edge("abc")


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=12))
def test_edge_ids_are_non_zero_integers_or_rejected(raw: str) -> None:
    try:
        value = _edge_id(raw)
    except InvalidInput:
        with pytest.raises((ValueError, AssertionError)):
            assert int(raw.strip()) != 0 and abs(int(raw.strip())) < 2**63
        return
    assert value != 0 and value == int(raw.strip())


def test_promote_dry_run_changes_nothing_and_all_mode_activates_provenance_only(example_vault_mem) -> None:
    before = example_vault_mem.rt.store.vault.edge_status_counts()
    dry = example_vault_mem.promote_candidates(mode="all", dry_run=True)
    assert dry["dry_run"] and dry["would_activate"] > 0 and dry["activated"] == 0
    assert example_vault_mem.rt.store.vault.edge_status_counts() == before
    assert example_vault_mem.promote_candidates(mode="validated-only", dry_run=True)["would_activate"] == 0
    done = example_vault_mem.promote_candidates(mode="all")
    assert done["activated"] == dry["would_activate"]
    assert _first(example_vault_mem, "links_to").status == "active"
    events = [e["event"] for e in example_vault_mem.rt.store.edge_events(_first(example_vault_mem, "links_to").id)]
    assert events[-1] == "active"


@pytest.mark.parametrize("mode", ["validated-only", "all"])
def test_promotion_decides_what_the_plan_over_every_candidate_read_whole_decides(example_vault_mem, mode: str) -> None:
    store = example_vault_mem.rt.store
    notes = sorted(n.id for n in store.iter_nodes(kind="note"))[:3]
    with store.transaction():
        for dst, confidence, evidence in ((notes[1], 0.95, "the pilot waits on the gateway"), (notes[2], 0.5, "x"),
                                          (notes[0], 0.95, "  ")):  # a claim without evidence stays a candidate
            store.upsert_edge(Edge(src=notes[0] if dst != notes[0] else notes[1], dst=dst, type="depends_on",
                                   confidence=confidence, status="candidate", evidence=evidence, origin="agent",
                                   metadata={"validated": True}))
    every = list(store.iter_edges(statuses=("candidate",)))  # through the `edges` view, evidence and all
    blind = evidence_blind_relations()
    assert "links_to" in blind and "depends_on" not in blind
    read = store.vault.edges_with_status("candidate", evidence_unread=blind)
    assert read == [replace(e, evidence=None) if e.type in blind else e for e in every]
    out = example_vault_mem.promote_candidates(mode=mode, dry_run=True)
    expected = promotion_plan([_EdgeView(e) for e in every], mode)  # type: ignore[arg-type]
    ends = {str(e.id): (e.src, e.dst) for e in every}
    expected.sort(key=lambda p: (p.relation, *ends[p.edge_id]))  # listed by what they join (the same on both backends)
    assert [(e["id"], e["to"], e["reasons"]) for e in out["edges"]] == \
        [(int(p.edge_id), p.to_status, list(p.reasons)) for p in expected][:200]
    assert out["considered"] == len(expected) and out["would_activate"] == sum(p.activates for p in expected)
    claims = sorted((p.to_status, "missing_evidence" in p.reasons) for p in expected if p.relation == "depends_on")
    assert out["considered"] == (3 if mode == "validated-only" else len(every))
    assert claims == [("active", False), ("candidate", False), ("candidate", True)]  # the third has no evidence


def test_weaken_halves_strength_and_demotes_below_the_floor(example_vault_mem) -> None:
    edge = _first(example_vault_mem, "has_risk")
    assert edge.status == "active"
    strengths = []
    status = "active"
    for _ in range(6):
        out = example_vault_mem.weaken_edge(edge.id, reason="not useful")
        strengths.append(out["strength"])
        status = out["status"]
    assert all(b <= a for a, b in zip(strengths, strengths[1:]))
    assert status == "candidate"
    assert example_vault_mem.explain_edge(edge.id)["debug_log"][-1]["event"] == "weakened"


def test_killed_edges_cannot_be_weakened_and_are_excluded(example_vault_mem) -> None:
    edge = _first(example_vault_mem, "has_done")
    example_vault_mem.kill_edge(edge.id, reason="wrong")
    assert example_vault_mem.explain_edge(edge.id)["edge"]["truth_policy"] == "excluded"
    with pytest.raises(InvalidInput):
        example_vault_mem.weaken_edge(edge.id)
    # validation cannot revive a tombstone either, and says so as an error (an agent reads exit codes)
    with pytest.raises(Conflict, match="killed_tombstone_blocks_recreation"):
        example_vault_mem.validate_edge(edge.id)
    assert example_vault_mem.explain_edge(edge.id)["edge"]["status"] == "killed"


def test_relationship_types_are_seeded(example_vault_mem) -> None:
    vault = example_vault_mem.rt.store.vault
    assert vault.relationship_type_count() >= 17
    assert vault.relationship_type("located_in")["transitive"] is True
    assert vault.relationship_type("belongs_to")["requires_validation"] is True
    assert vault.relationship_type("links_to")["inverse"] == "linked_from"


def test_ingested_edges_store_no_event_rows_yet_explain_their_creation(example_vault_mem) -> None:
    assert example_vault_mem.rt.store.conn.execute("SELECT COUNT(*) FROM edge_events").fetchone()[0] == 0
    for relation, reason in (("links_to", "parsed_provenance_stays_candidate"),
                             ("has_blocked", "source_contained_observation")):
        created = example_vault_mem.explain_edge(_first(example_vault_mem, relation).id)["debug_log"][0]
        assert created["event"] == "created" and created["actor"] == "ingest"
        assert created["thinking"]["rule"] and reason in created["thinking"]["reasons"]


def test_a_weakening_survives_a_reparse_and_promotion_does_not_undo_it(mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a.md").write_text("# A\nsee [[B]]\n", encoding="utf-8")
    (vault / "b.md").write_text("# B\nb\n", encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    link = mem.rt.store.find_edge("note:a.md", "note:b.md", "links_to")
    assert link is not None and link.status == "candidate"
    weakened = mem.weaken_edge(link.id, factor=0.05, reason="barely related")["strength"]
    (vault / "a.md").write_text("# A\nsee [[B]]\n\nmore text\n", encoding="utf-8")
    assert mem.ingest(str(vault), embed=False)["notes_read"] == 1
    again = mem.rt.store.get_edge(link.id)
    assert again is not None and again.weight == weakened and again.status == "candidate"  # the person's call stands
    out = mem.promote_candidates(mode="all")
    row = next(e for e in out["edges"] if e["id"] == link.id)
    assert row["to"] == "candidate" and "strength_below_0.1" in row["reasons"]
    assert mem.rt.store.get_edge(link.id).status == "candidate"


def test_a_validation_keeps_its_reason_in_the_audit_trail(example_vault_mem) -> None:
    edge = _first(example_vault_mem, "links_to")
    example_vault_mem.validate_edge(edge.id, reason="checked against the meeting notes")
    example_vault_mem.kill_edge(edge.id, reason="the meeting notes were wrong")
    log = example_vault_mem.explain_edge(edge.id)["debug_log"]
    reasons = {e["event"]: e["thinking"].get("reason") for e in log}
    assert reasons["validated"] == "checked against the meeting notes"
    assert reasons["killed"] == "the meeting notes were wrong"


def _promoted(mem) -> dict[int, tuple[str, str, str]]:
    """Every edge made active by `promote-candidates --mode all`, by id."""
    mem.promote_candidates(mode="all")
    return {int(e.id): (e.src, e.dst, e.type) for e in mem.rt.store.iter_edges() if e.metadata.get("promoted")}


def test_a_promotion_is_recorded_apart_from_a_validation(example_vault_mem) -> None:
    promoted = _promoted(example_vault_mem)
    assert promoted
    info = example_vault_mem.explain_edge(next(iter(promoted)))["edge"]
    assert info["status"] == "active" and info["promoted"] == "all" and info["validated"] is False
    assert example_vault_mem.explain_edge(_first(example_vault_mem, "has_risk").id)["edge"]["promoted"] is None


def test_a_promotion_survives_editing_and_moving_notes(example_vault_mem, example_vault: Path) -> None:
    """Editing a note and ingesting again set its promoted edges back to candidate (a `reparsed` event), and moving
    a note did the same to the links of other notes into it: a promotion was undone by any rebuild."""
    mem = example_vault_mem
    promoted = _promoted(mem)
    link = mem.rt.store.find_edge("note:People/ada-quill.md", "note:People/bram-okafor.md", "links_to")
    assert link is not None and int(link.id or 0) in promoted
    ada = example_vault / "People" / "ada-quill.md"
    ada.write_text(ada.read_text(encoding="utf-8") + "- one more line\n", encoding="utf-8")
    assert mem.ingest(str(example_vault))["notes_read"] == 1
    again = mem.rt.store.get_edge(int(link.id or 0))
    assert again is not None and again.status == "active" and again.metadata["promoted"] == "all"
    assert "reparsed" not in [e["event"] for e in mem.rt.store.edge_events(int(link.id or 0))]
    inbound = [e for e in mem.rt.store.iter_edges() if e.dst == "note:People/cleo-marsh.md" and e.type == "links_to"]
    assert inbound and all(e.status == "active" for e in inbound)
    (example_vault / "Team").mkdir()
    (example_vault / "People" / "cleo-marsh.md").rename(example_vault / "Team" / "cleo-marsh.md")
    assert mem.ingest(str(example_vault))["notes_moved"] == 1
    moved = {int(e.id or 0): e for e in mem.rt.store.iter_edges() if e.dst == "note:Team/cleo-marsh.md"}
    assert {e.id for e in inbound} <= set(moved) and all(e.status == "active" for e in moved.values())
    # only what the edit made anew (the edited section) is a candidate: nothing promoted went back to one, and the
    # moved note's bullets and headings kept theirs (a bullet's date link moved with the bullet)
    candidates = [e for e in mem.rt.store.iter_edges(statuses=("candidate",))]
    assert not {int(e.id or 0) for e in candidates} & set(promoted)
    assert [e.src for e in candidates] == ["note:People/ada-quill.md"]
    assert not [e for e in mem.rt.store.iter_edges() if "People/cleo-marsh.md" in e.src + e.dst]


def test_a_promoted_edge_goes_with_the_section_an_edit_replaced(example_vault_mem, example_vault: Path) -> None:
    """A promotion applies to what the parse made: an edit that rewrites a section leaves no active edge pointing at
    the old section kept as a deleted row."""
    mem = example_vault_mem
    _promoted(mem)
    ada = example_vault / "People" / "ada-quill.md"
    ada.write_text(ada.read_text(encoding="utf-8") + "- one more line\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    ends = {end for e in mem.rt.store.iter_edges(statuses=("active", "candidate")) for end in (e.src, e.dst)
            if end.startswith(("vault:People/ada-quill.md:", "heading:People/ada-quill.md#"))}
    rows = mem.rt.store.get_nodes(sorted(ends))  # (deleted rows too)
    assert ends and not [end for end in ends if end not in rows or rows[end].deleted_at]
