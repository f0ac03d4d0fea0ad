"""Two evidence packs stating one claim as active share one edge. Re-running one of them with the claim at a
confidence that keeps it a candidate (0.6) made the edge a candidate although the other pack still stated it active,
and a full ingest replaying the packs in path order flipped it back or not depending on which came last. The edge
is active while any pack still states it so, whatever the order; a weaker restatement leaves it to that pack."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock

SURE = {"subject": "Ada Quill", "predicate": "works_on", "object": "Lighthouse", "confidence": 0.95,
        "certainty": "confirmed", "source_type": "email", "evidence": "The kickoff email names Ada as lead."}
UNSURE = {**SURE, "confidence": 0.6}


def _research(slug: str, claim: dict[str, Any]) -> dict[str, Any]:
    return {"slug": slug, "title": slug.title(), "date": "2026-04-26", "claims": [dict(claim)]}


def _status(mem: Mnemon, edge_id: int) -> str:
    return str(mem.rt.store.get_edge(edge_id).status)


@pytest.mark.parametrize(("first", "second"), [("alpha", "beta"), ("beta", "alpha")])  # re-run sorts first, last
def test_a_weaker_rerun_leaves_a_claim_another_pack_states_active(world: tuple[Mnemon, FakeClock], tmp_path: Path,
                                                                  first: str, second: str) -> None:
    mem, _ = world
    vault = str(tmp_path)
    [edge] = mem.resolve(vault, _research(first, SURE))["edges"]
    mem.resolve(vault, _research(second, SURE))
    [preview] = mem.resolve(vault, _research(first, UNSURE), dry_run=True)["claims"]
    assert preview["status"] == "active"  # as the run says
    [again] = mem.resolve(vault, _research(first, UNSURE))["edges"]
    assert again["id"] == edge["id"] and again["status"] == "active"
    assert again["claimed_elsewhere"] == f"Sources/2026-04-26-{second}.md"
    assert _status(mem, edge["id"]) == "active"
    mem.ingest(vault)  # a full replay, in path order, agrees
    assert _status(mem, edge["id"]) == "active"
    # once no pack states it active, it is a candidate
    mem.resolve(vault, _research(second, UNSURE))
    assert _status(mem, edge["id"]) == "candidate"
    mem.ingest(vault)
    assert _status(mem, edge["id"]) == "candidate"


@pytest.mark.parametrize(("weak", "sure"), [("alpha", "beta"), ("beta", "alpha")])
def test_an_ingest_into_an_empty_store_makes_the_claim_active_whatever_the_order(
        world: tuple[Mnemon, FakeClock], make_mem: Callable[..., Mnemon], tmp_path: Path, weak: str, sure: str) -> None:
    mem, clock = world
    vault = str(tmp_path)
    mem.resolve(vault, _research(sure, SURE))
    mem.resolve(vault, _research(weak, UNSURE))
    fresh = make_mem("hash", clock=clock)
    fresh.ingest(vault)
    [edge] = [e for e in fresh.rt.store.vault.edges_touching(["placeholder:ada quill"]) if e.type == "works_on"]
    assert edge.status == "active"
