"""QA round (session 38): on PostgreSQL, `retrieve --as-of T` at an instant before a memory was forgotten failed
with "math domain error": the replay counts the forgotten memory among a word's holders (it was there at T), and
the keyword search's idf divided those by today's total of memories, which no longer counts it."""
from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.model import iso
from mnemon.ports.store.postgres_index import _idf

from conftest import FakeClock  # tests/conftest.py (tests/ is on sys.path)


def test_a_replay_before_a_forget_finds_the_forgotten_memory(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock()
    m = make_mem("hash", clock=clock)
    node = m.remember("the boiler is serviced every October")["id"]
    m.remember("the boiler room key hangs by the door")
    clock.advance(hours=1)
    before = iso(clock.now)
    clock.advance(hours=1)
    m.forget(node)
    assert node in [i["id"] for i in m.retrieve("boiler service October", as_of=before)["items"]]


@given(st.integers(1, 10**9), st.integers(0, 10**9))
def test_the_idf_is_a_small_positive_number_for_any_counts(total: int, holders: int) -> None:
    assert 1e-6 <= _idf(total, holders) < 30
