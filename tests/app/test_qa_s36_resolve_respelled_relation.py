"""Research resolved by an earlier version kept the relation "situé à" as `situ` (edge and belief). Resolving it
again wrote the claim as situé_à — and the `situ` edge stayed active beside it, its belief current: one claim, two
edges, two beliefs in force. The earlier edge is the same claim spelt the old way: it is retired, its belief
retracted with a reason naming the spelling the pack uses now, and both are said in the reply (a dry run too)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import mnemon.app.vault.claim_beliefs as claim_beliefs
import mnemon.app.vault.resolve as resolve
import mnemon.app.vault.shared_claims as shared_claims
from mnemon.app.memory import Mnemon

from conftest import FakeClock

_CLAIM = {"subject": "Acme", "predicate": "Situé à", "object": "Lisbon", "confidence": 0.95,
          "certainty": "confirmed", "source_type": "email", "evidence": "The lease names Lisbon."}
_RESEARCH = {"slug": "hq", "title": "HQ", "date": "2026-06-01", "claims": [_CLAIM]}


def _resolved_by_the_old_version(mem: Mnemon, vault: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    def old(text: str) -> str:
        return re.sub(r"[^a-z0-9_]+", "_", text.strip().casefold()).strip("_")

    with monkeypatch.context() as patch:
        for module in (resolve, claim_beliefs, shared_claims):
            patch.setattr(module, "predicate_name", old)
        return mem.resolve(str(vault), _RESEARCH)


def _beliefs(mem: Mnemon) -> list[tuple[str, str]]:
    return sorted((a["predicate"], a["validity"]) for a in mem.state_list()["assertions"])


def test_a_rerun_retires_the_edge_and_belief_of_the_old_spelling(world: tuple[Mnemon, FakeClock], tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    mem, clock = world
    (tmp_path / "Acme.md").write_text("# Acme\n", encoding="utf-8")
    (tmp_path / "Lisbon.md").write_text("# Lisbon\n", encoding="utf-8")
    mem.ingest(str(tmp_path))
    [old_edge] = _resolved_by_the_old_version(mem, tmp_path, monkeypatch)["edges"]
    assert old_edge["predicate"] == "situ" and _beliefs(mem) == [("situ", "current")]
    clock.advance(minutes=5)
    preview = mem.resolve(str(tmp_path), _RESEARCH, dry_run=True)
    out = mem.resolve(str(tmp_path), _RESEARCH)
    said = [{"edge_id": old_edge["id"], "relation": "situ", "now": "situé_à"}]
    assert preview["respelled_edges"] == out["respelled_edges"] == said
    assert preview["respelled_assertions"] == out["respelled_assertions"] == [old_edge["assertion_id"]]
    assert _beliefs(mem) == [("situ", "retracted"), ("situé_à", "current")]
    assert mem.explain_edge(old_edge["id"])["edge"]["status"] == "retired"
    reason = mem.state_explain(old_edge["assertion_id"])["assertion"]["metadata"]["retraction"]["reason"]
    assert reason == f"respelled: {out['note_path']} states it as situé_à"
    # a later run has nothing more to say, and the retired edge stays retired through an ingest
    assert "respelled_edges" not in mem.resolve(str(tmp_path), _RESEARCH)
    mem.ingest(str(tmp_path))
    assert mem.explain_edge(old_edge["id"])["edge"]["status"] == "retired"
    assert _beliefs(mem) == [("situ", "retracted"), ("situé_à", "current")]


def test_an_old_spelling_a_person_decided_is_left_alone(world: tuple[Mnemon, FakeClock], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    mem, _ = world
    [old_edge] = _resolved_by_the_old_version(mem, tmp_path, monkeypatch)["edges"]
    mem.weaken_edge(old_edge["id"])
    out = mem.resolve(str(tmp_path), _RESEARCH)
    assert "respelled_edges" not in out
    assert mem.explain_edge(old_edge["id"])["edge"]["status"] != "retired"
