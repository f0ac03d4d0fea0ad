"""Notes a query names by a front-matter alias (`aliases: [LH]` on the Lighthouse note): recall searches by their
titles too, as if the query had named each note by its title.

Every row of a note carries its title in its keyword text, never its aliases, so "what is LH" found nothing of the
note a `[[LH]]` link resolves to. The aliases are read at query time rather than added to every row's keyword text:
that would grow the index (its size is a tracked target) for words only a few questions use. An alias is named by
its words in their order, as the shared tokenizer reads them (stemmed, stop words dropped: "the Postgres switch" is
named by "postgres switch"); an alias of stop words alone ("IT") names nothing.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..text import tokens


def titles_named(query_tokens: Sequence[str], notes: Iterable[tuple[str, Sequence[str]]]) -> dict[str, str]:
    """Each alias (as written) of `notes` — (title, aliases) — whose words `query_tokens` holds in order → its
    note's title."""
    if not query_tokens:
        return {}
    said = f" {' '.join(query_tokens)} "
    named: dict[str, str] = {}
    for title, aliases in notes:
        for alias in aliases:
            phrase = _phrase(alias)
            if phrase and phrase in said:
                named.setdefault(alias, title)
    return named


@lru_cache(maxsize=1 << 16)
def _phrase(alias: str) -> str:
    """The alias's words between spaces, as `titles_named` looks for them in a query ("" for none): read once per
    alias, not once per alias and query (4,000 aliases cost ≈ 45 ms a recall)."""
    words = tokens(alias)
    return f" {' '.join(words)} " if words else ""
