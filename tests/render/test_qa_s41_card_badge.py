"""A card's badge says what kind of thought it is, not which words its note used: a "Done:" card about filing the tax
deadline wore the red Deadline badge, one about closing an open loop the Open loop badge, and a candidate edge's
"Unconfirmed:" card the Deadline badge because the bullet it joins mentioned a deadline."""
from __future__ import annotations

from datetime import date

import pytest

from mnemon.app.thoughts import compose
from mnemon.render.cards import badge_for


@pytest.mark.parametrize(("title", "surface", "badge"), [
    ("Done: Filed the tax deadline paperwork", None, "Reasoned walk"),
    ("Done: Closed the open loop on the lease", None, "Reasoned walk"),
    ("Reasoned walk: Deadline tracker", None, "Reasoned walk"),
    ("Correction to check: the deadline moved to May", None, "Reasoned walk"),
    ("Unconfirmed: Deadline 2026-01-09 school payment", {"source_id": "edge:6"}, "Surface match"),
    ("Current state: open loop tracker belongs to Ada", {"source_id": "ws:1"}, "Surface match"),
    ("Open loop: Waiting on the deadline from legal", None, "Open loop"),
    ("Deadline: Contract renewal on 2026-06-30", {"source_id": "m1"}, "Deadline"),
    ("Past due: Order sensors by 2026-04-10", None, "Deadline"),
])
def test_the_badge_follows_the_kind_of_thought(title: str, surface: dict[str, str] | None, badge: str) -> None:
    thought = {"title": title, **({"surface": surface} if surface else {})}
    assert badge_for(thought)[0] == badge


def test_a_done_item_that_mentions_a_deadline_is_not_badged_as_one() -> None:
    parts = compose([], "Submitted the deadline form to the school on 2026-01-05", "done", "School",
                    today=date(2026, 3, 1))
    assert parts["title"].startswith("Done: ")
    assert badge_for(parts)[0] == "Reasoned walk"


def test_a_title_from_elsewhere_is_still_read_for_its_words() -> None:
    assert badge_for({"title": "Tax deadline approaching"})[0] == "Deadline"
    assert badge_for({"title": "Open loop hiding in the graph: school confirmation"})[0] == "Open loop"
