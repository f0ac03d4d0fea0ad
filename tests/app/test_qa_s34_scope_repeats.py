"""`remember` into a `mneme://` scope: a second identical remember into the same scope is the repeat it is for any
other source (it stored a second copy), since both go with the scope's `forget --source`. Not a repeat of a payload's
own row there (a re-sent payload may replace it) nor of a memory in another scope. Once per backend (`make_mem`)."""
from __future__ import annotations

import json
from collections.abc import Callable

from mnemon.app.memory import Mnemon

SENTENCE = "Northwind Batteries overdue on the May shipment"
SCOPE = "mneme://agent/x"


def _copies(mem: Mnemon) -> list[str]:
    return [n.id for n in mem.rt.store.iter_nodes(kind="memory") if n.content == SENTENCE]


def test_a_second_remember_into_the_same_scope_is_skipped(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    first = mem.remember(SENTENCE, source=SCOPE)
    again = mem.remember(SENTENCE, source=SCOPE)
    assert first["action"] == "added" and again["action"] == "skipped" and again["id"] == first["id"]
    assert _copies(mem) == [first["id"]]
    mem.forget_source(SCOPE)  # the one copy goes with the scope, as both would have
    assert _copies(mem) == []


def test_a_remember_into_another_scope_is_its_own(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    first = mem.remember(SENTENCE, source=SCOPE)
    other = mem.remember(SENTENCE, source=f"{SCOPE}/session-1")
    assert other["action"] == "added"
    mem.forget_source(f"{SCOPE}/session-1")
    assert _copies(mem) == [first["id"]]


def test_a_remember_repeating_the_scopes_payload_row_is_kept_when_the_payload_drops_it(
        make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    node = {"ref": "s", "type": "task", "name": "Supplier"}
    payload = {"source_path": SCOPE, "nodes": [node], "edges": [],
               "observations": [{"node": "s", "kind": "fact", "text": SENTENCE, "score": 5}]}
    mem.remember_payload(json.dumps(payload))
    out = mem.remember(SENTENCE, source=SCOPE)
    assert out["action"] == "added"
    mem.remember_payload(json.dumps({**payload, "observations": []}))  # the re-sent payload no longer has it
    assert _copies(mem) == [out["id"]]
