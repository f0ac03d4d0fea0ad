"""QA round (session 38): forgetting a payload scope a second time says when it was forgotten.

`mnemon forget --source mneme://x` run again moments after the first answered "nothing is stored under mneme://x:
check its spelling": the caller went hunting a typo in a scope that had just been removed. The warning (code
`nothing_stored`, as before) now names the forget that emptied it (`forgotten_at`); a scope never stored is still
told to check its spelling."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.core.model import iso

from conftest import FakeClock

SCOPE = "mneme://agent/notes"
PAYLOAD = {"source_path": SCOPE, "nodes": [{"ref": "acme", "type": "entity", "name": "Acme"}],
           "observations": [{"node": "acme", "kind": "fact", "text": "Acme pays its invoices net 30"}]}


def test_a_second_forget_names_the_first(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock(datetime(2031, 5, 4, 10, 0, tzinfo=timezone.utc))
    m = make_mem("hash", clock=clock)
    m.remember_payload(PAYLOAD)
    clock.advance(minutes=3)
    assert m.forget_source(SCOPE)["removed"]["observations"] == 1
    first = iso(clock.now)
    clock.advance(minutes=1)
    m.forget_source(SCOPE)  # an empty forget between is not the one that emptied it
    for dry_run in (True, False):
        [warning] = m.forget_source(SCOPE, dry_run=dry_run)["warnings"]
        assert (warning["code"], warning["forgotten_at"]) == ("nothing_stored", first)
        assert f"forgotten at {first}" in warning["message"] and "spelling" not in warning["message"]
    [other] = m.forget_source("mneme://agent/note")["warnings"]  # a typo: never stored
    assert "forgotten_at" not in other and "check its spelling" in other["message"]


def test_a_scope_holding_only_world_rows_is_named_too(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem("hash")
    m.state_assert({"subject": "Ana", "predicate": "lives_in", "object": "Porto", "confidence": 0.9,
                    "certainty": "confirmed", "evidence": "she said so", "source_path": f"{SCOPE}/claims"})
    out = m.forget_source(SCOPE)
    assert out["world_removed"]["assertions"] == 1 and not any(out["removed"].values())
    assert "forgotten_at" in m.forget_source(SCOPE)["warnings"][0]


def test_the_cli_says_it(cli_run: Callable[..., tuple[int, Any]], tmp_path: Any) -> None:
    import json

    path = tmp_path / "payload.json"
    path.write_text(json.dumps(PAYLOAD))
    assert cli_run(["remember", "--payload", str(path)])[0] == 0
    assert cli_run(["forget", "--source", SCOPE])[0] == 0
    code, out = cli_run(["forget", "--source", SCOPE])
    assert code == 0 and "forgotten_at" in out["warnings"][0], out
    assert "mnemon log --op forget:source" in out["warnings"][0]["message"]
