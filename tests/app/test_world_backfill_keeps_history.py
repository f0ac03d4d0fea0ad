"""`state backfill` re-derives beliefs from the edges `resolve` wrote. It must not undo what the world model decided
since (a belief retracted as never true came back from its still-active edge, under another id, and superseded the
value in force), and a store rebuilt from the vault's evidence packs must end with the value the research dated
latest, not the one whose edge happened to be written last."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon
from mnemon.core.model import Edge, Memory, iso


def _claim(slug: str, date: str, place: str, *, valid_from: str | None = None) -> dict:
    claim = {"subject": "Mira", "subject_type": "person", "predicate": "lives_in", "object": place,
             "object_type": "place", "confidence": 0.95, "strength": 0.95, "certainty": "confirmed",
             "source_type": "email", "evidence": f"An email says Mira lives in {place}."}
    if valid_from:
        claim["valid_from"] = valid_from
    return {"slug": slug, "title": f"Mira in {place}", "date": date, "sources_checked": ["email"], "claims": [claim]}


def _current(mem: Mnemon) -> list[tuple[str, str | None]]:
    return [(a["object"], a["valid_from"]) for a in mem.state_list(status="current")["assertions"]]


def _vault(root: Path) -> Path:
    root.mkdir(exist_ok=True)
    (root / "mira.md").write_text("# Mira\n- Mira is a friend from school\n", encoding="utf-8")
    return root


def test_backfill_never_brings_back_a_retracted_belief(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault")
    mem.ingest(str(vault))
    mem.resolve(str(vault), _claim("mira-home", "2026-01-10", "Lisbon"))
    wrong = mem.resolve(str(vault), _claim("mira-move", "2026-03-10", "Porto"))
    [assertion], [edge] = wrong["assertions"], wrong["edges"]
    mem.state_retract(assertion["id"], reason="misread: she never moved")
    assert [o for o, _ in _current(mem)] == ["Lisbon"]
    for dry_run in (True, False):
        out = mem.state_backfill(dry_run=dry_run)
        assert out["created_or_updated"] == 0 and out["written"] == []
        [refused] = [r for r in out["refused"] if r["edge_id"] == edge["id"]]
        assert (refused["status"], refused["id"]) == ("blocked_recreation", assertion["id"])
    assert [o for o, _ in _current(mem)] == ["Lisbon"]
    assert len(mem.state_list()["assertions"]) == 2  # nothing new under another id


def test_a_store_rebuilt_from_the_packs_keeps_the_researched_order(make_mem, tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault")
    first = make_mem("hash", db=str(tmp_path / "first.db"))
    first.ingest(str(vault))
    # the earlier pack (by name) holds the later value: she moved to Porto in May, Lisbon was March
    first.resolve(str(vault), _claim("porto", "2026-01-10", "Porto", valid_from="2026-05-01"))
    first.resolve(str(vault), _claim("lisbon", "2026-02-01", "Lisbon", valid_from="2026-03-01"))
    before = sorted((a["id"], a["object"], a["status"]) for a in first.state_list()["assertions"])
    assert _current(first) == [("Porto", "2026-05-01T00:00:00+00:00")]

    rebuilt = make_mem("hash", db=str(tmp_path / "rebuilt.db"))
    rebuilt.ingest(str(vault))  # the packs' payloads re-create the claim edges and their beliefs, pack by pack
    assert _current(rebuilt) == [("Porto", "2026-05-01T00:00:00+00:00")]
    # the same beliefs as the store they were resolved in: names as written, same ids (same start), same chain
    assert sorted((a["id"], a["object"], a["status"]) for a in rebuilt.state_list()["assertions"]) == before
    assert rebuilt.state_backfill()["created_or_updated"] == 0


def test_an_edge_written_before_edges_kept_their_start_is_dated_by_its_pack(mem: Mnemon) -> None:
    now = iso(mem.rt.now())
    store = mem.rt.store
    for node_id, name in (("e-mira", "Mira"), ("e-lisbon", "lisbon"), ("e-porto", "porto")):
        store.insert_node(Memory(id=node_id, kind="entity", title=name, content=name, created_at=now, updated_at=now))
    with store.transaction():  # as an older `resolve` wrote them: no start on the edge, the names as written
        for dst, place, path, slug in (("e-lisbon", "Lisbon", "Sources/2026-01-10-mira-home.md", "mira-home"),
                                       ("e-porto", "Porto", "Sources/2026-03-10-elsewhere.md", "mira-move")):
            store.upsert_edge(Edge(src="e-mira", dst=dst, type="lives_in", confidence=0.95, origin="resolve",
                                   evidence=f"She lives in {place}.", source_path=path,
                                   metadata={"validated": True, "research_resolution": slug, "subject": "Mira",
                                             "object": place, "certainty": "confirmed"}, created_at=now))
    mem.state_backfill()
    dated = {a["object"]: a["valid_from"] for a in mem.state_list()["assertions"]}
    # the pack named after the edge's own research dates it; a path naming another slug does not
    assert dated == {"Lisbon": "2026-01-10T00:00:00+00:00", "Porto": None}


def test_a_resolve_dry_run_says_what_each_claim_would_become(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path / "vault")
    mem.ingest(str(vault))
    home = mem.resolve(str(vault), _claim("mira-home", "2026-01-10", "Lisbon"))
    payload = _claim("mira-move", "2026-03-10", "Porto")
    weak = dict(payload["claims"][0], object="Madrid", confidence=0.6, certainty="likely")
    payload["claims"].append(weak)
    dry = mem.resolve(str(vault), payload, dry_run=True)
    porto, madrid = dry["claims"]
    assert (porto["status"], madrid["status"]) == ("active", "candidate")
    assert porto["assertion"]["superseded_ids"] == [home["assertions"][0]["id"]]
    assert porto["assertion"]["dry_run"] is True and "assertion" not in madrid
    assert mem.state_list(status="current")["assertions"][0]["object"] == "Lisbon"  # nothing written
    assert not (vault / dry["note_path"]).exists()
    real = mem.resolve(str(vault), payload)
    assert [e["status"] for e in real["edges"]] == [porto["status"], madrid["status"]]
    assert real["assertions"][0]["id"] == porto["assertion"]["id"]
