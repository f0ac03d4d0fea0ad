"""`status` on a vault store reported `edge_count: 33102` and `edges_by_type` with only the has_* observation types,
while `ingest` had said `edges: 102709` and `edges_by_status` added up to 102,709: both counts are right (edge_count
and edges_by_type count *active* edges, as mnemon's own status does, tests/app/test_edge_counts.py), but nothing said
so. `edges_total` beside them counts every edge whatever its status, equal to what `ingest` says and to the sum of
`edges_by_status`, on both backends; docs/agents.md says what each count counts."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mnemon.app.memory import Mnemon

AGENTS = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def test_status_says_the_total_beside_the_active_counts(make_mem: Callable[..., Mnemon], example_vault: Path) -> None:
    mem = make_mem("hash")
    out = mem.ingest(str(example_vault))
    status = mem.status()
    assert status["edges_by_status"]["candidate"] > 0  # a vault's links start as candidates: the counts differ
    assert status["edges_total"] == sum(status["edges_by_status"].values()) == out["edges"]
    assert status["edge_count"] == status["edges_by_status"]["active"] == sum(status["edges_by_type"].values())
    assert status["edges_total"] > status["edge_count"]


def test_an_empty_store_has_no_edges_at_all(make_mem: Callable[..., Mnemon]) -> None:
    status = make_mem("hash").status()
    assert (status["edges_total"], status["edge_count"], status["edges_by_status"]) == (0, 0, {})


def test_agents_md_says_what_each_status_count_counts() -> None:
    text = " ".join(AGENTS.read_text(encoding="utf-8").split())
    for field in ("edge_count", "edges_by_type", "edges_by_status", "edges_total", "total_insights",
                  "deleted_insights", "nodes_by_kind"):
        assert f"`{field}`" in text, field
    assert "active edges" in text
