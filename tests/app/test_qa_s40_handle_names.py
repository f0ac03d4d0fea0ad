"""A handle is asked about with the name it shares a word with: after "Dana Reyes" was given as an entity and
"@dana signed off the rollout plan" remembered, 'mnemon recall "who is Dana"' gave the Dana Reyes memories the
entity signal and the @dana one none ("@dana" and "Dana Reyes" are separate entities). A first name asks about any
name it is a word of (core.entities.names_in_query), and now about the handles made of it too, but only beside a
full name: a handle is no name of its own ("which channel" never asks about "@channel"). Nothing is linked when
remembering: whether @dana is Dana Reyes is not known, so the memory keeps the handle alone."""
from __future__ import annotations

from typing import Any

from mnemon.app.memory import Mnemon
from mnemon.core.entities import name_parts, names_in_query


def _anchors(out: dict[str, Any]) -> dict[str, Any]:
    return next(step for step in out["trace"] if step["stage"] == "anchors")


def _signals(out: dict[str, Any]) -> dict[str, dict[str, float]]:
    return {r["insight"]["id"]: r["signals"] for r in out["results"]}


def test_a_first_name_asks_about_the_handle_made_of_it(mem: Mnemon) -> None:
    lead = mem.remember("Dana Reyes leads the payments team", entities=["Dana Reyes"])["id"]
    handle = mem.remember("@dana signed off the rollout plan for Friday")["id"]
    mem.remember("Lunch on Friday is pizza")
    assert mem.show(handle)["entities"] == ["@dana"]  # no link is invented when remembering
    for query in ("who is Dana", "what did dana sign off"):
        out = mem.recall(query, explain=True)
        assert _anchors(out)["entity_names"]["partial"] == {"dana": ["dana reyes", "@dana"]}, query
        signals = _signals(out)
        assert signals[handle]["entity"] == signals[lead]["entity"] == 1.0, query


def test_a_handle_beside_no_full_name_is_not_asked_about_by_its_word(mem: Mnemon) -> None:
    mem.remember("@channel the release notes are out")
    mem.remember("Dana Reyes leads the payments team", entities=["Dana Reyes"])
    out = mem.recall("which channel do we post releases in", explain=True)
    assert "entity_names" not in _anchors(out)
    assert _anchors(out)["entities"] == []


def test_a_handle_is_indexed_by_the_words_of_its_name() -> None:
    parts = name_parts(["Dana Reyes", "@dana", "@dana.reyes", "@channel", "@d4na", "Dana Kim"])
    assert names_in_query("who is Dana", parts).partial == (
        ("dana", ("dana reyes", "@dana", "@dana.reyes", "dana kim")),)
    assert names_in_query("what did Reyes approve", parts).partial == (("reyes", ("dana reyes", "@dana.reyes")),)
    assert names_in_query("which channel", parts).partial == ()
    assert names_in_query("who is Dana Reyes", parts).whole == ("dana reyes",)  # a handle is never a whole name
