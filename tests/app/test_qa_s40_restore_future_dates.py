"""A backup whose memories are dated after the restoring store's clock (the writing machine's clock ran ahead) is
restored as written, and the reply says how many and the latest date.

`mnemon import backup.json` kept a created_at days ahead without a word, though `remember` refuses a date more
than a day past the clock: such a memory ranks as the newest in recall and does not decay until its date comes."""
from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest

from conftest import FakeClock
from mnemon.app.memory import Mnemon


def _ahead_backup(make_mem: Callable[..., Mnemon], tmp_path: Path, clock: FakeClock) -> str:
    """An export from a machine whose clock ran 4 days ahead of `clock`: two memories there, then one an hour
    later than `clock` (inside a day's slip, as remember allows)."""
    ahead = FakeClock(clock.now + timedelta(days=4))
    src = make_mem("hash", db=tmp_path / "ahead.db", clock=ahead)
    src.remember("Alice manages the Berlin office")
    ahead.advance(hours=5)
    src.remember("Bob fixed the harbour pump")
    ahead.now = clock.now + timedelta(hours=1)
    src.remember("Carol ships the lighthouse firmware")
    return json.dumps(src.export_json())


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_restore_names_the_memories_dated_ahead_of_its_clock(make_mem: Callable[..., Mnemon], tmp_path: Path,
                                                               dry_run: bool) -> None:
    clock = FakeClock()
    doc = _ahead_backup(make_mem, tmp_path, clock)
    m = make_mem("hash", db=tmp_path / "here.db", clock=clock)
    out = m.import_json(doc, dry_run=dry_run)
    ahead = [w for w in out.get("warnings", []) if "after this store's clock" in w]
    assert len(ahead) == 1, out.get("warnings")
    latest = (clock.now + timedelta(days=4, hours=5)).strftime("%Y-%m-%dT%H:%M")
    assert ahead[0].startswith("2 memories of the file are dated more than a day after this store's clock"), ahead
    assert latest in ahead[0]
    if not dry_run:  # kept as written: the file is the user's record of when
        times = {r["content"]: r["created_at"] for r in m.export_json()["insights"]}
        assert times["Bob fixed the harbour pump"].startswith(latest)


def test_a_backup_of_this_clock_says_nothing_of_dates(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    clock = FakeClock()
    src = make_mem("hash", db=tmp_path / "a.db", clock=clock)
    src.remember("Alice manages the Berlin office")
    doc = json.dumps(src.export_json())
    out = make_mem("hash", db=tmp_path / "b.db", clock=clock).import_json(doc)
    assert not any("store's clock" in w for w in out.get("warnings", []))
