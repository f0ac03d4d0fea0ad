"""Fixtures shared by the facade tests under tests/app (on top of tests/conftest.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon


@pytest.fixture
def example_vault_mem(mem: Mnemon, example_vault: Path) -> Mnemon:
    """`mem` (provider hash, once per backend) after one plain `ingest` of this test's own copy of the example vault
    (embeddings on); the copy is at `tmp_path / "vault"`. The store is this test's alone: it may change it."""
    mem.ingest(str(example_vault))
    return mem
