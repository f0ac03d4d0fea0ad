""""Bob doesn't live in Lisbon anymore" — the usual way to say a stored fact stopped holding — routed to `retrieval`
at the no-cue confidence: only the phrase "not anymore" counted, so preflight never pointed the agent at the belief
to correct. "anymore", "any more" and "any longer" are correction cues now."""
from __future__ import annotations

import pytest

from mnemon.core.world.route import BOTH, CORRECTION, RETRIEVAL, route


@pytest.mark.parametrize(("prompt", "path"), [
    ("Bob doesn't live in Lisbon anymore", CORRECTION),
    ("She isn't at Acme any more.", CORRECTION),
    ("The landlord does not hold the deposit any longer", CORRECTION),
    ("Bob doesn't live in Lisbon anymore, where is he now?", BOTH),
    ("Does Bob still live in Lisbon?", RETRIEVAL),
    ("the anymoreish furthermore list", RETRIEVAL),  # (inside other words: no cue)
])
def test_a_fact_that_stopped_holding_is_a_correction(prompt: str, path: str) -> None:
    found = route(prompt)
    assert found.path == path, found
    assert all(cue in prompt.lower() for cue in found.cues)
