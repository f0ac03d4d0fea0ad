"""A payload's beliefs and a research's beliefs and predictions are filed under its own source: an `assertions[]`
entry of a `mneme://agent/a` payload naming `"source_path": "notes/ci.md"` was stored under that note, so `forget
--source mneme://agent/a` left it current ("assertions": 0) and a re-send without it never withdrew it; a research's
`assertions[]` or `predictions[]` naming another path likewise escaped its re-runs. Another source is refused
(invalid_input, nothing written); the payload's own scope or pack path given again is accepted."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

from conftest import FakeClock

SCOPE = "mneme://agent/a"
_BELIEF = {"subject": "CI", "predicate": "schedule", "object": "nightly", "confidence": 0.95,
           "certainty": "confirmed", "source_type": "tool_output", "evidence": "the crontab"}
_PREDICTION = {"title": "Parcel arrives", "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
               "check_after": "2026-06-02T00:00:00Z", "expires_at": "2026-06-05T00:00:00Z"}


def _stored(mem: Mnemon) -> tuple[int, int, list[str]]:
    return (mem.state_list()["count"], mem.predict_due(before="2027-01-01T00:00:00Z")["count"],
            sorted(mem.rt.store.vault.nodes_with_source(SCOPE)))  # type: ignore[attr-defined]


def test_a_payload_belief_filed_under_another_source_is_refused(world: tuple[Mnemon, FakeClock]) -> None:
    mem, _ = world
    payload = {"source_path": SCOPE, "nodes": [{"ref": "ci"}],
               "assertions": [{**_BELIEF, "source_path": "notes/ci.md"}]}
    with pytest.raises(InvalidInput, match=r"assertions\[0\]\.source_path") as caught:
        mem.remember_payload(payload)
    assert caught.value.details["field"] == "source_path"
    with pytest.raises(InvalidInput):
        mem.remember_payload(payload, dry_run=True)
    assert _stored(mem) == (0, 0, [])
    [own] = mem.remember_payload({**payload, "assertions": [{**_BELIEF, "source_path": SCOPE}]})["assertions"]
    assert own["written"] is True
    assert mem.forget_source(SCOPE)["world_removed"]["assertions"] == 1


@pytest.mark.parametrize("key", ["assertions", "predictions"])
def test_a_research_row_filed_under_another_source_is_refused(world: tuple[Mnemon, FakeClock], tmp_path: Path,
                                                              key: str) -> None:
    mem, _ = world
    row: dict[str, Any] = {**(_BELIEF if key == "assertions" else _PREDICTION), "source_path": "notes/ci.md"}
    research = {"slug": "ci", "title": "CI", "date": "2026-06-01", key: [row]}
    with pytest.raises(InvalidInput, match=rf"{key}\[0\]\.source_path"):
        mem.resolve(str(tmp_path), research)
    assert _stored(mem) == (0, 0, [])
    assert not (tmp_path / "Sources").exists()
    out = mem.resolve(str(tmp_path), {**research, key: [{**row, "source_path": "Sources/2026-06-01-ci.md"}]})
    assert out["written"] is True
