"""Mneme's observation scoring for bullets, numbered items and tasks (reference §2.4).

Faithful: the four status families, their word lists and weights (blocked 3.0, done 1.5, risk 2.5,
correction 8.0), base 1.0 for a plain fact, +2.0 when a hint word appears, +1.0 when a date appears, the keep
rule (score ≥ 3 or kind blocked/risk), tasks as blocked 3.0 / done 1.5, bullet length 8–350 characters and the
cap of 40 evidence items per note with tasks first.

Fixed (reference §8.2 item 3): words match on word boundaries, so "residue" is not `due`, "define" is not
`fine` and "undone" is not `done`; and when several families match, the *strongest* family names the kind and
only its weight counts — Mneme let the last family checked win ("paid, waiting on receipt" became `done`) and
summed every family's weight, so a line could outscore a correction just by being wordy. All matched
families are still reported for transparency.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

from mnemon.core.errors import InvalidInput
from mnemon.core.vault.model import ObservationKind

BASE_SCORE = 1.0
HINT_BONUS = 2.0
DATE_BONUS = 1.0
KEEP_THRESHOLD = 3.0
ALWAYS_KEPT_KINDS: frozenset[str] = frozenset({"blocked", "risk"})
OPEN_TASK: tuple[ObservationKind, float] = ("blocked", 3.0)
DONE_TASK: tuple[ObservationKind, float] = ("done", 1.5)
MIN_ITEM_CHARS = 8
MAX_ITEM_CHARS = 350
MAX_OBSERVATIONS_PER_NOTE = 40

DEFAULT_HINTS: tuple[str, ...] = (
    "deadline", "project", "invoice", "lease", "tax", "school", "move", "certification", "payment",
)


def hint_words(value: object) -> list[str]:
    """`--hints` as given (`"deadline,lease"` or a list of words) → its words; None → none.

    >>> hint_words(" deadline, Lease ,,")
    ['deadline', 'Lease']
    """
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not all(isinstance(h, str) for h in items):
        raise InvalidInput("hints must be a comma-separated list of words")
    return [h.strip() for h in items if h.strip()]


@dataclass(frozen=True, slots=True)
class StatusFamily:
    name: ObservationKind
    weight: float
    words: tuple[str, ...]


# Mneme's check order, kept for documentation; kind selection uses weight, not order (see module docstring).
STATUS_FAMILIES: tuple[StatusFamily, ...] = (
    StatusFamily(
        "blocked", 3.0,
        ("blocked", "stuck", "waiting", "awaiting", "needs", "need to", "todo", "to do", "follow up", "unresolved"),
    ),
    StatusFamily("done", 1.5, ("paid", "resolved", "closed", "completed", "done", "accepted", "confirmed")),
    StatusFamily(
        "risk", 2.5, ("deadline", "expires", "due", "appeal", "fine", "penalty", "urgent", "overdue", "risk"),
    ),
    StatusFamily(
        "correction", 8.0,
        ("correction", "corrected", "fix:", "incorrect", "wrong:", "misleading", "updated:", "superseded"),
    ),
)


_WORD = re.compile(r"\w+")


def _term_pattern(term: str) -> str:
    words = term.split()
    body = r"[\s-]+".join(re.escape(word) for word in words)
    if term[-1].isalnum():
        body += r"(?!\w)"
    return r"(?<!\w)" + body


def _variants(word: str) -> tuple[str, ...]:
    # A plain word also matches its plural ("deadlines"); whole-word matching keeps "residue" away from "due".
    return (word, word + "s", word + "es")


@dataclass(frozen=True, slots=True)
class _TermIndex:
    """Whole-word matching for labelled term lists: a C-level set intersection for single words and a regex
    only for multi-word or punctuated terms, behind a substring gate. Scoring runs on every list item of every
    note, so this sits on the ingest hot path."""

    single: Mapping[str, tuple[str, str]]  # word form → (label, term)
    phrases: tuple[tuple[str, str, str, re.Pattern[str]], ...]  # (substring gate, label, term, pattern)

    @classmethod
    def build(cls, labelled_terms: Iterable[tuple[str, str]]) -> "_TermIndex":
        single: dict[str, tuple[str, str]] = {}
        phrases: list[tuple[str, str, str, re.Pattern[str]]] = []
        for label, raw_term in labelled_terms:
            term = raw_term.strip().lower()
            if not term:
                continue
            if _WORD.fullmatch(term):
                for form in _variants(term):
                    single.setdefault(form, (label, term))
            else:
                words = _WORD.findall(term)
                gate = words[0] if words else term
                phrases.append((gate, label, term, re.compile(_term_pattern(term), re.IGNORECASE)))
        return cls(single, tuple(phrases))

    def matches(self, lowered: str, words: set[str]) -> list[tuple[str, str]]:
        """(label, term) pairs found — single words in order of appearance, then phrases — each term once."""
        hit_forms = self.single.keys() & words
        found = [self.single[word] for word in hit_forms]
        if len(found) > 1:
            found = list(dict.fromkeys(found))
            found.sort(key=lambda pair: lowered.find(pair[1]))
        for gate, label, term, pattern in self.phrases:
            if gate in lowered and pattern.search(lowered):
                found.append((label, term))
        return found


_FAMILY_INDEX = _TermIndex.build((family.name, word) for family in STATUS_FAMILIES for word in family.words)
_FAMILY_BY_NAME: Mapping[str, StatusFamily] = {family.name: family for family in STATUS_FAMILIES}


@lru_cache(maxsize=64)
def _hint_index(hints: tuple[str, ...]) -> _TermIndex:
    return _TermIndex.build(("hint", hint) for hint in hints)


def _families_in(lowered: str, words: set[str]) -> tuple[StatusFamily, ...]:
    names = {_FAMILY_INDEX.single[word][0] for word in _FAMILY_INDEX.single.keys() & words}
    for gate, label, _term, pattern in _FAMILY_INDEX.phrases:
        if label not in names and gate in lowered and pattern.search(lowered):
            names.add(label)
    if not names:
        return ()
    return tuple(family for family in STATUS_FAMILIES if family.name in names)


@dataclass(frozen=True, slots=True)
class ScoredText:
    kind: ObservationKind
    score: float
    families: tuple[str, ...]
    hint_hits: tuple[str, ...]

    @property
    def kept(self) -> bool:
        return is_kept(self.kind, self.score)


def matched_families(text: str) -> tuple[StatusFamily, ...]:
    lowered = text.lower()
    return _families_in(lowered, set(_WORD.findall(lowered)))


def hint_hits(text: str, hints: Sequence[str]) -> tuple[str, ...]:
    lowered = text.lower()
    return tuple(term for _label, term in _hint_index(tuple(hints)).matches(lowered, set(_WORD.findall(lowered))))


def score_text(text: str, *, hints: Sequence[str] = DEFAULT_HINTS, has_date: bool = False) -> ScoredText:
    """Score one bullet's text the way Mneme's `observation_score` meant to."""
    lowered = text.lower()
    words = set(_WORD.findall(lowered))
    families = _families_in(lowered, words)
    kind: ObservationKind = "fact"
    score = BASE_SCORE
    if families:
        strongest = max(families, key=lambda family: family.weight)
        kind = strongest.name
        score += strongest.weight
    hits = tuple(term for _label, term in _hint_index(tuple(hints)).matches(lowered, words)) if hints else ()
    if hits:
        score += HINT_BONUS
    if has_date:
        score += DATE_BONUS
    return ScoredText(kind, score, tuple(family.name for family in families), hits)


def score_task(done: bool) -> tuple[ObservationKind, float]:
    return DONE_TASK if done else OPEN_TASK


def is_kept(kind: str, score: float) -> bool:
    return score >= KEEP_THRESHOLD or kind in ALWAYS_KEPT_KINDS
