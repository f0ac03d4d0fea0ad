"""A payload's NUL and lone-surrogate check says exactly what the field-naming walk says, however it is told."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.errors import InvalidInput
from mnemon.core.validation import nul_path, surrogate_path
from mnemon.core.world.values import refuse_nul

_TEXT = st.text(alphabet=st.sampled_from(["a", "é", " ", "\x00", "\ud800", "\udc00", "日"]), max_size=5)
_SCALAR = _TEXT | st.integers(-2, 2) | st.none()
_VALUE = st.recursive(_SCALAR, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
                      max_leaves=8)
_PAYLOAD = st.dictionaries(_TEXT, _TEXT | st.dictionaries(_TEXT, _TEXT, max_size=3) | _VALUE, max_size=5)


def _walked(data: dict) -> str | None:
    """The field the general walk names (NUL first, then a lone surrogate), None for a clean payload."""
    where = nul_path(data)
    if where is None:
        where = surrogate_path(data)
    return where


@settings(max_examples=500, deadline=None)
@given(_PAYLOAD)
def test_refusing_nul_names_the_field_the_walk_names(data: dict) -> None:
    expected = _walked(data)
    if expected is None:
        refuse_nul(data, "sense event")
    else:
        with pytest.raises(InvalidInput) as error:
            refuse_nul(data, "sense event")
        assert error.value.details.get("field") == expected


@pytest.mark.parametrize("bad", ["\x00", "\ud800"])
@pytest.mark.parametrize("shape", [lambda b: {b: "x"}, lambda b: {"t": b}, lambda b: {"m": {b: "x"}},
                                   lambda b: {"m": {"k": b}}, lambda b: {"m": {"k": "x"}, "n": [b]}])
def test_a_bad_text_anywhere_is_refused_as_the_walk_names_it(bad: str, shape: Any) -> None:
    data = {"sense_type": "md", **shape(f"a{bad}b")}
    with pytest.raises(InvalidInput) as error:
        refuse_nul(data, "sense event")
    assert error.value.details.get("field") == _walked(data)


@pytest.mark.parametrize("title", ["a\x00b", "a\ud800b"])
def test_a_vault_payload_with_a_bad_title_is_still_refused(title: str) -> None:
    payload = {"sense_type": "md", "title": title, "text": "fine", "metadata": {"path": "a.md", "type": "note"}}
    with pytest.raises(InvalidInput, match="title"):
        refuse_nul(payload, "sense event")
    refuse_nul({**payload, "title": "fine"}, "sense event")
