"""A note-parsing worker killed from outside (the out-of-memory killer, `kill -9`) stops the ingest with the
`aborted` error and stores nothing of the run; it was `internal` ("BrokenProcessPool…"), read as a bug of ours."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.vault import ingest as ingest_module
from mnemon.core.errors import Aborted


def _dying_batch(*args: Any) -> Any:
    os._exit(9)  # as a worker the kernel killed: no exception, no reply


def test_a_killed_parsing_worker_aborts_the_ingest_and_stores_nothing(mem: Mnemon, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(os, "fork"):
        pytest.skip("the parsing pool forks its workers")
    vault = tmp_path / "vault"
    vault.mkdir()
    for i in range(6):
        (vault / f"note {i}.md").write_text(f"# Note {i}\n- [ ] call supplier {i} about the order\n", encoding="utf-8")
    with monkeypatch.context() as m:  # (monkeypatch.undo() would undo the test's own home too)
        m.setattr(ingest_module, "POOL_MIN_FILES", 2)
        m.setattr(ingest_module, "TAIL_BATCH_FILES", 3)  # two batches: one alone is parsed without a pool
        m.setattr(ingest_module, "packed_batch", _dying_batch)
        with pytest.raises(Aborted, match="killed"):
            mem.ingest(str(vault), embed=False, workers=2)
        assert mem.status()["nodes_by_kind"].get("note", 0) == 0
    out = mem.ingest(str(vault), embed=False, workers=1)
    assert out["notes_read"] == 6
