"""The advisory diff of `remember`: ADD / UPDATE / CONFLICT / DUPLICATE.

Only byte-identical active content is ever skipped (the store answers that by hash lookup); everything here is a
suggestion for the agent, never a reason to change or delete an existing memory.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .text import jaccard, token_set

_NEGATION = re.compile(
    r"(?i)\b(?:no longer|don't|doesn't|do not|does not|never|switched from|instead of|rather than|replaced|deprecated)\b"
    r"|不再|放弃|替换|取消"
)
COSINE_OVERRIDE = 0.85


@dataclass(frozen=True)
class DiffMatch:
    id: str
    similarity: float
    suggestion: str


def classify(similarity: float, new_text: str, old_text: str) -> str:
    if similarity < 0.5:
        return "ADD"
    if similarity >= 0.7 and (_NEGATION.search(new_text) or _NEGATION.search(old_text)):
        return "CONFLICT"
    if similarity > 0.9:
        return "DUPLICATE"
    return "UPDATE"


def diff_suggestion(
    new_text: str, candidates: list[tuple[str, str, float | None]]
) -> tuple[str, list[DiffMatch]]:
    """`candidates` = (id, content, calibrated cosine or None). Returns the overall verdict and the matches."""
    new_tokens = token_set(new_text)
    matches: list[DiffMatch] = []
    for cid, content, cosine in candidates:
        sim = jaccard(new_tokens, token_set(content))
        if cosine is not None and cosine >= COSINE_OVERRIDE and cosine > sim:
            sim = cosine
        matches.append(DiffMatch(cid, round(sim, 4), classify(sim, new_text, content)))
    matches.sort(key=lambda m: (-m.similarity, m.id))
    if not matches:
        return "ADD", []
    if any(m.suggestion == "DUPLICATE" for m in matches):
        return "DUPLICATE", matches
    return matches[0].suggestion, matches
