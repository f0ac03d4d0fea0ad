"""QA round (session 38): a replay (`retrieve --as-of T`) at an instant a memory was forgotten, read after the
memory came back (`forget --undo`, or an import's `--revive-forgotten`), gave it as there at T: its row is live
again, so the indexes found it and nothing said it had been gone. The revival's log row says when it was removed."""
from __future__ import annotations

from collections.abc import Callable

from mnemon.app.memory import Mnemon
from mnemon.core.model import iso

from conftest import FakeClock  # tests/conftest.py (tests/ is on sys.path)


def _ids(m: Mnemon, at: FakeClock | str) -> list[str]:
    when = at if isinstance(at, str) else iso(at.now)
    return [i["id"] for i in m.retrieve("boiler service October", as_of=when)["items"]]


def _forgotten_between(make_mem: Callable[..., Mnemon]) -> tuple[Mnemon, FakeClock, str, str, str]:
    clock = FakeClock()
    m = make_mem("hash", clock=clock)
    node = m.remember("the boiler is serviced every October")["id"]
    m.remember("the boiler room key hangs by the door")
    clock.advance(hours=1)
    before = iso(clock.now)
    clock.advance(hours=1)
    m.forget(node)
    clock.advance(hours=1)
    gone = iso(clock.now)
    clock.advance(hours=1)
    return m, clock, node, before, gone


def test_a_replay_while_it_was_forgotten_leaves_an_undone_memory_out(make_mem: Callable[..., Mnemon]) -> None:
    m, clock, node, before, gone = _forgotten_between(make_mem)
    assert node in _ids(m, before) and node not in _ids(m, gone)
    m.undo_forget([node])
    clock.advance(hours=1)
    assert node in _ids(m, before) and node in _ids(m, clock)
    assert node not in _ids(m, gone)
    m.forget(node)  # forgotten again: at `gone` it still was not there, at `before` it was
    clock.advance(hours=1)
    assert node not in _ids(m, gone) and node in _ids(m, before)


def test_so_does_one_an_import_revived(make_mem: Callable[..., Mnemon]) -> None:
    clock = FakeClock()
    m = make_mem("hash", clock=clock)
    node = m.remember("the boiler is serviced every October")["id"]
    m.remember("the boiler room key hangs by the door")
    backup = m.export_json()
    clock.advance(hours=1)
    m.forget(node)
    clock.advance(hours=1)
    gone = iso(clock.now)
    clock.advance(hours=1)
    assert m.import_json(backup, revive_forgotten=True)["revived"] == 1
    assert node not in _ids(m, gone) and node in _ids(m, clock)
