"""`gc` rewrites only the effective importances whose value, as every reader shows it (4 decimals), moves.

`remember` stores the value it computes whole (0.7499999998 a second after the write); `gc` compared its rounded
value (0.75) with that and rewrote every such row on its first run though no reader could see a change: on a large
store every row written since the last `gc`, a long write and a WAL grown by as much."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from conftest import FakeClock
from mnemon.app.memory import Mnemon

WORDS = "ferry Porto Mira engine tide harbour lamp rope anchor sail chart wind gull dock".split()


def _stored(m: Mnemon) -> dict[str, float]:
    ids = m.rt.store.memory_ids()
    return {i: n.effective_importance for i, n in m.rt.store.get_nodes(ids).items()}


class WallClock(FakeClock):
    """Time passes as a command runs: each reading is 3 ms after the one before."""

    def __call__(self) -> datetime:
        self.advance(milliseconds=3)
        return self.now


def test_gc_rewrites_only_values_a_reader_sees_move(make_mem: Callable[..., Mnemon]) -> None:
    clock = WallClock()
    m = make_mem(clock=clock)
    for k in range(8):
        m.remember(f"{WORDS[k]} {WORDS[k + 5]} note {k}")
    before = _stored(m)
    written: dict[str, float] = {}
    store: Any = m.rt.store
    real = store.set_effective_importance

    def recording(values: dict[str, float]) -> None:
        written.update(values)
        real(values)

    store.set_effective_importance = recording
    m.gc()
    after = _stored(m)
    unseen = {i for i, v in before.items() if round(v, 4) == round(after[i], 4)}
    # the case at stake is there: rows stored unrounded whose shown value stays
    assert any(before[i] != round(before[i], 4) for i in unseen)
    assert not unseen & set(written)
    assert set(written) == set(before) - unseen
    assert all(round(after[i], 4) == after[i] for i in written)
