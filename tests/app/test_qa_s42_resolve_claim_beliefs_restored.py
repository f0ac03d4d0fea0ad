"""A `resolve` claim that passes the gate is an active edge and a belief of the world model. Ingesting the vault into a
fresh store brought the edge back from the evidence pack but not the belief: `state list` stayed empty and the reply's
`beliefs_missing` sent the user to `state backfill`. The ingest now re-creates the claims' beliefs from the pack —
under the ids `resolve` gave them, starting on the research's date, pointing at the re-created edges — once, and
never over a store that holds them (a belief a person retracted stays retracted; one the gate refused is not proposed,
nor its refusal audited, again). A restored prediction is dated by the research, not by the ingest."""
from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.app.world.tables import world_of

from conftest import FakeClock
from app.conftest import WORLD_T0

_CLAIM = {"subject": "Acme", "predicate": "supplies", "object": "Globex", "confidence": 0.95,
          "certainty": "confirmed", "source_type": "web", "evidence": "the signed contract"}
_PREDICTION = {"title": "Parcel arrives", "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
               "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-07-05T00:00:00Z"}
# active as an edge under --active-threshold 0.8, below the world model's 0.9: the gate refuses its belief
_HUNCH = {**_CLAIM, "predicate": "competes_with", "confidence": 0.85}
_LATER = WORLD_T0 + timedelta(days=20)  # the rebuild, weeks after the research


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir()
    for name in ("Acme", "Globex"):
        (vault / f"{name}.md").write_text(f"# {name}\nA company.\n")
    return vault


def _beliefs(mem: Mnemon) -> list[tuple[Any, ...]]:
    return sorted((a["id"], a["subject_name"], a["predicate"], a["object"], a["status"], a["valid_from"])
                  for a in mem.state_list(limit=1000)["assertions"])


def _claim_edge(mem: Mnemon, relation: str) -> int:
    [edge] = [e for e in mem.rt.store.vault.edges_touching(["note:Acme.md"]) if e.type == relation]
    return int(edge.id or 0)


def test_a_fresh_ingest_brings_back_the_claims_beliefs(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    first = make_mem("hash", db=tmp_path / "first.db", clock=FakeClock(WORLD_T0))
    first.ingest(str(vault))
    research = {"title": "Acme supply", "date": "2026-05-20", "claims": [_CLAIM], "predictions": [_PREDICTION]}
    [belief] = first.resolve(str(vault), research)["assertions"]
    stated = _beliefs(first)
    assert belief["written"] and [b[0] for b in stated] == [belief["id"]]
    assert stated[0][5] == "2026-05-20T00:00:00+00:00"  # the research's own start date

    fresh = make_mem("hash", clock=FakeClock(_LATER))  # (PostgreSQL in the postgres run)
    out = fresh.ingest(str(vault))
    assert "beliefs_missing" not in out  # nothing left for `state backfill` to do
    assert _beliefs(fresh) == stated  # the same belief, under the same id, from the same day
    assert out["world_restored"]["assertions"] == [belief["id"]]
    explained = fresh.state_explain(belief["id"])["assertion"]
    assert explained["source_edge_id"] == str(_claim_edge(fresh, "supplies"))  # the re-created edge's
    assert explained["source_path"] == "Sources/2026-05-20-acme-supply.md"
    # the prediction was made by the research, on its date, not by the rebuild weeks later
    [prediction] = fresh.predict_due(before="2026-08-01T00:00:00Z")["predictions"]
    assert prediction["created_at"] == "2026-05-20T00:00:00+00:00"

    history = world_of(fresh.rt).events("assertion", belief["id"])
    for mode in ("rebuild", "update"):
        assert "world_restored" not in fresh.ingest(str(vault), mode=mode)
    assert _beliefs(fresh) == stated and world_of(fresh.rt).events("assertion", belief["id"]) == history
    assert fresh.state_backfill()["created_or_updated"] == 0


def test_a_store_that_holds_the_beliefs_keeps_them_as_they_are(make_mem: Callable[..., Mnemon],
                                                               tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    mem = make_mem("hash", clock=FakeClock(WORLD_T0))
    mem.ingest(str(vault))
    research = {"title": "Acme supply", "date": "2026-05-20", "claims": [_CLAIM, _HUNCH]}
    out = mem.resolve(str(vault), research, active_threshold=0.8)
    assert [e["status"] for e in out["edges"]] == ["active", "active"]
    kept, refused = out["assertions"]
    assert kept["written"] and refused["written"] is False  # the world model's gate keeps the hunch out
    mem.state_retract(kept["id"], reason="the contract was cancelled")
    world = world_of(mem.rt)
    history = {i: world.events("assertion", i) for i in (kept["id"], refused["id"])}
    before = _beliefs(mem)

    pack = vault / out["note_path"]
    pack.write_text(pack.read_text().replace("## Claims", "A line of mine.\n\n## Claims"))  # re-read by the ingest
    again = mem.ingest(str(vault))
    assert again["notes_read"] == 1 and "world_restored" not in again
    assert "beliefs_missing" not in again  # the gate's refusal is the resolve's answer, not a belief to backfill
    assert _beliefs(mem) == before  # the retraction stands
    assert {i: world.events("assertion", i) for i in history} == history  # nothing restated, refused or audited

    fresh = make_mem("hash", db=tmp_path / "fresh.db", clock=FakeClock(_LATER))
    rebuilt = fresh.ingest(str(vault))
    assert "beliefs_missing" not in rebuilt
    assert [b[0] for b in _beliefs(fresh)] == [kept["id"]]  # (a fresh store never saw the retraction)
    assert world_of(fresh.rt).events("assertion", refused["id"]) == []  # not proposed, not audited
