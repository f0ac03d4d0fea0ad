"""A card says why it was shown in words (`app.thoughts`): its footer read "Why now: matched battery; truth policy
source_contained_observation". The machine value stays in the JSON (`surface.truth_policy`)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.world.truth import ASSERTION_TRUTH_POLICIES, PREDICTION_TRUTH_POLICIES, truth_policy_words

SUPPLIERS = "# Suppliers\n\n- Northwind Batteries — battery shipment overdue, escalate if no reply\n"
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")


@pytest.fixture
def vault_mem(mem: Mnemon, tmp_path: Path) -> Mnemon:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "suppliers.md").write_text(SUPPLIERS, encoding="utf-8")
    mem.ingest(str(vault))
    return mem


def test_a_card_says_its_truth_policy_in_words(vault_mem: Mnemon, tmp_path: Path) -> None:
    cards = vault_mem.surface(prompt="battery shipment", out=str(tmp_path / "cards"))["thoughts"]
    assert cards
    for card in cards:
        assert not IDENTIFIER.search(card["why_now"]), card["why_now"]
        assert card["surface"]["truth_policy"] in ("source_contained_observation", "active_evidence",
                                                   "active_validated_claim", "provenance_not_fact")
        svg = Path(card["card"]["svg"]).read_text(encoding="utf-8")
        assert "truth policy" not in svg and card["surface"]["truth_policy"] not in svg
    assert any("stated in its source" in card["why_now"] for card in cards)


def test_every_known_policy_has_words() -> None:
    policies = ["source_contained_observation", "active_evidence", "active_validated_claim", "provenance_not_fact",
                "candidate_only", "excluded", "stored_memory", *ASSERTION_TRUTH_POLICIES.values(),
                *PREDICTION_TRUTH_POLICIES.values()]
    for policy in policies:
        words = truth_policy_words(policy)
        assert words and not IDENTIFIER.search(words), (policy, words)
    assert truth_policy_words("some_new_policy") == "some new policy"  # an unknown one still reads as words
