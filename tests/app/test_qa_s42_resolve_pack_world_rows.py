"""A `resolve` payload's `assertions[]` and `predictions[]` are world-model rows filed under its evidence pack. The
vault is the source of truth and the pack carries the payload whole, yet ingesting the vault into a fresh database
brought back the claim edges only: the pack's beliefs and open predictions were gone, and nothing said so. An ingest
now re-creates the ones the store has no row of — once (a second ingest adds nothing), and never over a store that
holds them (a belief a person retracted, a refusal the gate audited, stay as they are)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.app.world.tables import world_of

from conftest import FakeClock
from app.conftest import WORLD_T0

_BELIEF = {"subject": "Acme", "predicate": "based_in", "object": "Lisbon", "confidence": 0.95,
           "certainty": "confirmed", "source_type": "email", "evidence": "the HQ address"}
_PREDICTION = {"title": "Parcel arrives",
               "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
               "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z"}
_CLAIM = {"subject": "Acme", "predicate": "supplies", "object": "Globex", "confidence": 0.95,
          "certainty": "confirmed", "source_type": "web", "evidence": "the contract"}


def _research() -> dict[str, Any]:
    return {"slug": "acme", "title": "Acme", "date": "2026-06-01", "claims": [_CLAIM],
            "assertions": [_BELIEF], "predictions": [_PREDICTION]}


def _world(mem: Mnemon) -> tuple[list[tuple[str, str, str, str]], list[tuple[str, str, str]]]:
    beliefs = sorted((r["id"], r["status"], r["predicate"], r["object"])
                     for r in mem.state_list(limit=1000)["assertions"] if r["predicate"] == "based_in")
    due = mem.predict_due(before="2027-01-01T00:00:00Z")["predictions"]
    return beliefs, sorted((p["id"], p["title"], p["status"]) for p in due)


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Acme.md").write_text("# Acme\nSupplier.\n")
    (vault / "Globex.md").write_text("# Globex\nCustomer.\n")
    return vault


def test_a_fresh_ingest_recreates_the_packs_beliefs_and_predictions_once(make_mem: Callable[..., Mnemon],
                                                                         tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    first = make_mem("hash", db=tmp_path / "one.db", clock=FakeClock(WORLD_T0))
    first.ingest(str(vault))
    first.resolve(str(vault), _research())
    stated = _world(first)
    assert stated[0] and stated[1]  # (the belief is current, the prediction open)

    fresh = make_mem("hash", db=tmp_path / "two.db", clock=FakeClock(WORLD_T0))
    fresh.ingest(str(vault))
    assert _world(fresh) == stated  # the same rows, under the same ids
    fresh.ingest(str(vault))
    fresh.ingest(str(vault), mode="update")
    assert _world(fresh) == stated  # again: nothing doubled
    explained = fresh.state_explain(stated[0][0][0])["assertion"]
    assert explained["source_path"] == "Sources/2026-06-01-acme.md"


def test_an_ingest_leaves_the_world_rows_a_store_holds_as_they_are(make_mem: Callable[..., Mnemon],
                                                                   tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    mem = make_mem("hash", db=tmp_path / "one.db", clock=FakeClock(WORLD_T0))
    mem.ingest(str(vault))
    hunch = {**_BELIEF, "object": "Madrid", "confidence": 0.3, "certainty": "possible"}
    out = mem.resolve(str(vault), {**_research(), "assertions": [_BELIEF, hunch]})
    belief, refused = out["assertions"][1:]  # (the first is the claim's own belief)
    assert refused["written"] is False  # the gate keeps a hunch out of the world model
    mem.state_retract(belief["id"], reason="moved to Porto")
    world = world_of(mem.rt)
    history = {i: world.events("assertion", i) for i in (belief["id"], refused["id"])}
    before = _world(mem)
    mem.ingest(str(vault))
    mem.ingest(str(vault))
    assert _world(mem) == before
    assert mem.state_explain(belief["id"])["assertion"]["status"] == "retracted"
    # nothing restated or refused again: each row's history is as the resolve and the person left it
    assert {i: world.events("assertion", i) for i in history} == history
