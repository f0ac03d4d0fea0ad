"""A payload row kept, deleted, for a person's decision about one of its edges (`kept_for_decisions`) survives an
export and its restore: the restored store still blocks the killed edge and keeps a weakened one as the person left
it when a later payload names the node again. The export left such a row out, so the decided edges went with it and
the re-sent payload brought the killed claim back active.

Each hop restores into a fresh store; `make_mem()` is the test's backend (SQLite, PostgreSQL), the others SQLite."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

from app.test_qa_s32_pack_payload_decisions import FULL, SCOPE, WITHOUT_ZOE, _edge

ZOE = f"{SCOPE}#zoe"


def _hop(src: Mnemon, dst: Mnemon) -> dict[str, Any]:
    out = dst.import_json(json.dumps(src.export_json()))
    assert out["errors"] == 0
    return out


def _decided_then_dropped(src: Mnemon) -> float:
    """Kill the agent's link to Zoë, weaken her observation's edge, then re-send without her: the weakened strength."""
    first = src.remember_payload(FULL)
    src.kill_edge(_edge(first, "links_to")["id"], reason="wrong person")
    weakened = float(src.weaken_edge(_edge(first, "has_blocked")["id"], factor=0.25)["strength"])
    kept = src.remember_payload(WITHOUT_ZOE)["kept_for_decisions"]
    assert ZOE in kept and len(kept) == 2  # the node and its observation
    return weakened


def _assert_decisions_hold(m: Mnemon, weakened: float) -> None:
    again = m.remember_payload(FULL)
    link = _edge(again, "links_to")
    assert (link["status"], link["reasons"]) == ("killed", ["killed_tombstone_blocks_recreation"])
    assert m.rt.store.get_edge(link["id"]).status == "killed"
    observed = _edge(again, "has_blocked")
    assert observed["reasons"] == ["person_decision_kept:weakened"]
    assert m.rt.store.get_edge(observed["id"]).weight == pytest.approx(weakened)


def test_a_kept_payload_row_and_its_decided_edges_survive_export_and_restore(
        make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    src = make_mem("hash", db=tmp_path / "source.db")
    weakened = _decided_then_dropped(src)
    before = src.status()["total_insights"]

    dst = make_mem()  # the test's backend
    _hop(src, dst)
    assert dst.status()["total_insights"] == before  # the kept rows come back deleted, not as live memories
    pack = dst.retrieve("Zoë battery invoice", budget=2000, max_items=8)
    assert not [i for i in pack["items"] if str(i["id"]).startswith(SCOPE)]
    again = make_mem("hash", db=tmp_path / "second-hop.db")  # exported from the test's backend this time
    _hop(dst, again)

    for m in (dst, again):
        _assert_decisions_hold(m, weakened)
