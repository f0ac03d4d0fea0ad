"""A possessive 's leaves a name's token as it leaves an English word's ("Mira's" → mira): "Müller’s", "Zoë's" and
"José's" kept the 's ("müller's"), so recall's keyword signal, the diff and causal overlap missed "Müller" in
"Müller’s team" (keyword search, splitting at the apostrophe, found it)."""
from __future__ import annotations

import pytest

from mnemon.core.text import tokens


@pytest.mark.parametrize(("possessive", "name"), [("Müller’s", "Müller"), ("Zoë's", "Zoë"), ("José’s", "José"),
                                                   ("Søren's", "Søren"), ("Mira's", "Mira")])
def test_a_possessive_name_has_the_names_token(possessive: str, name: str) -> None:
    assert tokens(f"{possessive} team owns the datacenter")[0] == tokens(name)[0]


def test_other_apostrophes_are_kept() -> None:
    assert tokens("l'été") == ["l'ete"]  # (accents folded: tests/core/test_accent_folding.py)
    assert tokens("Zoë’s") == tokens("zoë's") == ["zoe"]
