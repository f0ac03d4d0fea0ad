"""On a store a team shares (one PostgreSQL schema), a memory a teammate's process auto-pruned or forgot was gone with
no word of who took it: the log rows of removals name the user and host and the process (pid) that removed them."""
from __future__ import annotations

import getpass
import json
import os
import socket
from collections.abc import Callable
from datetime import timedelta

from mnemon.app.memory import Mnemon

from conftest import FakeClock  # tests/ is on sys.path (rootdir of the test packages)

ME = f"{getpass.getuser()}@{socket.gethostname()}"


def _logged(m: Mnemon, op: str) -> list[dict]:
    return [e["detail"] for e in m.log(limit=50, op=op)["entries"]]


def test_an_auto_prune_and_a_forget_say_which_process_removed_the_memory(make_mem: Callable[..., Mnemon],
                                                                         clock: FakeClock) -> None:
    m = make_mem(max_insights=1, prune_min_age="1h", clock=clock)
    old = m.remember("the lantern batteries were ordered in March", importance=1)["id"]
    clock.now += timedelta(hours=2)
    kept = m.remember("the kettle needs descaling every month", importance=1)
    assert kept["auto_pruned_ids"] == [old]
    m.forget(kept["id"])
    for op in ("prune", "forget"):
        (detail,) = _logged(m, op)
        assert (detail["actor"], detail["pid"]) == (ME, os.getpid()), (op, detail)


def test_forgetting_a_payload_scope_says_which_process_removed_it(make_mem: Callable[..., Mnemon]) -> None:
    m = make_mem()
    m.remember_payload(json.dumps({"source_path": "mneme://team/plan", "observations": [],
                                   "nodes": [{"ref": "a", "type": "task", "name": "Ship the pilot"}]}))
    assert m.forget_source("mneme://team/plan")["ok"]
    (detail,) = _logged(m, "forget:source")
    assert (detail["actor"], detail["pid"]) == (ME, os.getpid())
