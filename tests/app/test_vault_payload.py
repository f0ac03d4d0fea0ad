"""Scoped payload memory and research resolution writeback."""
from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.vault.payload import check_scope
from mnemon.core.errors import Conflict, InvalidInput, PathRefused


PAYLOAD = {
    "source_path": "mneme://test/validation",
    "nodes": [{"ref": "agent", "type": "agent", "name": "Test agent"},
              {"ref": "task", "type": "task", "name": "Validate retrieval"}],
    "edges": [{"src": "agent", "dst": "task", "relation": "relates_to", "status": "active"}],
    "observations": [{"node": "task", "kind": "fact", "text": "Validate retrieval before trusting output.", "score": 5}],
}

RESOLUTION = {
    "slug": "pilot-vendor", "title": "Pilot vendor resolved", "date": "2026-04-26",
    "sources_checked": ["email", "contract"],
    "claims": [
        {"subject": "Bram Okafor", "predicate": "belongs_to", "object": "Lighthouse", "confidence": 0.94,
         "strength": 0.93, "certainty": "confirmed", "source_type": "contract",
         "evidence": "Signed contract names Bram as the procurement owner."},
        {"subject": "Cleo Marsh", "predicate": "attends_activity", "object": "Safety Training", "confidence": 0.7,
         "certainty": "likely", "source_type": "email", "evidence": "Calendar invite, not confirmed."},
    ],
    "unresolved": ["Battery supplier has not replied."],
}


def test_payload_stores_nodes_observations_and_echoes_the_stored_status(mem) -> None:
    out = mem.remember_payload(json.dumps(PAYLOAD))
    statuses = {e["relation"]: e for e in out["edges"]}
    # requested active, but relates_to is a claim needing validation: stored (and reported) as candidate
    assert statuses["relates_to"]["requested_status"] == "active"
    assert statuses["relates_to"]["status"] == "candidate"
    assert mem.rt.store.find_edge("mneme://test/validation#agent", "mneme://test/validation#task",
                                  "relates_to").status == "candidate"
    assert statuses["has_fact"]["status"] == "active"
    recalled = mem.recall("validate retrieval trusting output", limit=3)
    assert any(r["insight"]["source"] == "mneme://test/validation" for r in recalled["results"])


def test_payload_refs_must_be_local_and_dry_run_writes_nothing(mem) -> None:
    bad = dict(PAYLOAD, observations=[{"node": "ghost", "text": "x is blocked here", "kind": "fact"}])
    with pytest.raises(InvalidInput):
        mem.remember_payload(bad)
    before = mem.rt.store.stats()["nodes_by_kind"]
    out = mem.remember_payload(PAYLOAD, dry_run=True)
    assert out["dry_run"] and out["edges"][0]["status"] == "candidate"
    assert mem.rt.store.stats()["nodes_by_kind"] == before


def test_resending_a_payload_replaces_the_scope(mem) -> None:
    mem.remember_payload(PAYLOAD)
    smaller = dict(PAYLOAD, observations=[{"node": "task", "kind": "risk", "text": "Deadline risk for retrieval"}])
    mem.remember_payload(smaller)
    texts = [m.content for m in mem.rt.store.iter_nodes(kind="memory") if m.source == "mneme://test/validation"]
    assert texts == ["Deadline risk for retrieval"]


def test_a_payload_replaces_only_rows_a_payload_wrote(mem) -> None:
    """A memory remembered with the scope as its source is the user's: a payload of that scope never replaces it,
    and an explicit `forget --source` names it apart from the payload's observations and logs its id."""
    kept = mem.remember("The deploy key lives under ops/deploy", source="mneme://test/validation")["id"]
    mem.remember_payload(PAYLOAD)
    smaller = dict(PAYLOAD, observations=[{"node": "task", "kind": "risk", "text": "Deadline risk for retrieval"}])
    dry = mem.remember_payload(smaller, dry_run=True)
    assert kept not in dry["replaced"] and len(dry["replaced"]) == 1 and dry["replaced"][0].startswith(
        "mneme://test/validation#obs/")
    assert mem.remember_payload(smaller)["replaced"] == dry["replaced"]
    assert mem.rt.store.get_node(kept) is not None
    out = mem.forget_source("mneme://test/validation")
    assert out["removed"]["memories"] == 1 and out["removed"]["observations"] == 1
    logged = mem.rt.store.oplog(5, op="forget:source")
    assert logged and logged[0].detail["memory_ids"] == [kept]


def test_forget_source_removes_only_that_scope_and_refuses_others(mem) -> None:
    mem.remember("a user memory that must survive")
    mem.remember_payload(PAYLOAD)
    other = dict(PAYLOAD, source_path="mneme://test/other")
    mem.remember_payload(other)
    for bad in ("user", "vault:People/ada-quill.md", "mneme://", "/etc/passwd"):
        with pytest.raises(InvalidInput):
            mem.forget_source(bad)
    dry = mem.forget_source("mneme://test/validation", dry_run=True)
    assert dry["removed"] == {"observations": 1, "memories": 0, "nodes": 2, "edges": 2}
    out = mem.forget_source("mneme://test/validation")
    assert out["removed"]["nodes"] == 2
    sources = {m.source for m in mem.rt.store.iter_nodes(kind="memory")}
    assert "mneme://test/validation" not in sources and {"user", "mneme://test/other"} <= sources


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=30))
def test_only_explicit_mneme_scopes_pass(raw: str) -> None:
    try:
        scope = check_scope(raw)
    except InvalidInput:
        assert not raw.startswith("mneme://") or len(raw.strip().rstrip("/")) <= len("mneme://") or any(
            c.isspace() for c in raw.strip().rstrip("/"))
        return
    assert scope.startswith("mneme://") and len(scope) > len("mneme://")


def test_resolve_writes_an_evidence_pack_and_gates_claims(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    out = mem.resolve(str(example_vault), json.dumps(RESOLUTION))
    assert out["note_path"] == "Sources/2026-04-26-pilot-vendor.md"
    pack = (example_vault / out["note_path"]).read_text()
    assert "Pilot vendor resolved" in pack and "mneme-research-resolution-b64" in pack
    umask = os.umask(0o022)
    os.umask(umask)
    # as any editor's, not mkstemp's 0600
    assert (example_vault / out["note_path"]).stat().st_mode & 0o777 == 0o666 & ~umask
    by_predicate = {e["predicate"]: e for e in out["edges"]}
    assert by_predicate["belongs_to"]["status"] == "active"
    assert by_predicate["belongs_to"]["src"] == "note:People/bram-okafor.md"
    assert by_predicate["belongs_to"]["dst"] == "note:Projects/lighthouse.md"
    assert by_predicate["attends_activity"]["status"] == "candidate"
    assert by_predicate["attends_activity"]["dst"] == "placeholder:safety training"


def test_resolve_threshold_is_respected(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    out = mem.resolve(str(example_vault), RESOLUTION, active_threshold=0.95)
    assert all(e["status"] == "candidate" for e in out["edges"])


def test_resolve_writeback_survives_reingestion_into_an_empty_store(mem, make_mem, example_vault: Path,
                                                                    tmp_path: Path) -> None:
    mem.ingest(str(example_vault))
    mem.resolve(str(example_vault), RESOLUTION)
    mem.ingest(str(example_vault))  # the pack is now a note; rebuild keeps the resolve edges
    assert mem.rt.store.find_edge("note:People/bram-okafor.md", "note:Projects/lighthouse.md",
                                  "belongs_to").status == "active"
    fresh = make_mem("hash", db=tmp_path / "fresh.db")
    fresh.ingest(str(example_vault))
    edge = fresh.rt.store.find_edge("note:People/bram-okafor.md", "note:Projects/lighthouse.md", "belongs_to")
    assert edge is not None and edge.status == "active" and edge.origin == "resolve"
    assert edge.source_path == "Sources/2026-04-26-pilot-vendor.md"


def test_resolve_writeback_and_its_notes_survive_the_vault_moving_folder(mem, example_vault: Path,
                                                                         tmp_path: Path) -> None:
    mem.ingest(str(example_vault))
    mem.resolve(str(example_vault), RESOLUTION)
    before = mem.ingest(str(example_vault))
    moved = tmp_path / "moved-vault"
    example_vault.rename(moved)
    out = mem.ingest(str(moved))
    assert (out["notes_read"], out["notes_removed"], out["notes_total"]) == (0, 0, before["notes_total"])
    edge = mem.rt.store.find_edge("note:People/bram-okafor.md", "note:Projects/lighthouse.md", "belongs_to")
    assert edge is not None and edge.status == "active" and edge.origin == "resolve"
    assert mem.rt.store.get_node("note:Sources/2026-04-26-pilot-vendor.md") is not None


def test_resolve_refuses_a_sources_folder_that_escapes(mem, example_vault: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.symlink(elsewhere, example_vault / "Sources")
    with pytest.raises(PathRefused):
        mem.resolve(str(example_vault), RESOLUTION)
    assert not list(elsewhere.iterdir())


PILOT_PACK = "Sources/2026-04-26-pilot-vendor.md"


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_resolve_never_overwrites_a_note_that_is_not_its_earlier_pack(mem, example_vault: Path) -> None:
    """A user's own note at the pack's path (a slug is made from a plain title, so a clash is easy) is refused, in a
    dry run too; nothing is written, neither the pack nor an edge."""
    mem.ingest(str(example_vault))
    (example_vault / "Sources").mkdir()
    (example_vault / PILOT_PACK).write_text("# Pilot vendor\n\nHand-written notes I care about.\n", encoding="utf-8")
    other = {**RESOLUTION, "slug": "2026-04-26-pilot-vendor"}  # a pack, but of other research (no date)
    from mnemon.app.vault.resolve import render_pack, validate_payload
    (example_vault / "Sources" / "other.md").write_text(render_pack(validate_payload({**other, "date": None}), 0.9),
                                                        encoding="utf-8")
    before = _files(example_vault)
    for dry_run in (True, False):
        with pytest.raises(Conflict) as refused:
            mem.resolve(str(example_vault), RESOLUTION, dry_run=dry_run)
        assert refused.value.details["path"] == PILOT_PACK and PILOT_PACK in refused.value.message
    assert _files(example_vault) == before  # no pack, no backup
    assert mem.rt.store.find_edge("note:People/bram-okafor.md", "note:Projects/lighthouse.md", "belongs_to") is None
    # a pack written for another slug that lands on the same path is not this research's pack either
    (example_vault / PILOT_PACK).write_bytes((example_vault / "Sources" / "other.md").read_bytes())
    with pytest.raises(Conflict):
        mem.resolve(str(example_vault), RESOLUTION)


def test_resolve_refuses_a_symlinked_pack_like_the_note_editor(mem, example_vault: Path) -> None:
    (example_vault / "Sources").mkdir()
    os.symlink("../Projects/lighthouse.md", example_vault / PILOT_PACK)
    before = _files(example_vault)
    for dry_run in (True, False):
        with pytest.raises(PathRefused):
            mem.resolve(str(example_vault), RESOLUTION, dry_run=dry_run)
    assert _files(example_vault) == before  # the note the link points at is untouched


def test_resolve_with_a_file_named_sources_is_a_conflict_not_a_crash(mem, example_vault: Path) -> None:
    (example_vault / "Sources").write_text("not a folder\n", encoding="utf-8")
    with pytest.raises(Conflict):
        mem.resolve(str(example_vault), RESOLUTION)
    assert (example_vault / "Sources").read_text(encoding="utf-8") == "not a folder\n"


def test_resolve_again_replaces_its_earlier_pack_and_backs_it_up(mem, example_vault: Path) -> None:
    mem.ingest(str(example_vault))
    assert mem.resolve(str(example_vault), RESOLUTION, dry_run=True)["overwrites"] is False
    first = mem.resolve(str(example_vault), RESOLUTION)
    assert first["overwrites"] is False and first["backup"] is None
    replay = mem.resolve(str(example_vault), RESOLUTION)  # the same research again: nothing to replace or back up
    assert replay["overwrites"] is False and replay["backup"] is None and replay["pack_changed"] is False
    assert not (example_vault / ".mnemon-backups").exists()
    pack = example_vault / PILOT_PACK
    edited = pack.read_bytes() + b"\nA line the user added.\n"
    pack.write_bytes(edited)
    dry = mem.resolve(str(example_vault), RESOLUTION, dry_run=True)
    assert dry["overwrites"] is True and pack.read_bytes() == edited
    again = mem.resolve(str(example_vault), {**RESOLUTION, "claims": RESOLUTION["claims"][:1]})
    assert again["overwrites"] is True and again["backup"].startswith(".mnemon-backups/Sources/")
    assert (example_vault / again["backup"]).read_bytes() == edited
    # the user's line is carried into the new pack, above the payload comment (test_qa_s35_resolve_keeps_user_lines)
    assert again["kept_lines"] == ["A line the user added."]
    assert pack.read_bytes().rstrip(b"\n").endswith(b"-->") and b"A line the user added." in pack.read_bytes()
    # the replaced pack still replays on ingest, and its backup is never read as a note
    mem.ingest(str(example_vault))
    assert mem.rt.store.find_edge("note:People/bram-okafor.md", "note:Projects/lighthouse.md",
                                  "belongs_to").status == "active"
    assert mem.rt.store.get_node(f"note:{again['backup']}") is None


def test_resolve_rejects_malformed_payloads(mem, example_vault: Path) -> None:
    for bad in ({}, {"title": "x", "claims": [{"subject": "a"}]}, {"title": "x", "date": "26/04/2026"}):
        with pytest.raises(InvalidInput):
            mem.resolve(str(example_vault), bad)


def test_pack_comment_round_trips(mem, example_vault: Path) -> None:
    out = mem.resolve(str(example_vault), RESOLUTION, dry_run=True)
    assert out["written"] is False and not (example_vault / "Sources").exists()
    encoded = out["markdown"].split("mneme-research-resolution-b64: ")[1].split(" -->")[0]
    decoded = json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
    assert decoded["slug"] == "pilot-vendor" and len(decoded["claims"]) == 2


SCOPED = {
    "source_path": "mneme://agent",
    "nodes": [{"ref": "a", "name": "Agent"}, {"ref": "t", "name": "Task"}],
    "edges": [{"src": "a", "dst": "t", "relation": "works_on", "status": "active", "validated": True,
               "evidence": "assigned in the tracker", "confidence": 0.95}],
    "observations": [{"node": "t", "kind": "fact", "text": "Task text one."}],
}


def _sources(mem) -> dict[str, int]:
    out: dict[str, int] = {}
    for node in mem.rt.store.iter_nodes(kind=None):
        if node.source.startswith("mneme://"):
            out[node.source] = out.get(node.source, 0) + 1
    return out


def test_resending_a_scope_leaves_the_scopes_under_it_alone(mem) -> None:
    mem.remember_payload(dict(SCOPED, source_path="mneme://agent/session-1"))
    mem.remember_payload(SCOPED)
    mem.remember_payload(SCOPED)  # replacing mneme://agent must not take mneme://agent/session-1 with it
    assert _sources(mem) == {"mneme://agent": 3, "mneme://agent/session-1": 3}
    assert mem.rt.store.find_edge("mneme://agent/session-1#a", "mneme://agent/session-1#t", "works_on") is not None
    mem.forget_source("mneme://agent")  # an explicit forget of a scope still takes the scopes under it
    assert _sources(mem) == {}


def test_resending_a_scope_drops_the_edges_it_no_longer_has_but_keeps_tombstones(mem) -> None:
    first = mem.remember_payload(dict(SCOPED, edges=[*SCOPED["edges"], {"src": "t", "dst": "a", "relation":
                                                                        "relates_to", "evidence": "x"}]))
    mem.kill_edge(first["edges"][1]["id"], reason="not related")
    mem.remember_payload(dict(SCOPED, edges=[]))
    store = mem.rt.store
    assert store.find_edge("mneme://agent#a", "mneme://agent#t", "works_on") is None
    assert store.find_edge("mneme://agent#t", "mneme://agent#a", "relates_to").status == "killed"
    assert store.find_edge("mneme://agent#t", first["observations"][0]["id"], "has_fact").status == "active"


def test_a_repeated_observation_is_invalid_input_not_a_crash(mem) -> None:
    twice = dict(SCOPED, observations=[*SCOPED["observations"], {"node": "t", "text": "task  TEXT one."}])
    with pytest.raises(InvalidInput, match=r"observations\[1\]"):
        mem.remember_payload(twice)
    assert _sources(mem) == {}


def test_a_dry_run_reports_what_the_write_would_store(mem) -> None:
    out = mem.remember_payload(SCOPED)
    mem.kill_edge(out["edges"][0]["id"])
    dry = mem.remember_payload(SCOPED, dry_run=True)
    real = mem.remember_payload(SCOPED)
    assert dry["edges"][0]["status"] == real["edges"][0]["status"] == "killed"


def test_a_dry_run_names_the_stored_edges_it_would_update(mem) -> None:
    first = mem.remember_payload(SCOPED, dry_run=True)
    assert {e["id"] for e in first["edges"]} == {None}  # nothing stored yet: no id to name
    out = mem.remember_payload(SCOPED)
    again = mem.remember_payload(SCOPED, dry_run=True)
    assert [e["id"] for e in again["edges"]] == [e["id"] for e in out["edges"]] and None not in out["edges"]


def test_validated_must_be_a_boolean(mem) -> None:
    with pytest.raises(InvalidInput, match="validated"):
        mem.remember_payload(dict(SCOPED, edges=[dict(SCOPED["edges"][0], validated="false")]))
    assert _sources(mem) == {}


def test_a_scope_with_a_hash_is_refused_for_writes(mem) -> None:
    # node ids are scope#ref: mneme://x#a with ref t and mneme://x with ref a#t would be the same node
    with pytest.raises(InvalidInput, match="#"):
        mem.remember_payload(dict(SCOPED, source_path="mneme://x#a"))
    assert mem.forget_source("mneme://x#a")["removed"]["nodes"] == 0  # forgetting such a scope still works


def test_a_bad_assertion_refuses_the_payload_before_the_graph_is_written(mem) -> None:
    with pytest.raises(InvalidInput, match=r"assertions\[0\]"):
        mem.remember_payload(dict(SCOPED, assertions=[{"subject": "Agent", "predicate": "works_on"}]))
    with pytest.raises(InvalidInput, match=r"assertions\[0\]"):
        mem.remember_payload(dict(SCOPED, assertions=[{"subject": "Agent", "predicate": "works_on",
                                                       "object": "Task", "valid_from": "soon"}]), dry_run=True)
    assert _sources(mem) == {}


def test_forgetting_a_scope_leaves_a_scope_that_differs_only_in_case(mem) -> None:
    mem.remember_payload(dict(SCOPED, source_path="mneme://Agent/session-1"))
    mem.remember_payload(dict(SCOPED, source_path="mneme://agent/session-2"))
    mem.remember_payload(SCOPED)
    dry = mem.forget_source("mneme://agent", dry_run=True)
    assert dry["removed"] == {"observations": 2, "memories": 0, "nodes": 4, "edges": 4}
    mem.forget_source("mneme://agent")  # takes mneme://agent/… and nothing of mneme://Agent/…
    assert _sources(mem) == {"mneme://Agent/session-1": 3}
    assert mem.rt.store.find_edge("mneme://Agent/session-1#a", "mneme://Agent/session-1#t", "works_on") is not None


@pytest.mark.parametrize("source, message", [(None, "missing required field 'source_path'"),
                                             (5, "source_path must be a string")])
def test_a_payload_without_a_text_source_path_is_told_so(mem, source, message: str) -> None:
    # it was told "only mneme://<scope> sources can be written" with the detail source "None": an agent that left
    # the field out (or sent a number) could not see what to fix
    payload = {k: v for k, v in PAYLOAD.items() if k != "source_path"}
    if source is not None:
        payload["source_path"] = source
    with pytest.raises(InvalidInput, match=message) as caught:
        mem.remember_payload(payload)
    assert caught.value.details == {"field": "source_path"}
