"""A vault's derived rows beside a writer's own memories: time links only what has a time, auto-prune counts and
takes only the writer's memories, and a bullet gone from its note stays out of context packs even when a link kept
its row."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon

from conftest import FakeClock

NOTE = "# Suppliers\n\n- Northwind Batteries overdue on the May shipment\n- Gull Electronics delivers on time\n"


def _ingest(mem: Mnemon, tmp_path: Path, text: str) -> None:
    vault = tmp_path / "vault"
    vault.mkdir(exist_ok=True)
    (vault / "suppliers.md").write_text(text, encoding="utf-8")
    mem.ingest(str(vault))


def _temporal_neighbours(mem: Mnemon, node_id: str) -> set[str]:
    edges = mem.rt.store.edges_of([node_id], statuses=("active",), types=("temporal",), direction="out")
    return {e.dst for e in edges if e.sub_type == "proximity"}


def test_a_remember_gets_time_links_to_memories_not_to_rows_a_vault_ingest_just_wrote(mem: Mnemon,
                                                                                       tmp_path: Path) -> None:
    earlier = mem.remember("Called the harbour office about the pilot", source="user")["id"]
    _ingest(mem, tmp_path, NOTE)  # its rows are dated now: the ingest's time, not the notes'
    mine = mem.remember("Escalated the battery delay to Northwind", source="agent")["id"]
    assert _temporal_neighbours(mem, mine) == {earlier}
    imported = mem.import_json({"insights": [{"content": "Northwind promised a new date", "source": "mail"}]})
    new_id = imported["results"][0]["id"]
    assert not {n for n in _temporal_neighbours(mem, new_id) if n.startswith("vault:")}


def test_a_bullet_gone_from_its_note_leaves_context_packs_though_a_link_keeps_its_row(mem: Mnemon,
                                                                                      tmp_path: Path) -> None:
    _ingest(mem, tmp_path, NOTE)
    bullet = next(n for n in mem.rt.store.iter_nodes(kind="memory") if n.content.startswith("Northwind"))
    mine = mem.remember("Escalated Northwind to their account manager", source="agent")["id"]
    mem.link(mine, bullet.id, "causal", sub_type="causes", weight="0.8")
    _ingest(mem, tmp_path, "# Suppliers\n\n- Gull Electronics delivers on time\n")
    kept = mem.rt.store.get_node(bullet.id, include_deleted=True)
    assert kept is not None and kept.deleted_at is not None  # kept for the link, but gone from the note
    assert mem.rt.store.find_edge(mine, bullet.id, "causal") is not None  # the writer's link is not lost
    pack = mem.retrieve("Northwind escalation account manager", max_items=8, budget=10_000)
    assert [i["id"] for i in pack["items"] if i["item_type"] == "memory"] == [mine]
    assert not [i for i in pack["items"] if bullet.id in (i.get("src", {}).get("id"), i.get("dst", {}).get("id"))]
    assert any(s["reason"] == "endpoint_forgotten" for s in pack["skipped"])


def test_auto_prune_keeps_to_the_writers_memories_and_never_takes_a_vault_row(make_mem: Any, tmp_path: Path) -> None:
    clock = FakeClock()
    mem = make_mem("none", clock=clock, max_insights=3)
    _ingest(mem, tmp_path, NOTE + "- Harbour Cells order blocked by the invoice\n- Waiting on the Tern quote\n")
    vault_rows = {n.id for n in mem.rt.store.iter_nodes(kind="memory") if n.source.startswith("vault:")}
    assert len(vault_rows) >= 3  # the vault alone is at the cap: it must not count against it
    own = [mem.remember(f"Standup note {k}: the pilot slipped a day", source="agent", importance=2)["id"]
           for k in range(3)]
    assert all(mem.rt.store.get_node(i) is not None for i in own)  # 3 of the writer's own: at the cap, none pruned
    clock.advance(days=2)  # past the grace period
    out = mem.remember("Standup note 4: the pilot is back on track", source="agent", importance=2)
    assert out["auto_pruned"] == 1 and out["auto_pruned_ids"][0] in own
    alive = {n.id for n in mem.rt.store.iter_nodes(kind="memory")}
    assert vault_rows <= alive  # every section and bullet of the vault is still there
    swept = mem.gc(threshold=10.0, limit=100)
    assert not {c["insight"]["id"] for c in swept["candidates"]} & vault_rows
    assert swept["recomputed"] == 3 and swept["total_insights"] == 3 + len(vault_rows)  # the writer's own only
    assert mem.status()["auto_prune"] == {"cap": 3, "memories_counted": 3, "vault_rows_exempt": len(vault_rows),
                                          "payload_rows_exempt": 0}


def test_recalls_time_anchors_read_memories_with_a_time_of_their_own(make_mem: Any, tmp_path: Path) -> None:
    mem = make_mem("hash", clock=FakeClock())  # 2026-03-01
    mine = mem.remember("Booked the ferry for the site visit", source="agent")["id"]
    _ingest(mem, tmp_path, NOTE)  # newer rows than `mine`, dated by the ingest
    trace = mem.recall("what happened lately", explain=True)["trace"]
    anchors = next(step for step in trace if step["stage"] == "anchors")["signals"]
    assert anchors["recency"] == [mine]
    period = mem.recall("what did I do in March 2026", explain=True)["trace"]
    anchors = next(step for step in period if step["stage"] == "anchors")["signals"]
    assert anchors["period"] == [mine]  # the vault's rows are dated March 2026 too, by their ingest
