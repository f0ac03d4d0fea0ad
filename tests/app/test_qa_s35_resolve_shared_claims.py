"""Two pieces of research stating the same claim share one edge (one row per subject, relation and object), written
last by the later one. Re-running the later research without that claim demoted the edge to a candidate although the
first evidence pack still stated it: its belief read `unbacked`, `retrieve` no longer trusted it, and the next ingest
that re-read the first pack made it active again. A claim withdrawn by one pack and still stated by another stays
that pack's claim (written again from it, its `source_path`); only a claim no pack states any more is demoted."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

WORKS = {"subject": "Ada Quill", "predicate": "works_on", "object": "Lighthouse", "confidence": 0.95,
         "certainty": "confirmed", "source_type": "email", "evidence": "The kickoff email names Ada as lead."}
TIDE = {"subject": "Bram Okafor", "predicate": "works_on", "object": "Tidewatch", "confidence": 0.95,
        "certainty": "confirmed", "source_type": "email", "evidence": "The staffing sheet."}


def _research(slug: str, date: str, *claims: dict[str, Any]) -> dict[str, Any]:
    return {"slug": slug, "title": slug.title(), "date": date, "claims": [dict(c) for c in claims]}


FIRST = _research("staffing", "2026-04-26", WORKS)
SECOND = _research("teams", "2026-04-27", WORKS, TIDE)


def _edge(mem: Mnemon, edge_id: int) -> tuple[str, str]:
    edge = mem.rt.store.get_edge(edge_id)
    return edge.status, edge.source_path


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_claim_another_pack_still_states_stays_active(example_vault_mem: Mnemon, example_vault: Path,
                                                        dry_run: bool) -> None:
    mem, vault = example_vault_mem, str(example_vault)
    [shared] = mem.resolve(vault, FIRST)["edges"]
    assert mem.resolve(vault, SECOND)["edges"][0]["id"] == shared["id"]
    out = mem.resolve(vault, _research("teams", "2026-04-27", TIDE), dry_run=dry_run)
    assert shared["id"] not in out.get("dropped_edges", [])
    assert out["claimed_elsewhere"] == [{"edge_id": shared["id"], "note_path": "Sources/2026-04-26-staffing.md"}]
    if dry_run:
        return
    assert _edge(mem, shared["id"]) == ("active", "Sources/2026-04-26-staffing.md")
    [belief] = [a for a in mem.state_list(subject="Ada Quill")["assertions"] if a["predicate"] == "works_on"]
    assert belief["validity"] == "current"
    mem.ingest(vault)  # the first pack read again changes nothing
    assert _edge(mem, shared["id"]) == ("active", "Sources/2026-04-26-staffing.md")


def test_a_claim_no_pack_states_any_more_is_demoted(example_vault_mem: Mnemon, example_vault: Path) -> None:
    mem, vault = example_vault_mem, str(example_vault)
    [shared] = mem.resolve(vault, FIRST)["edges"]
    mem.resolve(vault, SECOND)
    mem.resolve(vault, _research("staffing", "2026-04-26"))  # the first withdraws it: the second still states it
    assert _edge(mem, shared["id"]) == ("active", "Sources/2026-04-27-teams.md")
    out = mem.resolve(vault, _research("teams", "2026-04-27", TIDE))  # now no pack does
    assert out["dropped_edges"] == [shared["id"]]
    assert _edge(mem, shared["id"])[0] == "candidate"


def test_a_pack_gone_from_the_vault_does_not_keep_the_claim(example_vault_mem: Mnemon, example_vault: Path) -> None:
    mem, vault = example_vault_mem, str(example_vault)
    [shared] = mem.resolve(vault, FIRST)["edges"]
    mem.resolve(vault, SECOND)
    (example_vault / "Sources" / "2026-04-26-staffing.md").unlink()
    assert mem.resolve(vault, _research("teams", "2026-04-27", TIDE))["dropped_edges"] == [shared["id"]]
    assert _edge(mem, shared["id"])[0] == "candidate"
