"""`alias add` of an alias that already names another subject re-points it, and says so (`previous_canonical`, in
the reply and the audit), on SQLite and PostgreSQL: the old subject used to be replaced without a word."""
from __future__ import annotations

from mnemon.app.memory import Mnemon

from conftest import FakeClock


def test_repointing_an_alias_names_the_subject_it_named_before(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _clock = world
    first = mem.alias_add("the tenant", "Ana")
    assert first["canonical"] == "Ana" and first["previous_canonical"] is None
    again = mem.alias_add("The Tenant", "ana")  # the same mapping spelt otherwise is no re-pointing
    assert again["previous_canonical"] is None
    moved = mem.alias_add("the tenant", "Bob")
    assert (moved["canonical"], moved["previous_canonical"]) == ("Bob", "ana")  # (as last spelt)
    assert [(a["alias"], a["canonical"]) for a in mem.alias_ls()["aliases"]] == [("the tenant", "Bob")]
    audit = mem.rt.store.world.events("alias", "the tenant")  # type: ignore[attr-defined]
    assert [e["detail"].get("previous_canonical") for e in audit] == [None, None, "ana"]
