"""`recall --explain` names the entities the question was read as naming: it showed which memories the entity anchor
found, never by which names, so a user could not tell whether "Kafka" or an unrelated word had anchored the recall."""
from __future__ import annotations

from typing import Any

from mnemon.app.memory import Mnemon


def _anchors(out: dict[str, Any]) -> dict[str, Any]:
    return next(step for step in out["trace"] if step["stage"] == "anchors")


def test_explain_names_the_entities_of_the_question(mem: Mnemon) -> None:
    lag = mem.remember("Kafka consumer lag on the orders topic is growing since Monday")["id"]
    mem.remember("Lunch on Friday is pizza")
    anchors = _anchors(mem.recall("what is wrong with kafka lag", explain=True))
    assert anchors["entities"] == ["Kafka"]
    assert anchors["signals"]["entity"] == [lag]


def test_a_question_naming_nothing_says_so(mem: Mnemon) -> None:
    mem.remember("Kafka consumer lag on the orders topic is growing since Monday")
    anchors = _anchors(mem.recall("what is for lunch", explain=True))
    assert anchors["entities"] == []
    assert "entity" not in anchors["signals"]
