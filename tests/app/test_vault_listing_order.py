"""Lists of edges a person reads come out in the same order on SQLite and PostgreSQL: by what the edges join, not
by edge id (SQLite numbers a note's edges to its own items below zero, PostgreSQL does not)."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon


def test_promote_candidates_lists_edges_by_relation_and_ends(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    for name in ("Zeta", "Alpha", "Mid"):
        sections = "".join(f"\n## Part {k} of {name}\nText {k} about [[Alpha]] and [[Zeta]] #t{k}\n"
                           for k in range(6))
        (vault / f"{name}.md").write_text(f"# {name}\nIntro with [[Mid]]\n{sections}", encoding="utf-8")
    mem.ingest(str(vault))
    store = mem.rt.store
    for dry_run in (True, False):
        listed = mem.promote_candidates(mode="all", dry_run=dry_run)["edges"]
        assert len(listed) > 20
        keys = []
        for item in listed:
            edge = store.get_edge(item["id"])
            assert edge is not None and edge.type == item["relation"]
            keys.append((edge.type, edge.src, edge.dst))
        assert keys == sorted(keys)
