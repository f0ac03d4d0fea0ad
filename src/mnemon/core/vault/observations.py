"""Mneme's observation scoring for bullets, numbered items and tasks (reference §2.4).

Faithful: the four status families, their word lists and weights (blocked 3.0, done 1.5, risk 2.5,
correction 8.0), base 1.0 for a plain fact, +2.0 when a hint word appears, +1.0 when a date appears, the keep
rule (score ≥ 3 or kind blocked/risk), tasks as blocked 3.0 / done 1.5, bullet length 8–350 characters and the
cap of 40 evidence items per note with tasks first.

Fixed (reference §8.2 item 3): words match on word boundaries, so "residue" is not `due`, "define" is not
`fine` and "undone" is not `done` — and "works fine" or "fine-tune" is no `risk` either, while "a parking fine"
is; and when several families match, the *strongest* family names the kind and
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
# In ASCII, `_WORD`'s words are the runs of letters, digits and "_": a byte table maps every other character to a
# space, and a C-level translate and split find them at a third of the regex's cost (scoring reads every bullet).
_ASCII_WORD_BYTES = bytes(c if chr(c).isalnum() or c == 0x5F else 0x20 for c in range(128)) + b" " * 128


def _word_set(lowered: str) -> set[str]:
    """The words (`_WORD`) of a lower-cased text."""
    if lowered.isascii():
        return set(lowered.encode("ascii").translate(_ASCII_WORD_BYTES).decode("ascii").split())
    return set(_WORD.findall(lowered))


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
    note, so this sits on the ingest hot path.

    A phrase's regex (a scan of the whole text) also waits until each of its words is one of the text's words, when
    both are ASCII: a match holds each word whole, with a non-word character or an edge on both sides, and there
    IGNORECASE matches nothing but the same lower-case letters. ("to do" is gated on "to", in nearly every bullet.)"""

    single: Mapping[str, tuple[str, str]]  # word form → (label, term)
    # (substring gate, label, term, pattern, the words every match holds whole — None when that is not certain)
    phrases: tuple[tuple[str, str, str, re.Pattern[str], frozenset[str] | None], ...]
    # the first words of the phrases when every phrase has them whole: an ASCII text holding none of them holds no
    # phrase, and the loop over the phrases is skipped (None: it never is)
    first_words: frozenset[str] | None = None

    @classmethod
    def build(cls, labelled_terms: Iterable[tuple[str, str]]) -> "_TermIndex":
        single: dict[str, tuple[str, str]] = {}
        phrases: list[tuple[str, str, str, re.Pattern[str], frozenset[str] | None]] = []
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
                # (a term ending in "_" has no look-ahead: its last word may run on in the text)
                whole = frozenset(words) if term.isascii() and term[-1] != "_" else None
                phrases.append((gate, label, term, re.compile(_term_pattern(term), re.IGNORECASE), whole))
        certain = all(whole and gate in whole for gate, _label, _term, _pattern, whole in phrases)
        return cls(single, tuple(phrases), frozenset(gate for gate, *_rest in phrases) if certain else None)

    def phrases_in(self, lowered: str, words: set[str]) -> list[tuple[str, str]]:
        """(label, term) of each phrase found, in list order."""
        ascii_text = lowered.isascii()
        if ascii_text and self.first_words is not None and self.first_words.isdisjoint(words):
            return []
        return [(label, term) for gate, label, term, pattern, whole in self.phrases
                if gate in lowered and (whole is None or not ascii_text or whole <= words) and pattern.search(lowered)]

    def matches(self, lowered: str, words: set[str]) -> list[tuple[str, str]]:
        """(label, term) pairs found — single words in order of appearance, then phrases — each term once."""
        hit_forms = self.single.keys() & words
        found = [self.single[word] for word in hit_forms]
        if len(found) > 1:
            found = list(dict.fromkeys(found))
            found.sort(key=lambda pair: lowered.find(pair[1]))
        if self.phrases:
            found += self.phrases_in(lowered, words)
        return found

    def terms(self, lowered: str, words: set[str]) -> tuple[str, ...]:
        """The terms `matches` finds; most bullets hold none, which one set test tells."""
        if not self.phrases and self.single.keys().isdisjoint(words):
            return ()
        return tuple(term for _label, term in self.matches(lowered, words))


_FAMILY_INDEX = _TermIndex.build((family.name, word) for family in STATUS_FAMILIES for word in family.words)
_FAMILY_OF_FORM: Mapping[str, str] = {form: label for form, (label, _term) in _FAMILY_INDEX.single.items()}
# A set of family names → (its families in list order, the strongest one's kind and weight, their names), built as
# met (at most 2**4): every bullet needs them, and they depend on the set alone.
_FAMILY_SETS: dict[frozenset[str], tuple[tuple[StatusFamily, ...], ObservationKind, float, tuple[str, ...]]] = {}
_FAMILY_BY_NAME: Mapping[str, StatusFamily] = {family.name: family for family in STATUS_FAMILIES}


@lru_cache(maxsize=64)
def _hint_index(hints: tuple[str, ...]) -> _TermIndex:
    return _TermIndex.build(("hint", hint) for hint in hints)


# "fine" is in Mneme's risk family as a penalty ("parking fine must be settled"), but a note far more often says
# things are fine ("the backup works fine", "all fine", "it's fine") or fine-tunes something; such a bullet is no
# risk, yet the risk family would always keep it. So "fine" counts only where it is not read that way; "fines" is a
# penalty always.
_BENIGN_FINE = re.compile(
    r"(?:(?<!\w)(?:is|was|are|were|be|been|being|seems?|seemed|looks?|looked|sounds?|sounded|works?|worked|working"
    r"|runs?|ran|feels?|felt|went|turned out|all|ok|okay|just|perfectly|totally|quite|pretty|very|so|really|mostly"
    r"|also|still|fairly|doing)|['\u2019](?:s|re))\s+fine(?!\w)"
    r"|(?<!\w)fine[-\s]+(?:tun\w*|grain\w*|print|arts?|dining|wine|details?|line|art)(?!\w)")
_FINE = re.compile(r"(?<!\w)fine(?!\w)")


def _only_benign_fine(lowered: str, words: set[str]) -> bool:
    """Whether the risk family is matched only through "fine", and every "fine" of the text reads as "all right" or
    "delicate" rather than a penalty."""
    risk_forms = {form for form in _FAMILY_INDEX.single.keys() & words if _FAMILY_OF_FORM[form] == "risk"}
    if risk_forms != {"fine"} or any(label == "risk" for label, _term in _FAMILY_INDEX.phrases_in(lowered, words)):
        return False
    return len(_FINE.findall(lowered)) == len(_BENIGN_FINE.findall(lowered))


def _family_set(lowered: str, words: set[str]) -> tuple[tuple[StatusFamily, ...], ObservationKind, float,
                                                        tuple[str, ...]]:
    names = frozenset(map(_FAMILY_OF_FORM.__getitem__, _FAMILY_INDEX.single.keys() & words))
    if "fine" in words and _only_benign_fine(lowered, words):
        names = names - {"risk"}
    phrases = _FAMILY_INDEX.phrases_in(lowered, words)
    if phrases:
        names = names.union(label for label, _term in phrases)
    entry = _FAMILY_SETS.get(names)
    if entry is None:
        families = tuple(family for family in STATUS_FAMILIES if family.name in names)
        strongest = max(families, key=lambda family: family.weight) if families else None
        entry = _FAMILY_SETS[names] = (families, strongest.name if strongest else "fact",
                                       strongest.weight if strongest else 0.0, tuple(f.name for f in families))
    return entry


def _families_in(lowered: str, words: set[str]) -> tuple[StatusFamily, ...]:
    return _family_set(lowered, words)[0]


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
    return _families_in(lowered, _word_set(lowered))


def hint_hits(text: str, hints: Sequence[str]) -> tuple[str, ...]:
    lowered = text.lower()
    return _hint_index(tuple(hints)).terms(lowered, _word_set(lowered))


def score_text(text: str, *, hints: Sequence[str] = DEFAULT_HINTS, has_date: bool = False) -> ScoredText:
    """Score one bullet's text the way Mneme's `observation_score` meant to."""
    return ScoredText(*score_parts(text, hints, has_date))


def score_parts(text: str, hints: Sequence[str], has_date: bool
                ) -> tuple[ObservationKind, float, tuple[str, ...], tuple[str, ...]]:
    """`score_text`'s fields as a tuple (kind, score, families, hint hits): the parser scores every bullet of a vault
    and keeps few of the results, so it does not build a frozen dataclass for each."""
    lowered = text.lower()
    words = _word_set(lowered)
    families, kind, weight, names = _family_set(lowered, words)
    score = BASE_SCORE
    if families:  # the strongest family names the kind, and only its weight counts
        score += weight
    hits = _hint_index(tuple(hints)).terms(lowered, words) if hints else ()
    if hits:
        score += HINT_BONUS
    if has_date:
        score += DATE_BONUS
    return kind, score, names, hits


def score_task(done: bool) -> tuple[ObservationKind, float]:
    return DONE_TASK if done else OPEN_TASK


def is_kept(kind: str, score: float) -> bool:
    return score >= KEEP_THRESHOLD or kind in ALWAYS_KEPT_KINDS
