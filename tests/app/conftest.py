"""Fixtures shared by the facade tests under tests/app (on top of tests/conftest.py)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock  # tests/conftest.py (tests/ is on sys.path)

WORLD_T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def example_vault_mem(mem: Mnemon, example_vault: Path) -> Mnemon:
    """`mem` (provider hash, once per backend) after one plain `ingest` of this test's own copy of the example vault
    (embeddings on); the copy is at `tmp_path / "vault"`. The store is this test's alone: it may change it."""
    mem.ingest(str(example_vault))
    return mem


@pytest.fixture
def world(make_mem: Callable[..., Mnemon]) -> tuple[Mnemon, FakeClock]:
    """A store (provider hash) for world-model tests, with the settable clock it runs on, starting at `WORLD_T0`."""
    clock = FakeClock(WORLD_T0)
    return make_mem("hash", clock=clock), clock
