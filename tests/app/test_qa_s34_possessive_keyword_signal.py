"""Recall's keyword signal sees a name in its possessive form, accented or not: recall "Müller" returned "Müller’s
team owns the Zürich datacenter" (the keyword anchor found it) with keyword signal 0."""
from __future__ import annotations

from mnemon.app.memory import Mnemon


def test_recall_of_a_name_credits_its_possessive(mem: Mnemon) -> None:
    said = mem.remember("Müller’s team owns the Zürich datacenter")["id"]
    [row] = [r for r in mem.recall("Müller")["results"] if r["insight"]["id"] == said]
    assert row["signals"]["keyword"] == 1.0
