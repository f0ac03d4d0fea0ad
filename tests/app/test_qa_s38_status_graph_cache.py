"""`status` counts the recall graph a PostgreSQL store saved. Its snapshot lives in the user's cache folder (a server's
database has no "beside"), and `cache_bytes` looked only beside a database file: on PostgreSQL `mnemon status` after
a recall answered `"cache_bytes": {"graph": 0, …}` while `<home>/cache/<digest>-graph` held 23 KB — a laptop's
status showed the snapshot, a team's said there was none. Once per backend (`make_mem`)."""
from __future__ import annotations

import os
from collections.abc import Callable

from mnemon.app.memory import Mnemon
from mnemon.ports.cache_paths import beside, in_user_cache


def test_status_counts_the_saved_recall_graph_on_every_backend(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    assert mem.status()["cache_bytes"]["graph"] == 0  # nothing saved yet
    mem.remember("Kubernetes runs the API")
    mem.remember("The API gateway fronts Kubernetes")
    assert mem.recall("what runs the API")["results"]  # builds the recall graph and saves it
    mem.close()
    again = make_mem("hash")
    store = again.rt.store
    saved = beside(store, "graph") or in_user_cache(store, "graph", again.rt.cache_dir)
    assert saved and os.path.getsize(saved) > 0, "the recall graph was saved"
    assert again.status()["cache_bytes"]["graph"] == os.path.getsize(saved)
