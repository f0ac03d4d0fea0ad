"""A fact a newer memory's wording retires ("Mira moved from Lisbon to Porto") is flagged and demoted by recall under
a --source or --cat filter too, when the correction itself is outside the filter: it came back as current, unflagged,
while a `supersedes` link demoted its fact under any filter."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from conftest import FakeClock


@pytest.mark.parametrize("flt", [{"source": "bob"}, {"category": "fact"}, {}])
def test_a_fact_retired_by_wording_outside_the_filter_stays_flagged(make_mem, flt: dict[str, str]) -> None:
    mem = make_mem("hash", clock=FakeClock(datetime(2026, 12, 9, tzinfo=timezone.utc)))
    old = mem.remember("Mira lives in Lisbon", source="bob", category="fact", created_at="2026-11-01T10:00:00Z")
    new = mem.remember("Mira moved from Lisbon to Porto", source="alice", category="insight",
                       created_at="2026-11-20T10:00:00Z")
    rows = {r["insight"]["id"]: r for r in mem.recall("where does Mira live", **flt)["results"]}
    assert rows[old["id"]].get("corrected_by") == new["id"] and rows[old["id"]].get("superseded") is True
    # a correction dated before the fact retires nothing
    mem.remember("Ana moved from Faro to Porto", source="alice", created_at="2026-10-01T10:00:00Z")
    later = mem.remember("Ana lives in Faro", source="bob", category="fact", created_at="2026-11-02T10:00:00Z")
    rows = {r["insight"]["id"]: r for r in mem.recall("where does Ana live", **flt)["results"]}
    assert "corrected_by" not in rows[later["id"]] and "superseded" not in rows[later["id"]]
