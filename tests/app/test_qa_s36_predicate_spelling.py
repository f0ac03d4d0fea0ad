"""One spelling of a predicate for every producer: `state assert` kept punctuation ("located-in") where `resolve`
wrote located_in, so the same belief entered both ways was two predicates — two chains, each with a value in force,
no contradiction seen. Rows a store holds from before (m065) are respelled once, the pair re-chained, on SQLite and
PostgreSQL (`make_mem` under tests/app)."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.core.world.values import iso

from conftest import FakeClock

from .conftest import WORLD_T0 as T0

STEP = "m065_world_predicate_names"


def _belief(predicate: str, obj: str, **over: Any) -> dict[str, Any]:
    return {"subject": "Acme", "predicate": predicate, "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "source_type": "tool_output", "evidence": "the filing", "source_path": "notes/acme.md", **over}


def _old_row(row_id: str, predicate: str, obj: str, days: int) -> dict[str, Any]:
    """A row as an earlier version stored it (`state assert` kept the predicate's punctuation)."""
    at = iso(T0 + timedelta(days=days))
    return {**_belief(predicate, obj), "id": row_id, "subject_name": "Acme", "predicate": predicate.casefold(),
            "object_name": obj, "status": "current", "state_type": "belief", "evidence_text": "the filing",
            "source_path": f"mneme://r/{row_id}", "valid_from": at, "metadata": {}, "created_at": at, "updated_at": at}


def _current(mem: Mnemon) -> list[str]:
    return sorted(f"{r['predicate']} {r['object']}" for r in mem.state_list(status="current")["assertions"])


def test_state_assert_and_resolve_spell_a_predicate_alike(world: tuple[Mnemon, FakeClock], tmp_path: Path) -> None:
    mem, clock = world
    claim = {k: v for k, v in _belief("located in", "Lisbon").items() if k != "source_path"}
    mem.resolve(str(tmp_path), {"slug": "acme", "title": "Acme", "date": "2026-06-01", "claims": [claim]})
    clock.advance(days=1)
    out = mem.state_assert(_belief("Located-In", "Porto", valid_from="2026-06-02"))
    assert out["predicate"] == "located_in"
    assert len(out["superseded_ids"]) == 1  # the research's Lisbon, the same single-valued pair
    assert _current(mem) == ["located_in Porto"]
    assert [a["object"] for a in mem.state_list(predicate="located-in", status="current")["assertions"]] == ["Porto"]


def test_a_predicate_with_no_letters_is_refused(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    with pytest.raises(InvalidInput, match="predicate has no letters"):
        mem.state_assert(_belief("->", "Porto"))


def test_rows_written_before_are_respelled_and_rechained(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock(T0 + timedelta(days=30))
    old = make_mem("hash", clock=clock)
    conn = old.rt.store.world.conn  # type: ignore[attr-defined]  # (qmark SQL on both backends)
    for data in (_old_row("lisbon", "located_in", "Lisbon", 0),
                 _old_row("porto", "located-in", "Porto", 1),  # state assert's spelling, a day later
                 _old_row("kpmg", "Audited-By", "KPMG", 0)):
        conn.execute("INSERT INTO world_state_assertions(id, subject_norm, predicate, status, state_type,"
                     " source_path, data, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)",
                     (data["id"], "acme", data["predicate"], "current", "belief", data["source_path"],
                      json.dumps(data), data["created_at"], data["updated_at"]))
    conn.execute("DELETE FROM migrations WHERE name = ?", (STEP,))
    old.close()
    mem = make_mem("hash", clock=clock)
    rows = {a["id"]: (a["predicate"], a["validity"], a["superseded_by_id"])
            for a in mem.state_list()["assertions"]}
    assert rows == {"lisbon": ("located_in", "superseded", "porto"), "porto": ("located_in", "current", None),
                    "kpmg": ("audited_by", "current", None)}
    assert mem.state_explain("lisbon")["assertion"]["superseded_at"] == iso(T0 + timedelta(days=1))
    assert mem.contract_check()["status"] == "pass"
