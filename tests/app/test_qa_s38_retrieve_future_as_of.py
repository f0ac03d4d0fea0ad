"""QA session 38: `retrieve --as-of` an instant still to come was accepted without a word and answered today's pack,
its ages measured from 2099, as if the store had been replayed there; it is now answered with a warning naming it
(agent preflight reads world state at such instants on purpose, so it is not refused)."""
from __future__ import annotations

from mnemon.app.memory import Mnemon


def test_a_future_as_of_is_said(mem: Mnemon) -> None:
    mem.remember("The boiler is serviced every October")
    out = mem.retrieve("boiler service", as_of="2099-01-01T00:00:00Z")
    assert any("2099-01-01" in w and "after now" in w for w in out.get("warnings", []))
    assert [i for i in out["items"] if "boiler" in str(i.get("text", i)).lower()]


def test_a_past_as_of_is_not_warned_about(mem: Mnemon) -> None:
    mem.remember("The boiler is serviced every October")
    out = mem.retrieve("boiler service", as_of="2001-01-01T00:00:00Z")
    assert not [w for w in out.get("warnings", []) if "after now" in w]
