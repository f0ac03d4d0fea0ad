"""The camelCase gate of tokenising: an ASCII text rules out a camelCase word by two substring tests, and every text
still gets exactly the words the regex's scan gives (what the keyword index holds must not change with its speed)."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mnemon.core.text import camel_parts_scanned, token_text, with_camel_parts

# letters of both cases, digits and the characters around words: where a camelCase hint can start or stop
_WORDY = st.text(alphabet=st.sampled_from("aZbYz09AqQ '-_.\n\t/é"), max_size=40)


@settings(max_examples=400, deadline=None)
@given(_WORDY)
def test_the_camel_gate_finds_every_word_the_scan_finds(text: str) -> None:
    assert with_camel_parts(text) == camel_parts_scanned(text)


def test_a_camel_word_still_splits_after_the_gate() -> None:
    assert token_text("parseConfig HTTPServer base64Encode") == token_text(
        "parse config parseconfig http server httpserver base64 encode base64encode")
    assert with_camel_parts("see parseConfig") != "see parseConfig"
