"""The route of an agent's prompt: retrieval, correction or both, by wording alone (no network, same every run)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from mnemon.core.world.route import BOTH, CORRECTION, RETRIEVAL, route


@pytest.mark.parametrize(("prompt", "path"), [
    ("where does Mira live now?", RETRIEVAL),
    ("remind me of the supplier's invoice terms", RETRIEVAL),
    ("Actually Mira moved to Porto last month.", CORRECTION),
    ("Update: the pilot starts in May", CORRECTION),
    ("The invoice is now paid", CORRECTION),
    ("Actually she moved to Porto — where does she work now?", BOTH),
    ("其实她已经搬到波尔图了", CORRECTION),
    ("她住在哪里？", RETRIEVAL),
    ("不对，Mira 现在住在波尔图", CORRECTION),  # "wrong, Mira lives in Porto now": was no cue at all
    ("你记错了，会议是周三", CORRECTION),
    ("That’s wrong, the kickoff was on 4 March", CORRECTION),  # a typographic apostrophe
    ("that's not right, she left in May", CORRECTION),
    ("Mira moved from Lisbon to Porto", CORRECTION),  # only "moved to" counted
    ("We replaced Redis with Memcached", CORRECTION),
    ("The team switched from Jira to Linear", CORRECTION),
    ("Mira 住在柏林，对不对？", RETRIEVAL),  # 对不对 is a tag question ("right?"), not a correction
])
def test_wording_decides_the_route(prompt: str, path: str) -> None:
    found = route(prompt)
    assert found.path == path and found.cues and found.confidence >= 0.7
    assert all(cue in prompt.lower() for cue in found.cues)


def test_words_inside_other_words_are_no_cues() -> None:
    assert route("the actuallyish nowhere-update list").cues == ("list",)
    assert route("battery supplier").path == RETRIEVAL and route("battery supplier").confidence == 0.5


def test_a_correction_route_says_how_to_record_it() -> None:
    block = route("Correction: the kickoff was on 4 March").to_dict()
    assert block["path"] == CORRECTION and block["source"] == "rules"
    assert "mnemon remember" in str(block["next_step"]) and "supersedes" in str(block["next_step"])


@given(st.text(max_size=300))
def test_every_prompt_gets_a_route_with_a_next_step(prompt: str) -> None:
    block = route(prompt).to_dict()
    assert block["path"] in (RETRIEVAL, CORRECTION, BOTH)
    assert 0 < float(block["confidence"]) <= 1  # type: ignore[arg-type]
    assert block["next_step"]
