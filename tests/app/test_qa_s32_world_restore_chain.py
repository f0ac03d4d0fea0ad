"""Restoring an export whose assertion chain names an assertion neither the file nor the store holds (a hand-edited
or truncated file) re-chains that (subject, predicate) from the rows there are: it was restored as written, and the
store then failed its own contract (`supersession_chain`) on every `agent preflight`."""
from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock

CLAIM = {"subject": "Alice", "predicate": "works_at", "object": "Acme Corp", "confidence": 0.95,
         "certainty": "confirmed", "source_type": "user", "evidence": "she said so", "source_path": "notes/alice.md"}


def chained_export(world: tuple[Mnemon, FakeClock]) -> tuple[dict[str, Any], str, str]:
    mem, clock = world
    old = mem.state_assert(CLAIM)["id"]
    clock.now = datetime(2026, 6, 5, tzinfo=timezone.utc)
    new = mem.state_assert({**CLAIM, "object": "Beta Co", "evidence": "she moved"})["id"]
    return mem.export_json(), old, new


@pytest.mark.parametrize("pointer", ["superseded_by_id", "supersedes_id"])
def test_a_chain_pointing_at_a_missing_assertion_is_rechained(world: tuple[Mnemon, FakeClock],
                                                             make_mem: Callable[..., Mnemon], tmp_path: Any,
                                                             pointer: str) -> None:
    exported, old, new = chained_export(world)
    edited = copy.deepcopy(exported)
    rows = {row["id"]: row for row in edited["world_assertions"]}
    rows[old if pointer == "superseded_by_id" else new][pointer] = "ghost-assertion"
    target = make_mem("hash", db=tmp_path / "restored.db", clock=world[1])
    target.import_json(json.dumps(edited))
    report = target.contract_check()  # raises ContractViolation on a broken chain
    assert report["ok"] is True
    stored = {row["id"]: row for row in target.state_list()["assertions"]}
    assert "ghost-assertion" not in json.dumps(stored)
    assert stored[old]["superseded_by_id"] == new and stored[new]["supersedes_id"] == old
    assert stored[new]["status"] == "current"
