"""Vault ingestion on the shipped example vault: graph shape, link resolution, incremental rebuilds, symlink safety,
tombstones surviving rebuilds, recall over vault knowledge."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from mnemon.app.vault.ingest import walk_vault
from mnemon.core.errors import NotFound
from mnemon.core.keywords import embedding_text_of
from mnemon.core.text import tokens
from mnemon.ports.store.sqlite import SQLiteStore

from conftest import EXAMPLE_VAULT
from keyword_index_check import assert_index_matches_rows



def _edges(mem, relation: str, src: str | None = None) -> list:
    rows = [e for e in mem.rt.store.iter_edges() if e.type == relation]
    return [e for e in rows if src is None or e.src == src]


def test_notes_links_and_aliases_resolve_to_the_named_note(mem, example_vault: Path) -> None:
    out = mem.ingest(str(example_vault))
    assert out["notes_read"] == 13 and out["notes_total"] == 13
    lighthouse = "note:Projects/lighthouse.md"
    targets = {e.dst: e for e in _edges(mem, "links_to", lighthouse)}
    # [[Ada Quill|Ada]] by title, [[Meetings/… Kickoff#Action items|…]] by path, markdown link by relative path
    assert "note:People/ada-quill.md" in targets
    assert targets["note:Meetings/2026-03-04 Kickoff.md"].metadata["section"] == "Action items"
    assert "note:Decisions/2026-02-choose-lora.md" in targets
    assert targets["note:Decisions/2026-02-choose-lora.md"].rule == "markdown_link:path"
    # [[Bram]] is a front-matter alias of Bram Okafor
    kickoff = {e.dst: e.rule for e in _edges(mem, "links_to", "note:Meetings/2026-03-04 Kickoff.md")}
    assert kickoff["note:People/bram-okafor.md"] == "wikilink:alias"
    # a link to a note that does not exist yet parks on a placeholder
    assert "placeholder:budget 2026" in targets
    note = mem.rt.store.get_node(lighthouse)
    assert note.kind == "note" and note.title == "Lighthouse"
    assert set(note.metadata["aliases"]) == {"Project Lighthouse", "LH"} and "sensors" in note.metadata["tags"]


def test_code_fences_hide_tasks_links_and_dates(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    assert mem.rt.store.get_node("placeholder:not a link") is None
    contents = [m.content for m in mem.rt.store.iter_nodes(kind="memory") if m.metadata.get("memory_kind") == "task"]
    assert not any("not a task" in c for c in contents)
    assert mem.rt.store.get_node("date:2099-01-01") is None


def test_observations_become_gated_memories_and_parsed_links_stay_candidates(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    nodes = list(mem.rt.store.iter_nodes(kind="memory"))
    blocked = [m for m in nodes if "Pilot blocked until the vendor contract" in m.content
               and m.metadata["memory_kind"] == "observation"]
    assert len(blocked) == 1
    obs = blocked[0]
    assert obs.source == "vault:Projects/lighthouse.md" and obs.category == "fact"
    assert obs.id.startswith("vault:Projects/lighthouse.md:observation:")
    assert obs.metadata["observation_kind"] == "blocked" and obs.metadata["heading_path"][-1] == "Status"
    sections = [m for m in nodes if m.metadata.get("memory_kind") == "section"]
    assert sections and all(m.category == "context" for m in sections)
    statuses = {e.type: e.status for e in mem.rt.store.iter_edges()}
    assert statuses["has_blocked"] == "active" and statuses["has_correction"] == "active"
    for relation in ("links_to", "has_heading", "mentions_date", "mentions_email", "has_tag"):
        assert statuses[relation] == "candidate"
    # every edge carries evidence, source path and rule, and has an audit event
    for edge in mem.rt.store.iter_edges():
        assert edge.evidence and edge.source_path and edge.rule
    first = next(mem.rt.store.iter_edges())
    assert mem.rt.store.edge_events(first.id)[0]["event"] == "created"


def test_recall_finds_vault_knowledge(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    out = mem.recall("battery supply overdue", limit=5)
    contents = [r["insight"]["content"] for r in out["results"]]
    assert any("battery" in c.lower() for c in contents)


def test_unchanged_vault_reparses_nothing_and_a_changed_note_only_itself(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    again = mem.ingest(str(example_vault))
    assert again["notes_read"] == 0 and again["notes_unchanged"] == 13 and again["edges_added"] == 0
    note = example_vault / "Areas" / "suppliers.md"
    note.write_text(note.read_text() + "- Harbour Freight — quote waiting on approval\n", encoding="utf-8")
    changed = mem.ingest(str(example_vault))
    assert changed["notes_read"] == 1 and changed["notes_unchanged"] == 12
    texts = [m.content for m in mem.rt.store.iter_nodes(kind="memory") if m.source == "vault:Areas/suppliers.md"]
    assert any("Harbour Freight" in t for t in texts)


def test_a_re_parsed_note_keeps_its_edges_ids_and_moves_their_lines(mem, example_vault: Path) -> None:
    """An edit re-plans the whole note, but an edge planned again is the same edge: its id (which a person may have
    noted for explain-edge or weaken-edge) and history stay, and only what changed — here the line — is rewritten."""
    mem.ingest(str(example_vault))
    lighthouse = "note:Projects/lighthouse.md"
    before = {(e.src, e.dst, e.type): e for e in mem.rt.store.iter_edges() if e.src == lighthouse}
    station = before[(lighthouse, "note:Projects/harbour-station.md", "links_to")]
    note = example_vault / "Projects" / "lighthouse.md"
    text = note.read_text(encoding="utf-8")
    note.write_text(text.replace("\n\n", "\n\nA new opening line.\n\n", 1), encoding="utf-8")
    out = mem.ingest(str(example_vault))
    assert out["notes_read"] == 1 and out["edges_added"] < len(before)
    after = {(e.src, e.dst, e.type): e for e in mem.rt.store.iter_edges() if e.src == lighthouse}
    assert set(after) >= set(before) - {k for k in before if k[1].startswith("vault:")}
    moved = after[(lighthouse, "note:Projects/harbour-station.md", "links_to")]
    assert moved.id == station.id and moved.created_at == station.created_at
    assert moved.metadata["line"] == station.metadata["line"] + 2 and moved.evidence == station.evidence
    assert {e.id for k, e in after.items() if k in before} == {e.id for k, e in before.items() if k in after}


def test_a_parsed_edge_made_active_without_a_recorded_decision_is_reset_by_a_re_parse(mem, example_vault: Path) -> None:
    """`promote-candidates` records its decision (`promoted`), which a re-parse keeps (test_vault_lifecycle); an edge
    some other write made active goes back to what the parse makes, and says so."""
    mem.ingest(str(example_vault))
    edge = next(e for e in _edges(mem, "links_to", "note:Projects/lighthouse.md") if e.status == "candidate")
    mem.rt.store.set_edge_status(int(edge.id), "active", actor="test", reason="activated, no decision recorded")
    note = example_vault / "Projects" / "lighthouse.md"
    note.write_text(note.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    again = mem.rt.store.get_edge(int(edge.id))
    assert again is not None and again.status == "candidate"  # as a fresh parse would have written it
    events = [ev["event"] for ev in mem.rt.store.edge_events(int(edge.id))]
    assert events[-1] == "reparsed"


def test_a_re_parse_leaves_unchanged_rows_as_they_were(mem, example_vault: Path,  # type: ignore[no-untyped-def]
                                                       clock) -> None:
    mem.rt.clock = clock
    mem.ingest(str(example_vault))
    note = example_vault / "Areas" / "suppliers.md"
    rows = {m.id: m for m in mem.rt.store.iter_nodes(kind="memory") if m.source == "vault:Areas/suppliers.md"}
    clock.advance(days=1)
    note.write_text(note.read_text(encoding="utf-8") + "\n## Later\n\nHarbour Freight quoted the gantry.\n",
                    encoding="utf-8")
    mem.ingest(str(example_vault))
    after = {m.id: m for m in mem.rt.store.iter_nodes(kind="memory") if m.source == "vault:Areas/suppliers.md"}
    kept = set(rows) & set(after)
    assert kept and all(after[i].updated_at == rows[i].updated_at for i in kept)
    assert mem.rt.store.keyword_search(tokens("gantry"), 5)  # the new section is found by its words
    if isinstance(mem.rt.store, SQLiteStore):  # rows skipped by the refresh are still indexed exactly once
        assert_index_matches_rows(mem.rt.store)


def test_removed_text_and_removed_notes_leave_no_stale_rows(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    note = example_vault / "People" / "cleo-marsh.md"
    note.write_text("# Cleo Marsh\n\n- Moved to the [[Tidewatch]] team, waiting on onboarding\n", encoding="utf-8")
    mem.ingest(str(example_vault))
    texts = [m.content for m in mem.rt.store.iter_nodes(kind="memory") if m.source == "vault:People/cleo-marsh.md"]
    assert not any("safety certification" in t for t in texts)
    assert any("Tidewatch" in t for t in texts)
    (example_vault / "Areas" / "suppliers.md").unlink()
    out = mem.ingest(str(example_vault))
    assert out["notes_removed"] == 1
    assert mem.rt.store.get_node("note:Areas/suppliers.md") is None
    assert not [m for m in mem.rt.store.iter_nodes(kind="memory") if m.source == "vault:Areas/suppliers.md"]
    # the link from Procurement to the removed note falls back to a placeholder
    dsts = {e.dst for e in _edges(mem, "links_to", "note:Areas/procurement.md")}
    assert "placeholder:suppliers" in dsts


def test_the_keyword_index_follows_every_kind_of_vault_change(make_mem, example_vault: Path, tmp_path: Path) -> None:
    """Changed, removed, added and revived notes, a section kept soft-deleted by a killed edge, a scoped payload:
    after each, the contentless index holds exactly what the rows recompute (each removal handed back its values)."""
    mem = make_mem("none", db=tmp_path / "k.db")
    mem.remember("Harbour sensors need a firmware update before the pilot")
    mem.ingest(str(example_vault))
    check = lambda: assert_index_matches_rows(mem.rt.store)  # noqa: E731
    check()
    note = example_vault / "Projects" / "tidewatch.md"
    original = note.read_text(encoding="utf-8")
    section = next(e for e in _edges(mem, "has_section", "note:Projects/tidewatch.md"))
    mem.kill_edge(section.id, reason="not this section")  # its section must outlive the text it came from
    note.write_text("# Tidewatch\n\n## Status\n\nAll new words here.\n- [ ] Call the harbour master\n", encoding="utf-8")
    (example_vault / "People" / "cleo-marsh.md").write_text("# Cleo Marsh\n\n- Moved to the [[Tidewatch]] team\n",
                                                            encoding="utf-8")
    (example_vault / "Areas" / "suppliers.md").unlink()
    (example_vault / "Areas" / "budget-2026.md").write_text("# Budget 2026\n\n- Pilot budget approved\n",
                                                            encoding="utf-8")
    out = mem.ingest(str(example_vault))
    assert out["notes_read"] == 3 and out["notes_removed"] == 1 and out["preserved_killed_edges"] >= 1
    kept = mem.rt.store.get_node(section.dst, include_deleted=True)
    assert kept is not None and kept.deleted_at is not None  # soft-deleted, so out of the index
    check()
    note.write_text(original, encoding="utf-8")  # the section's text comes back: the same row is revived
    mem.ingest(str(example_vault))
    revived = mem.rt.store.get_node(section.dst)
    assert revived is not None and revived.deleted_at is None
    check()
    mem.ingest(str(example_vault), mode="rebuild")
    check()
    payload = {"source_path": "mneme://test/keywords", "nodes": [{"ref": "t", "type": "task", "name": "Harbour check"}],
               "edges": [], "observations": [{"node": "t", "kind": "fact", "text": "Harbour sensors checked.",
                                              "score": 5}]}
    mem.remember_payload(payload)
    mem.remember_payload({**payload, "observations": [{**payload["observations"][0], "text": "Sensors rechecked."}]})
    check()
    mem.forget_source("mneme://test/keywords")
    check()


def test_placeholder_joins_the_note_when_it_appears(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    assert mem.rt.store.get_node("placeholder:budget 2026") is not None
    (example_vault / "Areas" / "budget-2026.md").write_text("# Budget 2026\n\n- Pilot budget approved\n",
                                                            encoding="utf-8")
    out = mem.ingest(str(example_vault))
    assert out["notes_read"] == 1 and out["placeholders_joined"] + out["notes_relinked"] >= 1
    assert mem.rt.store.get_node("placeholder:budget 2026") is None
    dsts = {e.dst for e in _edges(mem, "links_to", "note:Projects/lighthouse.md")}
    assert "note:Areas/budget-2026.md" in dsts


def test_killed_edge_survives_rebuild_and_blocks_recreation(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    edge = next(e for e in _edges(mem, "links_to", "note:Projects/tidewatch.md") if e.dst == "note:Areas/weather-feeds.md")
    mem.kill_edge(edge.id, reason="not related")
    note = example_vault / "Projects" / "tidewatch.md"
    note.write_text(note.read_text() + "\n- Follow up with [[Weather Feeds]] owners\n", encoding="utf-8")
    out = mem.ingest(str(example_vault))
    assert out["notes_read"] == 1 and out["preserved_killed_edges"] == 1
    after = mem.rt.store.get_edge(edge.id)
    assert after is not None and after.status == "killed"
    events = [e["event"] for e in mem.rt.store.edge_events(edge.id)]
    assert events[-1] == "blocked_recreation"


def test_validated_active_edge_survives_rebuild(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    edge = next(e for e in _edges(mem, "links_to", "note:Projects/tidewatch.md") if e.dst == "note:Projects/lighthouse.md")
    assert mem.validate_edge(edge.id)["status"] == "active"
    note = example_vault / "Projects" / "tidewatch.md"
    note.write_text(note.read_text() + "\n- Needs a sponsor\n", encoding="utf-8")
    out = mem.ingest(str(example_vault))
    assert out["preserved_active_edges"] == 1
    kept = mem.rt.store.get_edge(edge.id)
    assert kept is not None and kept.status == "active" and kept.metadata["validated"] is True


def test_append_keeps_rows_of_missing_notes_and_rebuild_drops_them(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    moved = example_vault / "Areas" / "suppliers.md"
    backup = moved.read_text()
    moved.unlink()
    assert mem.ingest(str(example_vault), mode="append")["notes_removed"] == 0
    assert mem.rt.store.get_node("note:Areas/suppliers.md") is not None
    assert mem.ingest(str(example_vault), mode="update")["notes_removed"] == 1
    moved.write_text(backup)


def test_max_notes_caps_what_is_read(mem, example_vault: Path) -> None:
    out = mem.ingest(str(example_vault), max_notes=3)
    assert out["notes_read"] == 3 and out["notes_capped"] == 10 and out["notes_total"] == 3
    mem.ingest(str(example_vault))
    (example_vault / "Areas" / "suppliers.md").write_text("# Suppliers\n\n- Northwind is late again\n",
                                                          encoding="utf-8")
    # notes past the cap are unread, not removed: they are still there
    out = mem.ingest(str(example_vault), max_notes=3)
    assert out["notes_removed"] == 0 and out["notes_total"] == 13


def test_a_note_that_is_not_utf8_is_read_as_written_and_flagged(mem, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "latin1.md").write_bytes("# Latin1\n\nCafé crème brûlée for the opening\n".encode("latin-1"))
    out = mem.ingest(str(vault), embed=False)
    assert [w["code"] for w in out["warnings"]] == ["not_utf8"]
    found = mem.recall("crème brûlée", limit=3)["results"]
    assert found and "Café crème brûlée" in found[0]["insight"]["content"]


def test_symlinks_are_skipped_unless_followed_and_never_escape(mem, example_vault: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("# Secret\n\n- private salary is overdue\n", encoding="utf-8")
    os.symlink(outside, example_vault / "escape.md")
    os.symlink(example_vault / "Areas" / "suppliers.md", example_vault / "inside-link.md")
    (tmp_path / "outdir").mkdir()
    (tmp_path / "outdir" / "other.md").write_text("# Other\n", encoding="utf-8")
    os.symlink(tmp_path / "outdir", example_vault / "linked-dir")
    out = mem.ingest(str(example_vault))
    reasons = {s["path"]: s["reason"] for s in out["skipped"]}
    assert reasons["escape.md"] == "symlink" and reasons["inside-link.md"] == "symlink"
    assert reasons["linked-dir"] == "symlink"
    followed = mem.ingest(str(example_vault), follow_symlinks=True)
    reasons = {s["path"]: s["reason"] for s in followed["skipped"]}
    assert reasons["escape.md"] == "symlink_outside_vault" and reasons["linked-dir"] == "symlink_outside_vault"
    # a link to a note the vault holds anyway is not a second copy of it
    assert reasons["inside-link.md"] == "symlink_duplicate" and mem.rt.store.get_node("note:inside-link.md") is None
    assert mem.rt.store.get_node("note:Areas/suppliers.md") is not None
    assert mem.rt.store.get_node("note:escape.md") is None
    assert not any("salary" in m.content for m in mem.rt.store.iter_nodes(kind="memory"))


@pytest.mark.parametrize("link_name", ["People/proj", "0-first", "zz-last"])
def test_a_followed_link_never_replaces_or_doubles_the_real_note(mem, example_vault: Path, link_name: str) -> None:
    """Whatever the folder listing's order, the real folder's notes are the ones ingested; links to them are
    reported as duplicates, and a link into a folder the walk skips (a hidden one) still adds its notes."""
    plain = mem.ingest(str(example_vault), embed=False)
    links_before = sorted((e.src, e.dst) for e in mem.rt.store.iter_edges() if e.type == "links_to")
    os.symlink(example_vault / "Projects", example_vault / link_name)
    os.symlink(example_vault / "Projects" / "lighthouse.md", example_vault / "lh-link.md")
    hidden = example_vault / ".hidden"
    hidden.mkdir()
    (hidden / "kept.md").write_text("# Kept\n\n- reached only through a link\n", encoding="utf-8")
    os.symlink(hidden, example_vault / "Shown")
    out = mem.ingest(str(example_vault), follow_symlinks=True, embed=False)
    reasons = {s["path"]: s["reason"] for s in out["skipped"]}
    assert reasons[link_name] == "symlink_duplicate" and reasons["lh-link.md"] == "symlink_duplicate"
    assert out["notes_total"] == plain["notes_total"] + 1 and mem.rt.store.get_node("note:Shown/kept.md")
    assert sorted((e.src, e.dst) for e in mem.rt.store.iter_edges() if e.type == "links_to") == links_before


def test_a_symlink_loop_is_skipped_not_fatal(mem, tmp_path: Path) -> None:
    # (`is_dir()` of a link to itself raises ELOOP: the whole ingest failed, followed or not, and `note list` too)
    from mnemon.app import note_tools

    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "real.md").write_text("# Real\n", encoding="utf-8")
    os.symlink("b.md", vault / "a.md")
    os.symlink("a.md", vault / "b.md")
    os.symlink("self", vault / "self")
    for follow in (False, True):
        out = mem.ingest(str(vault), follow_symlinks=follow, embed=False)
        assert out["notes_total"] == 1 and [s["path"] for s in out["skipped"]] == ["a.md", "b.md"]
    assert [n["path"] for n in note_tools.list_notes(vault)["notes"]] == ["real.md"]


def test_walk_refuses_a_missing_vault(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        walk_vault(tmp_path / "nope")


def test_vectors_for_new_text_only(mem, example_vault: Path) -> None:
    first = mem.ingest(str(example_vault))
    assert first["vectors"]["embedded"] > 0
    note = example_vault / "Areas" / "weather-feeds.md"
    note.write_text(note.read_text() + "- Feed outage risk during storms\n", encoding="utf-8")
    second = mem.ingest(str(example_vault))
    # the changed note's unchanged sections keep their vectors; only new text is embedded
    assert 1 <= second["vectors"]["embedded"] <= 3


@pytest.mark.parametrize("backfilled", [False, True], ids=["ingest", "embed-all"])
def test_a_section_vector_reads_like_the_note_without_its_own_bullets(mem, example_vault: Path,
                                                                     backfilled: bool) -> None:
    """A section embeds its heading path and prose, wikilinks as names; its bullets have vectors of their own."""
    mem.ingest(str(example_vault), embed=not backfilled)
    sections = [m for m in mem.rt.store.iter_nodes(kind="memory")
                if m.metadata.get("memory_kind") == "section" and m.metadata.get("fts_skip") and "[[" in m.content]
    assert sections, "the example vault has a section with wikilinks and bullets of their own"
    section = sections[0]
    bullets = [line for i, line in enumerate(section.content.split("\n")) if i in section.metadata["fts_skip"]]
    if backfilled:
        mem.embed_all()
    ids, matrix = mem.rt.store.load_vectors(mem.rt.provider.identity())
    stored = matrix[ids.index(section.id)]
    text = embedding_text_of(section)
    assert text.startswith(section.title) and "[[" not in text
    assert not any(b in text for b in bullets)
    assert float(stored @ mem.rt.provider.embed_documents([text])[0]) > 0.999
    assert float(stored @ mem.rt.provider.embed_documents([section.content])[0]) < 0.99


def test_ingest_records_sense_events_and_never_touches_world_rows(mem, example_vault: Path) -> None:
    conn = mem.rt.store.conn
    mem.ingest(str(example_vault))
    events = conn.execute("SELECT COUNT(*) FROM sense_events WHERE sense_type = 'md'").fetchone()[0]
    assert events == 13
    conn.execute("INSERT INTO entity_aliases(alias_norm, alias_name, canonical_name, canonical_norm, created_at,"
                 " updated_at) VALUES ('lh', 'LH', 'Lighthouse', 'lighthouse', 'x', 'x')")
    shutil.rmtree(example_vault / "Meetings")
    mem.ingest(str(example_vault))
    assert conn.execute("SELECT COUNT(*) FROM entity_aliases").fetchone()[0] == 1
    assert conn.execute("SELECT COUNT(*) FROM sense_events").fetchone()[0] >= events


def _schema(mem) -> set[tuple[str, str]]:
    return {(r[0], r[1]) for r in mem.rt.store.conn.execute(
        "SELECT type, name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL")}


def _active_memory_count(mem) -> tuple[int, int]:
    conn = mem.rt.store.conn
    counted = int(conn.execute("SELECT value FROM meta WHERE key = 'active_memories'").fetchone()[0])
    actual = conn.execute("SELECT COUNT(*) FROM nodes WHERE kind = 'memory' AND deleted_at IS NULL").fetchone()[0]
    return counted, actual


def test_bulk_first_ingest_builds_the_same_graph_and_restores_indexes_and_counts(make_mem, example_vault: Path,
                                                                                 tmp_path: Path, monkeypatch) -> None:
    from mnemon.app.vault import ingest as ingest_module

    plain = make_mem("none", db=tmp_path / "plain.db")
    plain.remember("a memory written before the vault arrived")
    plain.ingest(str(example_vault))
    bulk = make_mem("none", db=tmp_path / "bulk.db")
    bulk.remember("a memory written before the vault arrived")
    schema = _schema(bulk)
    monkeypatch.setattr(ingest_module, "BULK_MIN_NOTES", 1)
    calls = []
    original = type(bulk.rt.store.vault).bulk_load
    monkeypatch.setattr(type(bulk.rt.store.vault), "bulk_load", lambda self: calls.append(1) or original(self))
    bulk.ingest(str(example_vault))
    assert calls == [1]  # the first ingest took the bulk path; the plain store's did not (it had too few notes)
    assert _schema(bulk) == schema
    counted, actual = _active_memory_count(bulk)
    assert counted == actual == _active_memory_count(plain)[1]
    graph = lambda m: sorted((e.src, e.dst, e.type, e.status, e.evidence) for e in m.rt.store.iter_edges())  # noqa: E731
    assert graph(bulk) == graph(plain)
    assert bulk.rt.store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    wal = Path(bulk.rt.store.path + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # the log of the bulk load gave its disk space back
    bulk.remember("one more after the bulk load")  # the count trigger is back
    assert _active_memory_count(bulk)[0] == actual + 1


def _keyword_segments(conn) -> int:
    """Segments of the FTS5 keyword index, from its structure record (rowid 10 of `memory_fts_data`): a 4-byte
    cookie, then (FTS5 ≥ 3.44's marker aside) the varints levels and segments."""
    record = conn.execute("SELECT block FROM memory_fts_data WHERE id = 10").fetchone()[0]
    at = 8 if record[4:8] == b"\xff\x00\x00\x01" else 4
    values = []
    for _ in range(2):
        value = 0
        while True:
            byte = record[at]
            at += 1
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        values.append(value)
    return values[1]


def test_a_bulk_load_leaves_the_keyword_index_in_one_segment(make_mem, example_vault: Path, monkeypatch,
                                                              facade_backend) -> None:
    """Left in several segments, the index was merged again by FTS5 a few small writes later, which rewrote its
    largest segment and left that much of the file as free pages (2.6 MB for 2,000 notes)."""
    if facade_backend == "postgres":
        pytest.skip("the keyword index is SQLite's FTS5 (PostgreSQL keeps a tsvector per row)")
    from mnemon.app.vault import ingest as ingest_module
    from keyword_index_check import assert_index_matches_rows

    mem = make_mem("none")
    conn = mem.rt.store.conn
    # a tiny in-memory buffer: the load writes a segment every few notes, as a large vault does every 1 MB
    conn.execute("INSERT INTO memory_fts(memory_fts, rank) VALUES ('hashsize', 2048)")
    monkeypatch.setattr(ingest_module, "BULK_MIN_NOTES", 1)
    monkeypatch.setattr(ingest_module, "BATCH_FILES", 2)
    mem.ingest(str(example_vault))
    assert _keyword_segments(conn) == 1
    assert_index_matches_rows(mem.rt.store)


def test_a_failed_bulk_ingest_leaves_the_schema_and_graph_as_they_were(make_mem, example_vault: Path, monkeypatch,
                                                                       facade_backend) -> None:
    if facade_backend == "postgres":
        pytest.skip("suspending indexes for a bulk load is SQLite's (PostgreSQL keeps its indexes during ingest)")
    from mnemon.app.vault import ingest as ingest_module

    mem = make_mem("none")
    schema = _schema(mem)
    monkeypatch.setattr(ingest_module, "BULK_MIN_NOTES", 1)

    def broken(*_args, **_kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(ingest_module.VaultWriter, "write_edges", broken)
    with pytest.raises(RuntimeError):
        mem.ingest(str(example_vault))
    assert _schema(mem) == schema
    assert mem.rt.store.get_node("note:Projects/lighthouse.md") is None
    assert _active_memory_count(mem) == (0, 0)


def test_metadata_is_valid_json_for_awkward_link_targets(mem, tmp_path: Path) -> None:
    root = tmp_path / "v"
    root.mkdir()
    (root / "a.md").write_text('# A\n\n## Sub "quoted" \\ part\n\n- Waiting on [[B "x" \\ y#Sec|al\tias]] by 2026-03-01\n',
                               encoding="utf-8")
    mem.ingest(str(root))
    link = next(e for e in mem.rt.store.iter_edges() if e.type == "links_to")
    assert link.metadata["target"] == 'B "x" \\ y' and link.metadata["section"] == "Sec" and link.metadata["line"] == 5
    obs = next(m for m in mem.rt.store.iter_nodes(kind="memory") if m.metadata.get("memory_kind") == "observation")
    assert obs.metadata["heading_path"] == ["A", 'Sub "quoted" \\ part'] and isinstance(obs.metadata["score"], float)


def test_each_bullet_is_keyword_indexed_once_as_its_own_memory(mem, tmp_path: Path) -> None:
    from mnemon.core.text import tokens

    root = tmp_path / "v"
    root.mkdir()
    (root / "harbour.md").write_text("# Harbour\n\n## Survey\n\nPlanning notes for the quay survey.\n\n"
                                     "- Gateway firmware blocked by missing approval\n", encoding="utf-8")
    mem.ingest(str(root))
    memories = {m.metadata["memory_kind"]: m for m in mem.rt.store.iter_nodes(kind="memory")}
    section, observation = memories["section"], memories["observation"]
    assert "Gateway firmware" in section.content  # the section keeps its whole text
    found = [i for i, _score in mem.rt.store.keyword_search(tokens("firmware"), 10)]
    assert found == [observation.id]
    assert [i for i, _score in mem.rt.store.keyword_search(tokens("quay"), 10)] == [section.id]


def test_observation_total_follows_changed_and_removed_notes(mem, example_vault: Path) -> None:
    def stored() -> int:
        return sum(1 for m in mem.rt.store.iter_nodes(kind="memory")
                   if m.metadata.get("memory_kind") in ("observation", "task") and m.source.startswith("vault:"))

    first = mem.ingest(str(example_vault))
    assert first["observations"] == first["observations_added"] == stored() > 0
    note = example_vault / "Areas" / "suppliers.md"
    note.write_text(note.read_text() + "- Harbour Freight — quote waiting on approval\n", encoding="utf-8")
    again = mem.ingest(str(example_vault))
    assert again["observations"] == stored() == first["observations"] + 1
    assert again["observations_added"] == 1  # the new bullet, not every bullet of the re-parsed note
    note.unlink()
    assert mem.ingest(str(example_vault))["observations"] == stored() < first["observations"]


def test_a_first_ingest_revives_a_kept_note_of_an_earlier_vault(mem, example_vault: Path, tmp_path: Path) -> None:
    """A note whose file went away but whose node a validated edge protects is revived, not duplicated, when a vault
    naming it is ingested again — the fast path for stores without vault rows must not apply."""
    mem.ingest(str(example_vault))
    edge = next(e for e in _edges(mem, "links_to", "note:Projects/lighthouse.md") if e.dst == "note:People/ada-quill.md")
    mem.validate_edge(edge.id, reason="checked")
    (example_vault / "People" / "ada-quill.md").unlink()
    mem.ingest(str(example_vault))
    assert mem.rt.store.get_node("note:People/ada-quill.md") is None
    other = tmp_path / "other"
    shutil.copytree(EXAMPLE_VAULT, other)
    out = mem.ingest(str(other))
    # the other folder holds the same bytes for the twelve notes the store has: only the thirteenth is read
    assert (out["notes_read"], out["notes_unchanged"], out["notes_total"]) == (1, 12, 13)
    assert mem.rt.store.get_node("note:People/ada-quill.md") is not None


def test_re_ingesting_a_changed_note_without_vectors_does_not_load_numpy(example_vault: Path, tmp_path: Path) -> None:
    """A one-note re-ingest from the CLI is a fresh process: building the vector index only to tell it about
    deleted rows would import numpy, which costs more than the whole re-ingest."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from mnemon.app.config import load_config\n"
        "from mnemon.app.memory import Mnemon\n"
        f"cfg = load_config({{'MNEMON_HOME': {str(tmp_path / 'home')!r}, 'MNEMON_EMBED_PROVIDER': 'none',"
        f" 'XDG_CONFIG_HOME': {str(tmp_path / 'xdg')!r}}})\n"  # never the user's own config file
        "mem = Mnemon.open(cfg)\n"
        f"out = mem.ingest({str(example_vault)!r})\n"
        "print(out['notes_read'], 'numpy' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    first = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert first.stdout.split()[0] == "13"
    note = example_vault / "People" / "cleo-marsh.md"
    note.write_text("# Cleo Marsh\n\n- Moved to the [[Tidewatch]] team, waiting on onboarding\n", encoding="utf-8")
    again = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert again.stdout.split() == ["1", "False"]


def test_a_library_or_server_ingest_keeps_the_models_threads(mem, example_vault: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a caller that does nothing else (the CLI) asks for bulk threads: an MCP or HTTP server that ingests
    also answers queries, which want the model's single thread."""
    asked: list[bool] = []
    monkeypatch.setattr(type(mem.rt.provider), "prefer_bulk_threads", lambda self: asked.append(True) or 4)
    out = mem.ingest(str(example_vault))
    assert not asked and "threads" not in out["vectors"]
    assert mem.ingest(str(example_vault), mode="update", bulk_threads=True)["vectors"]["threads"] == 4
    assert asked == [True]


def test_the_next_ingest_finishes_the_vectors_a_killed_one_left(mem, example_vault: Path, monkeypatch) -> None:
    """A run stopped while embedding used to leave its memories without vectors until `embed --all`: the next
    ingest found nothing changed and embedded nothing, and said nothing."""
    from mnemon.app.vault import ingest as ingest_module

    def killed(rt, ids, batch=64, progress=None, *, finishes_ingest=False):  # the process died before embedding
        raise KeyboardInterrupt

    real = ingest_module._embed_new
    monkeypatch.setattr(ingest_module, "_embed_new", killed)
    with pytest.raises(KeyboardInterrupt):
        mem.ingest(str(example_vault))
    monkeypatch.setattr(ingest_module, "_embed_new", real)
    store = mem.rt.store
    identity = mem.rt.provider.identity()
    left = len(store.nodes_missing_vectors(identity))
    assert left > 0
    again = mem.ingest(str(example_vault))
    assert again["notes_read"] == 0 and again["vectors"]["embedded"] == left
    assert store.nodes_missing_vectors(identity) == [] and not store.vault.get_state(ingest_module.EMBED_PENDING)
    assert mem.ingest(str(example_vault))["vectors"]["embedded"] == 0


def test_a_note_deeper_than_the_world_model_can_index_is_still_ingested(mem, tmp_path: Path) -> None:
    """A path over the world model's key limit (2,000 bytes, for PostgreSQL's indexes) failed the whole ingest."""
    vault, folder = tmp_path / "vault", tmp_path / "vault"
    for depth in range(9):
        folder = folder / f"{depth}{'a' * 229}"
    folder.mkdir(parents=True)
    (folder / "deep.md").write_text("# Deep\n\n- Risk: the deep note is late\n", encoding="utf-8")
    (vault / "top.md").write_text("# Top\n\nSee [[Deep]]\n", encoding="utf-8")
    out = mem.ingest(str(vault), embed=False)
    assert out["notes_read"] == 2 and [w["code"] for w in out["warnings"]] == ["path_too_long_for_world_model"]
    deep = out["warnings"][0]["path"]
    assert mem.rt.store.find_edge("note:top.md", f"note:{deep}", "links_to") is not None


def test_an_embedder_that_fails_loses_no_write_and_says_what_is_left(mem, example_vault: Path, monkeypatch) -> None:
    """A chosen provider that was down failed `remember` (nothing stored) and `recall`, and an ingest answered
    with an error after committing every note."""
    from mnemon.core.errors import ProviderUnavailable

    provider = mem.rt.provider
    working = provider.embed_documents, provider.embed_query

    def down(*_args, **_kwargs):
        raise ProviderUnavailable("the embedding server answered HTTP 429", provider=provider.name)

    monkeypatch.setattr(provider, "embed_documents", down)
    monkeypatch.setattr(provider, "embed_query", down)
    out = mem.ingest(str(example_vault))
    assert out["notes_read"] == 13 and out["vectors"]["embedded"] == 0 and out["vectors"]["left"] > 0
    assert "429" in out["vectors"]["stopped"] and "embed --all" in out["vectors"]["hint"]
    stored = mem.remember("The supplier call moved to Thursday")
    assert stored["action"] == "added" and stored["embedded"] is False and "embed --all" in stored["warnings"][0]
    found = mem.recall("supplier call Thursday")
    assert found["results"] and any("keywords and the graph" in w for w in found["warnings"])
    monkeypatch.setattr(provider, "embed_documents", working[0])
    monkeypatch.setattr(provider, "embed_query", working[1])
    again = mem.ingest(str(example_vault))  # nothing changed: the vectors left (and the remembered one) are added
    assert again["notes_read"] == 0 and again["vectors"]["embedded"] == out["vectors"]["left"] + 1
