"""`forget --source` and a re-send of the same payload scope from another process: the scope ends whole or gone,
never in part. The forget read the scope's rows before taking the write lock, so a re-send committed in between
left its new observation behind with its node deleted. Both backends."""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from mnemon.app.memory import Mnemon

SCOPE = "mneme://agent/race"
FIRST: dict[str, Any] = {"source_path": SCOPE, "nodes": [{"ref": "a", "name": "Alpha"}], "edges": [],
                         "observations": [{"node": "a", "text": "Alpha ships in May"}]}
AGAIN = {**FIRST, "observations": [*FIRST["observations"], {"node": "a", "text": "Alpha slipped to June"}]}
LET_IT_RUN_S = 2.0  # the re-send's time to finish in between (it waits for the forget's lock once fixed)


def test_a_forget_racing_a_resend_leaves_the_scope_whole_or_gone(make_mem: Callable[..., Mnemon]) -> None:
    forgetter, sender = make_mem("hash"), make_mem("hash")
    forgetter.remember_payload(FIRST)
    vault = forgetter.rt.store.vault  # type: ignore[attr-defined]
    read_scope = vault.nodes_with_source
    racer: list[threading.Thread] = []

    def scope_then_resend(scope: str) -> list[str]:
        ids = read_scope(scope)
        if not racer:  # right after the forget read the scope, another process sends it again
            racer.append(threading.Thread(target=sender.remember_payload, args=(AGAIN,)))
            racer[0].start()
            racer[0].join(LET_IT_RUN_S)
        return ids

    vault.nodes_with_source = scope_then_resend
    forgetter.forget_source(SCOPE)
    racer[0].join()
    left = {n.id: n for n in sender.rt.store.get_nodes(sender.rt.store.vault.nodes_with_source(SCOPE)).values()}
    texts = sorted(n.content for n in left.values() if n.kind == "memory")
    assert texts in ([], ["Alpha ships in May", "Alpha slipped to June"]), texts
    assert any(n.kind == "entity" for n in left.values()) == bool(texts)  # never an observation without its node
