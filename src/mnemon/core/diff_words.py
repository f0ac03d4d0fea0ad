"""The words the diff's rules share: the verbs of a value moved ("moved from X"), and the content words of a phrase
without the fillers a correction is worded with ("Update: since March, Mira now …")."""
from __future__ import annotations

from .text import tokens

FROM_VERBS = (r"moved|relocated|switched|changed|migrated|transferred|shifted|converted|ported|swapped|upgraded|"
              r"downgraded")
# words before a cue that are no subject ("Update: since March, Mira now …")
FILLERS = frozenset(tokens(
    "now currently recently finally eventually actually officially today yesterday since last year month week "
    "update note correction fyi meanwhile however anyway already back away everything everyone"))


def content_words(text: str) -> tuple[str, ...]:
    return tuple(t for t in tokens(text) if t not in FILLERS)
