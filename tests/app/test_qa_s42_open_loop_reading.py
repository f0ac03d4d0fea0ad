"""Thought cards and `surface` on the example vault read "Open loop" from a word anywhere (`OPEN_WORDS`): the
"Procurement" section was an "Open loop" because "Every order over 5,000 needs two approvals" holds "needs", and
every fact — the Gull Electronics contact line — got a "Follow up: <the fact>" bullet to add. Now a card is an open
loop for an open task or a line stating open work (a question, "needs to", "waiting on", "TODO", …), and the
follow-up bullet is offered for what there is to chase: an open loop, a risk, a deadline."""
from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.thoughts import compose

TODAY = date(2026, 12, 7)


def _bullets(card: dict[str, Any]) -> list[str]:
    return [a["bullet"] for a in card["suggested_actions"] if a["type"] == "vault_append_bullet"]


def test_a_rule_and_a_contact_line_are_no_open_loops_to_follow_up(example_vault_mem: Mnemon) -> None:
    cards = example_vault_mem.surface(prompt="supplier", limit=10)["thoughts"]
    by_text = {c["observations"][0]: c for c in cards if c["observations"]}
    procurement = next(c for t, c in by_text.items() if "Every order over 5,000 needs two approvals" in t)
    contact = next(c for t, c in by_text.items() if "contact sales@gull.example.com" in t)
    for card in (procurement, contact):
        assert not card["title"].startswith("Open loop"), card["title"]
        assert not _bullets(card), card["suggested_actions"]
    task = by_text["Follow up with the supplier about the invoice for the pilot batch"]  # an open task
    assert task["title"].startswith("Open loop: ") and _bullets(task)
    risk = by_text["Battery supplier still overdue, risk to the June deployment"]
    assert risk["title"].startswith("Deadline: ")
    assert _bullets(risk) == ["Follow up: Battery supplier still overdue, risk to the June deployment"]


@pytest.mark.parametrize("text, task, open_loop", [
    ("Every order over 5,000 needs two approvals", False, False),  # ingestion's "blocked" for "needs"
    ("A follow-up idea to Lighthouse: tide gauges on the same masts", False, False),
    ("Every order over 5,000 needs two approvals", True, True),  # an open task box
    ("Waiting on Bram Okafor for the vendor contract before the pilot", False, True),
    ("The enclosure supplier needs to confirm the June date", False, True),
    ("Who signs the vendor contract?", False, True),
    ("TODO: ask Cleo about the mast permits", False, True),
])
def test_an_open_loop_is_an_open_task_or_a_statement_of_open_work(text: str, task: bool, open_loop: bool) -> None:
    card = compose([], text, "blocked", "Procurement", TODAY, task=task)
    assert card["title"].startswith("Open loop: ") is open_loop, card["title"]
    if not open_loop:
        assert not card["action"].startswith("Follow up"), card["action"]


def test_an_observation_its_author_declared_blocked_stays_an_open_loop() -> None:
    """A scoped payload's observation of kind "blocked" says so itself (task unknown): no statement needed."""
    assert compose([], "Vendor contract", "blocked", "", TODAY)["title"] == "Open loop: Vendor contract"
