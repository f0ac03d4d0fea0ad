"""A `LazyRegex` compiles at its first use and then answers every method as `re.compile` would — the methods are
bound into slots at that use (a lookup through `__getattr__` cost ~10x a slot's on the tokenizer's hot path)."""
from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from mnemon.core.lazy_regex import LazyRegex


def test_nothing_is_compiled_until_the_first_use_and_then_once() -> None:
    lazy = LazyRegex(r"(\w+)@(\w+)\.org", re.IGNORECASE)
    assert lazy._compiled is None
    assert lazy.groups == 2 and lazy.pattern == r"(\w+)@(\w+)\.org"  # (any attribute: compiled, methods bound)
    compiled = lazy._compiled
    assert compiled is not None and lazy.search("X@Y.ORG") is not None and lazy._compiled is compiled


@given(st.text(alphabet="ab@.org XY\n", max_size=30))
def test_every_method_answers_as_the_compiled_pattern(text: str) -> None:
    lazy, plain = LazyRegex(r"(a+)|b", re.IGNORECASE), re.compile(r"(a+)|b", re.IGNORECASE)
    for method, args in (("search", (text,)), ("match", (text,)), ("fullmatch", (text,)), ("findall", (text,)),
                         ("sub", ("-", text)), ("subn", ("-", text)), ("split", (text,))):
        got, want = getattr(lazy, method)(*args), getattr(plain, method)(*args)
        assert (got.span() if isinstance(got, re.Match) else got) == (
            want.span() if isinstance(want, re.Match) else want), method
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in plain.finditer(text)]
