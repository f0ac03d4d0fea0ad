"""A unit, a time zone or a currency written in capitals ("16 GB", "09:30 UTC", "12 USD") is no entity: read as an
acronym, it linked a laptop's RAM to the nightly backup, the standup to the backup window and the offsite budget to
a domain renewal, and filled `status`'s top entities. An acronym that names something ("RDS", "AWS") still does, and
a unit given on purpose with --entities is kept on that memory."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities

PAIRS = [
    ("The nightly backup writes 40 GB to the bucket", "Dana's laptop has 16 GB of memory"),
    ("The nightly backup runs at 02:00 UTC", "The standup moved to 09:30 UTC on Mondays"),
    ("The offsite budget is 5000 USD", "The domain renewal costs 12 USD a year"),
    ("The search service peaks at 900 QPS", "The billing cron handles 3 QPS at most"),
    ("Replication lag stays under 2 MB", "The avatar upload limit is 5 MB"),
]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_memories_sharing_only_a_unit_are_not_linked(mem: Mnemon, first: str, second: str) -> None:
    mem.remember(first)
    out = mem.remember(second)
    assert out["edges_created"]["entity"] == 0
    assert mem.show(out["id"])["entities"] == []


@pytest.mark.parametrize("text", ["40 GB and 2 TB", "at 14:00 UTC, 9:00 PST, 6 PM ET or 18:00 CET",
                                  "12 EUR, 30 GBP, 5 JPY"])
def test_units_zones_and_currencies_are_no_entities(text: str) -> None:
    assert extract_entities(text, known=lambda words: set()) == []


def test_acronyms_that_name_something_are_still_entities(mem: Mnemon) -> None:
    assert extract_entities("The RDS on AWS returns 40 GB", known=lambda words: set()) == ["RDS", "AWS"]
    out = mem.remember("We bill in USD only", entities=["USD"])
    assert mem.show(out["id"])["entities"] == ["USD"]
    # a store that holds a unit as an entity (given, or extracted before) links no later mention of it
    later = mem.remember("The domain renewal costs 12 USD a year")
    assert later["edges_created"]["entity"] == 0 and mem.show(later["id"])["entities"] == []
