"""What `surface --prompt` cards say about the thing they stand for.

* A card for an edge (a link, a tag, a heading of a note) never said what the edge joins: three candidate edges of
  one note came out as three "Unconfirmed: Plan" cards whose insights quoted the line the link sits on — two of
  them word for word the same. An edge's card now names both ends and the relation, in its title and insight.
* A card for a scoped payload's observation said "<its text> holds “<its text>”" — the memory named as its own
  container — and never the node it hangs on. It now reads "A memory holds “…”; it connects to <node> (…)".
"""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

from app.test_vault_incremental import _write

PAYLOAD = {"source_path": "mneme://agent/acme",
           "nodes": [{"ref": "task", "type": "task", "name": "Validate Acme pricing"}],
           "observations": [{"node": "task", "kind": "risk", "score": 5,
                             "text": "Acme pricing may rise twenty percent in spring."}]}


@pytest.fixture
def plan(mem: Mnemon, tmp_path: Path) -> Mnemon:
    _write(tmp_path / "vault", {"Plan.md": "# Plan\n\nKickoff with [[Budget]] #launch\n\n## Kickoff agenda\n\ntext\n",
                                "Budget.md": "# Budget\n"})
    mem.ingest(str(tmp_path / "vault"), embed=False)
    return mem


def test_an_edge_card_names_what_the_edge_joins(plan: Mnemon) -> None:
    cards = [t for t in plan.surface(prompt="plan kickoff budget launch agenda", limit=10)["thoughts"]
             if t["surface"]["kind"] == "edge"]
    assert cards
    for card in cards:
        last = card["path"][-1]
        assert last["name"] in card["title"] and last["name"] in card["insight"], card
        assert last["via"].replace("_", " ") in card["insight"]
    titles = [c["title"] for c in cards]
    assert len(set(titles)) == len(titles)


def test_a_payload_observation_card_names_the_node_it_hangs_on(mem: Mnemon) -> None:
    mem.remember_payload(PAYLOAD)
    [card] = [t for t in mem.surface(prompt="Acme pricing rise spring", limit=5)["thoughts"]
              if t["surface"]["source_id"].startswith("mneme://agent/acme#obs/")]
    text = PAYLOAD["observations"][0]["text"]
    assert card["insight"].count(text) == 1, card["insight"]
    assert "Validate Acme pricing" in card["insight"]
