"""Recall's cheaper reads of a candidate answer what the full reads answer: the check made before a text's
hand-overs are read never misses one."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.core.diff_handover import _roles, hands_over, may_hand_over

_PIECES = ["Ana", "Bob Chen", "now", "NOW", "Now", "new", "New", "also", "jointly", "the", "our", "is", "was",
           "became", "has", "owner", "Owner", "lead", "leader", "manager", "maintainer", "head", "chair", "of", "for",
           "on", "owns", "OWNS", "leads", "runs", "manages", "maintains", "heads", "oversees", "chairs", "owned",
           "led", "run", "overseen", "by", "took", "taken", "takes", "taking", "over", "from", "as", "replaced",
           "replaces", "Ownership", "leadership", "management", "stewardship", "moved", "went", "shifted", "passed",
           "handed", "hands", "passes", "transferred", "transfers", "to", "pipeline", "deployment", "billing", "co-owns",
           "too", "together", "with", "since", "May", "ta\u212aen", "pa\u017f\u017fed", "n\u00f6w", "現在", "负责",
           ",", ", ", ".", ";", ":", "(", ")", " — ", " - ", "\n", "and", "but", "so", "'s", "’s"]
_TEXTS = st.lists(st.sampled_from(_PIECES), max_size=16).map(" ".join)
_JOINED = st.lists(st.sampled_from(_PIECES), max_size=12).map("".join)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(_TEXTS, _JOINED, st.text(max_size=40)))
def test_the_word_check_never_misses_a_hand_over(text: str) -> None:
    if any(role.handed_over for role in _roles(text)):
        assert may_hand_over(text), text
    assert hands_over(text) == any(role.handed_over for role in _roles(text))


def test_each_form_of_a_hand_over_passes_the_word_check() -> None:
    for text in ("Ana is now the owner of the pipeline", "Ana is the new lead for payments",
                 "Ana took over the pipeline", "Ana replaced Bob as owner of the pipeline",
                 "Ownership of the billing service moved from Alice to Bob", "Leadership of payments went to Bob",
                 "Kenji handed the CI pipeline over to Aiko", "Kenji passes the pipeline on to Aiko",
                 "Ana Ruiz now owns the deployment pipeline",
                 "The pipeline is now owned by Ana", "ANA NOW OWNS THE PIPELINE"):
        assert hands_over(text) and may_hand_over(text), text
    assert not may_hand_over("Aiko replaced the session cache with Redis")
    assert not may_hand_over("Mira moved from Lisbon to Porto")
