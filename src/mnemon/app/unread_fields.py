"""The fields of an import's rows that it does not read, named in a warning (a draft's and an export's alike).

A hand-edited `"importanc": 5` was imported at the default importance, without a word: the reply read as if every
field had been applied. Rows are noted one at a time, so a streamed restore of a large export never holds them."""
from __future__ import annotations

import difflib
from typing import Any

_SHOWN = 5  # row indices named per field; the rest are counted


class UnreadFields:
    """The fields outside `known` of one part's rows (`what`: "insight", "edge"), with the rows holding each."""

    def __init__(self, what: str, known: tuple[str, ...]) -> None:
        self.what, self.known = what, known
        self._known = frozenset(known)  # (asked of every field of every row: 421k edges of a 10k store's export)
        self.at: dict[str, list[int]] = {}
        self.count: dict[str, int] = {}

    def note(self, k: int, row: Any) -> None:
        if not isinstance(row, dict) or self._known.issuperset(row):
            return
        for key in row:
            if key not in self._known:
                key = str(key)
                at = self.at.setdefault(key, [])
                if len(at) < _SHOWN:
                    at.append(k)
                self.count[key] = self.count.get(key, 0) + 1

    def warnings(self, of: str, *, verb: str = "applied", whole: bool = False) -> list[str]:
        """One warning per field: `of` says what it is no field of ("a draft"); `whole`: the part is the document
        itself, named without row indices."""
        out = []
        for key, at in self.at.items():
            n = self.count[key]
            named = self.what if whole else (f"{self.what}{'s' if n > 1 else ''} {', '.join(map(str, at))}"
                                             f"{f' and {n - len(at)} more' if n > len(at) else ''}")
            close = difflib.get_close_matches(key, self.known, n=1)
            out.append(f"{named}: {key!r} is not a field of {of} (it reads {', '.join(self.known)})"
                       + (f"; did you mean {close[0]!r}?" if close else "") + f" It was not {verb}.")
        return out
