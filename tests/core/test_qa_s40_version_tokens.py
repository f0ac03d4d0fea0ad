"""A version or dotted number is one token: split at its dots, "v2.3.1" was the tokens v2, 3 and 1, found by every
text holding a "v2" or a "3" and unable to tell 2.3.1 from 2.3.10 (search and recall:
tests/app/test_qa_s40_version_recall.py). Letters glued before the number are a word of their own ("python3.11" is
python and 3.11, as "Python 3.11" is), and a semver pre-release belongs to its three-part version."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.keywords import index_term, keyword_text
from mnemon.core.text import stem, token_text, tokens


@pytest.mark.parametrize(("text", "expected"), [
    ("v2.3.1", ["v", "2.3.1"]),
    ("1.2.3", ["1.2.3"]),
    ("python3.11", ["python", "3.11"]),
    ("Python 3.11", ["python", "3.11"]),
    ("node@18.2", ["node", "18.2"]),
    ("10.0.0.12", ["10.0.0.12"]),
    ("2.0.0-rc.1", ["2.0.0-rc.1"]),
    ("v2.0.0-RC.1.", ["v", "2.0.0-rc.1"]),
    ("openssl 1.1.1w", ["openssl", "1.1.1w"]),
    ("libssl.so.1.1", ["libssl", "1.1"]),
    ("3.5 hours", ["3.5", stem("hours")]),
    ("between 1.5-2.5 hours", ["1.5", "2.5", stem("hours")]),
    ("a 3.5-hour drive", ["3.5", "hour", stem("drive")]),
    ("version 3. Then 4", ["version", "3", "4"]),
    ("升级到v2.3.1", ["升级", "级到", "v", "2.3.1"]),
    ("signed on 12.02.2026", [stem("signed"), "12", "02", "2026"]),
    ("signed on 1.2.2026.", [stem("signed"), "1", "2", "2026"]),
    ("calver 2024.10.1", ["calver", "2024.10.1"]),
])
def test_a_version_is_one_token(text: str, expected: list[str]) -> None:
    assert tokens(text) == expected
    assert token_text(text) == " ".join(expected)


def test_words_without_a_dotted_number_are_split_as_before() -> None:
    assert tokens("RFC-9110 libssl.so.3 config.yaml") == ["rfc", "9110", "libssl", "3", "config", "yaml"]
    assert tokens("parseConfig") == [stem("parse"), "config", stem("parseconfig")]


def test_the_keyword_index_spells_a_version_as_one_word() -> None:
    # SQLite's unicode61 splits words at a dot or a hyphen: the index and a search spell the dots alike
    body = keyword_text(None, "upgraded to v2.0.0-rc.1 and 10.0.0.12", "user", None)
    assert body.split() == [stem("upgraded"), "v", index_term("2.0.0-rc.1"), index_term("10.0.0.12")]
    assert all(word.isalnum() or "." not in word for word in body.split())
    assert index_term("harbour") == "harbour" and index_term("node.js") == "node.js"


_number = st.integers(0, 999).map(str)


@settings(max_examples=200, deadline=None)
@given(st.lists(_number, min_size=2, max_size=5).map(".".join), st.sampled_from(["", "v", "python", "node@"]),
       st.sampled_from(["", ".", ",", "!", " hours"]))
def test_any_dotted_number_in_prose_is_one_token_and_none_of_its_parts(version: str, prefix: str, after: str) -> None:
    found = tokens(f"we upgraded to {prefix}{version}{after}")
    assert version in found
    assert not set(version.split(".")) & set(found)
    assert token_text(f"we upgraded to {prefix}{version}{after}") == " ".join(found)
