"""A token that SQLite's FTS5 splits into several words — a Hindi or Tamil word (FTS5 separates at vowel signs), a
Thai letter pair with its tone mark, "o'brien" — was counted in no memory on SQLite (its vocabulary holds only the
pieces) and in every memory holding it on PostgreSQL. Recall weighs and chooses its words by these counts, so the
two backends ranked the same memories differently; SQLite now counts such a token as the phrase search finds it."""
from __future__ import annotations

from typing import Any

import pytest

from mnemon.core.text import tokens

from .test_sqlite_store import put

_TEXTS = ["मेरी बहन दिल्ली में रहती है", "दिल्ली में बारिश हुई", "ผมชอบกินข้าวผัด", "Ada O'Brien met Zoë"]


@pytest.mark.parametrize("query", ["दिल्ली", "बहन", "ข้าวผัด", "o'brien"])
def test_a_token_is_counted_in_the_memories_holding_it(store: Any, query: str) -> None:
    for i, text in enumerate(_TEXTS):
        put(store, f"m{i}", text)
    terms = tokens(query)
    found = {t: len(store.keyword_search([t], 10)) for t in terms}
    assert all(found.values())
    assert store.token_doc_freq(terms) == found
