"""Text pasted on macOS is decomposed (NFD): "é" is "e" and the combining accent U+0301, which Python's `re` does not
count as a word character. An inline tag stopped at the accent: `#café` written so was the tag "cafe", `#Café/Menu`
"cafe" too (its "/menu" lost), and neither met the composed `#café` the same vault writes elsewhere. A tag now runs
over a letter's marks and is kept composed (NFC), as front-matter tags are: one tag whatever form it is typed in."""
from __future__ import annotations

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.core.vault.frontmatter import normalise_tag
from mnemon.core.vault.parser import parse_note


def _nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def _tags(text: str) -> list[str]:
    return [tag.name for tag in parse_note("note.md", text).tags]


def test_a_decomposed_tag_keeps_its_accent_and_its_nested_part() -> None:
    assert _tags(_nfd("Tagged #café and #Café/Menu today\n")) == ["café", "café/menu"]


def test_a_tag_is_one_tag_in_either_form_in_the_body_and_in_front_matter() -> None:
    text = "---\ntags: [" + _nfd("Crème") + "]\n---\n# Notes\n#crème and " + _nfd("#crème") + "\n"
    assert _tags(text) == ["crème", "crème", "crème"]
    assert normalise_tag(_nfd("#Zoë")) == "zoë"


def test_a_hash_right_after_a_decomposed_letter_is_no_tag_as_after_a_composed_one() -> None:
    # "café#menu" composed was never a tag (a word goes on before the '#'): decomposed, the accent read as no word
    assert _tags("café#menu\n") == []
    assert _tags(_nfd("café#menu\n")) == []


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(categories=["Ll", "Lu"], max_codepoint=0x24F), min_size=1, max_size=12))
def test_any_latin_tag_is_the_same_tag_composed_or_decomposed(word: str) -> None:
    composed = unicodedata.normalize("NFC", word)
    found = _tags(f"See #{composed} here\n")
    assert _tags(_nfd(f"See #{composed} here\n")) == found
    assert all(unicodedata.is_normalized("NFC", name) for name in found)
