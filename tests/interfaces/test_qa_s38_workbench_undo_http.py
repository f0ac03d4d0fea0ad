"""QA session 38, what the workbench needs from the API to show what was forgotten and bring it back, over HTTP:

- `graph` focused on a forgotten memory answered "no node '…'; `recall`, or `graph` without a focus, lists ids", as
  of an id never stored, where `show` of the same id says when and by what it was removed;
- `log` with op forget still listed a forget after `forget --undo` had brought the memory back, nothing telling the
  two apart: a page listing what was forgotten offered Undo for a memory already back, or one that could not come
  back (a vault row, a text remembered again since) until it was pressed. Each forget and prune row now says whether
  its removal still holds (`in_effect`) and whether undo would work (`undo`), as `show`'s not_found does.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .test_http import Call, serve

__all__ = ["serve"]  # the fixture, shared with test_http.py

WRITES = {"allow_writes": True}


def _two(mem: Any) -> tuple[str, str]:
    a = mem.remember("Alice manages the Berlin office")["id"]
    b = mem.remember("Bob reports to Alice in the Berlin office")["id"]
    return a, b


def test_a_graph_focused_on_a_forgotten_memory_says_when_and_by_what(serve: Callable[..., Call], mem: Any) -> None:
    _, b = _two(mem)
    mem.forget(b)
    call = serve()
    status, graph, _ = call(f"/api/graph?focus={b}")
    _, shown, _ = call(f"/api/show?id={b}")
    assert status == 404 and graph["error"]["code"] == "not_found"
    details = graph["error"]["details"]
    assert details["removed_by"] == "forget" and details["deleted_at"] == shown["error"]["details"]["deleted_at"]
    assert "was forgotten at" in graph["error"]["message"] and "no node" not in graph["error"]["message"]


def test_a_graph_focused_on_an_id_never_stored_still_says_no_node(serve: Callable[..., Call], mem: Any) -> None:
    _two(mem)
    status, graph, _ = serve()("/api/graph?focus=never-stored")
    assert status == 404 and graph["error"]["message"].startswith("no node 'never-stored'")
    assert "removed_by" not in graph["error"].get("details", {})


def _removal(call: Call, op: str, node_id: str) -> dict[str, Any]:
    status, log, _ = call(f"/api/log?op={op}&limit=50")
    assert status == 200, log
    return next(e for e in log["entries"] if e["insight_id"] == node_id)


def test_a_forget_undone_since_says_its_removal_no_longer_holds(serve: Callable[..., Call], mem: Any) -> None:
    _, b = _two(mem)
    call = serve(**WRITES)
    assert call("/api/forget", body={"id": b})[1]["status"] == "deleted"
    row = _removal(call, "forget", b)
    assert row["in_effect"] is True and row["undo"] == {"possible": True}
    _, shown, _ = call(f"/api/show?id={b}")
    assert shown["error"]["details"]["undo"] == {"possible": True}
    status, undone, _ = call("/api/forget", body={"id": b, "undo": True})
    assert status == 200 and undone["status"] == "revived"
    row = _removal(call, "forget", b)
    assert row["in_effect"] is False and "undo" not in row
    # forgotten again: only the newest removal holds
    call("/api/forget", body={"id": b})
    rows = [e for e in call("/api/log?op=forget")[1]["entries"] if e["insight_id"] == b]
    assert [r["in_effect"] for r in rows] == [True, False]


def test_a_removal_undo_would_refuse_says_why_before_it_is_tried(serve: Callable[..., Call], mem: Any) -> None:
    _, b = _two(mem)
    mem.forget(b)
    again = mem.remember("Bob reports to Alice in the Berlin office")["id"]
    call = serve(**WRITES)
    undo = _removal(call, "forget", b)["undo"]
    assert undo["possible"] is False and undo["reason"] == "duplicate" and again in undo["message"]
    _, shown, _ = call(f"/api/show?id={b}")
    assert shown["error"]["details"]["undo"] == undo
    status, refused, _ = call("/api/forget", body={"id": b, "undo": True})
    assert status == 409 and refused["error"]["details"]["reason"] == "duplicate"


def test_a_vault_row_forgotten_is_offered_an_undo_the_next_ingest_finishes(serve: Callable[..., Call], mem: Any,
                                                                            example_vault: Any) -> None:
    mem.ingest(str(example_vault))
    hits = [r["insight"]["id"] for r in mem.recall("supplier battery", limit=20)["results"]]
    vault_id = next(i for i in hits if i.startswith("vault:"))
    mem.forget(vault_id)
    call = serve(**WRITES)
    assert _removal(call, "forget", vault_id)["undo"] == {"possible": True}  # (session 41: its note is read again)
    status, out, _ = call("/api/forget", body={"id": vault_id, "undo": True})
    assert status == 200 and out["status"] == "pending_ingest" and "ingest" in out["message"]


def test_an_auto_pruned_memory_is_in_the_prune_rows_with_its_undo(make_mem: Callable[..., Any]) -> None:
    m = make_mem(max_insights=1, prune_min_age="0")
    first = m.remember("the first memory about lanterns", importance=1)["id"]
    assert m.remember("the second memory about kettles", importance=2)["auto_pruned_ids"] == [first]
    row = next(e for e in m.log(op="prune")["entries"] if e["insight_id"] == first)
    assert row["in_effect"] is True and row["undo"] == {"possible": True}
    m.undo_forget([first])
    row = next(e for e in m.log(op="prune")["entries"] if e["insight_id"] == first)
    assert row["in_effect"] is False and "undo" not in row
