"""The same store content exports its `vault_edges` (the decisions about a vault's edges) in the same order on
SQLite and PostgreSQL: by their ends and relation. They came out by edge id, and SQLite keeps a decided containment
edge (a note's edge to its own section or bullet) under the negative id it was derived under, so those came first
there and in ingest order on PostgreSQL: two backups of one vault differed line by line."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import Mnemon

pytestmark = pytest.mark.postgres

A = "note:A.md"


@pytest.fixture
def open_mem() -> Iterator[Callable[[str], Mnemon]]:
    opened: list[Mnemon] = []

    def factory(db: str) -> Mnemon:
        m = Mnemon.open(load_config(dict(os.environ, MNEMON_EMBED_PROVIDER="hash"), db=db))
        opened.append(m)
        return m

    yield factory
    for m in opened:
        m.close()


def _vault(root: Path) -> Path:
    vault = root / "vault"
    vault.mkdir()
    (vault / "A.md").write_text("# A\nSee [[B]] #t\n## Part\nbody\n- Risk: appeal deadline 2026-01-01\n"
                                "- Blocked: waiting on parts\n", encoding="utf-8")
    (vault / "B.md").write_text("# B\nx\n", encoding="utf-8")
    return vault


def _decide(m: Mnemon) -> None:
    """As a person, on every backend alike: kill A's tag, link and sections, weaken its risk, validate its block."""
    for e in list(m.rt.store.iter_edges(statuses=("active", "candidate"))):
        if e.src != A:
            continue
        if e.type in ("has_tag", "links_to", "has_section"):
            m.kill_edge(int(e.id or 0), reason="not so")
        elif e.type == "has_risk":
            m.weaken_edge(int(e.id or 0), factor=0.5)
        elif e.type == "has_blocked":
            m.validate_edge(int(e.id or 0))


def _decisions(m: Mnemon) -> list[tuple[Any, ...]]:
    return [(r["source_id"], r["target_id"], r["edge_type"], r.get("status", "active"), r.get("decision"))
            for r in m.export_json()["vault_edges"]]


def test_vault_edges_export_in_one_order_on_both_backends(open_mem: Callable[[str], Mnemon], pg_db_url: str,
                                                          tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    exported = []
    for db in (str(tmp_path / "a.db"), pg_db_url):
        m = open_mem(db)
        m.ingest(str(vault), embed=False)
        _decide(m)
        exported.append(_decisions(m))
    on_sqlite, on_postgres = exported
    assert len(on_sqlite) == 6 and {d[2] for d in on_sqlite} >= {"has_section", "has_tag", "links_to"}
    assert on_sqlite == on_postgres
    assert on_sqlite == sorted(on_sqlite)  # by ends and relation: a stable key whatever ids the store gave
