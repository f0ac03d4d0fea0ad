"""Text pasted on macOS (and its file names) is NFD: "é" is "e" and a combining accent. `remember` compared exact
code points, so the NFD spelling of a memory it already held was stored a second time (diff_suggestion DUPLICATE,
action "added"), and an NFD tag or entity was another tag or entity than its NFC twin. Text is stored in NFC."""
from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

NFC = "Café Müller in Zürich serves the best crème brûlée"
NFD = unicodedata.normalize("NFD", NFC)


def test_the_nfd_spelling_of_a_memory_is_a_skipped_duplicate(mem) -> None:
    assert NFD != NFC
    first = mem.remember(NFC)
    again = mem.remember(NFD)
    assert again["action"] == "skipped"
    assert again["existing_id"] == first["id"]


def test_an_nfd_memory_is_stored_in_nfc_and_its_nfc_spelling_repeats_it(mem) -> None:
    first = mem.remember(NFD, tags=[unicodedata.normalize("NFD", "café")],
                         entities=[unicodedata.normalize("NFD", "Zoë")])
    stored = mem.show(first["id"])
    assert stored["content"] == NFC
    assert stored["tags"] == ["café"] and stored["entities"] == ["Zoë"]
    assert mem.remember(NFC)["action"] == "skipped"


@settings(max_examples=20)
@given(st.sampled_from(["é", "ü", "ñ", "å", "ệ", "ḱ", "한", "が"]))
def test_any_decomposed_letter_is_stored_composed(letter) -> None:
    from mnemon.core.validation import validate_memory

    assert validate_memory(unicodedata.normalize("NFD", f"word {letter} word")).content == f"word {letter} word"
