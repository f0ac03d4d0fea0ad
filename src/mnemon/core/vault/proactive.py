"""What the proactive scorer (`app.thoughts`) knows of a bullet before it knows the time: its kind, status words,
hint words, its note's type and folder. Their sum is the bullet's static score; reading adds freshness (dates
against today) and the recently-surfaced cooldown.

Ingestion stores the static score of every bullet (the `proactive` column, under the hints it was planned with), so
the pass reads bullets best-first and stops once no unread bullet can score higher than what it has — instead of
reading and scoring every bullet of a vault. Both sides compute the parts here, so they cannot drift apart.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import chain

from ..keywords import VAULT_SOURCE_PREFIX
from ..text import tokens

DEADLINE_WORDS = frozenset(tokens("due deadline expires overdue urgent"))
OPEN_WORDS = frozenset(tokens("waiting awaiting follow needs todo blocked unresolved pending"))
# what makes a line read as an open loop on a card: a question, or a statement of work still open — not one of
# `OPEN_WORDS` anywhere ("Every order over 5,000 needs two approvals" is a rule, "a follow-up idea" an idea)
_OPEN_STATEMENT = re.compile(
    r"\bneeds? to\b|\bstill needs?\b|\bneeds? (?:an? )?(?:\w+ )?(?:reply|answer|decision|review|sign-?off|approval|"
    r"confirmation|fixing|chasing)\b|\b(?:a)?waiting\b|\bblocked\b|\bstuck\b|\bto-?do\b|\btbd\b|"
    r"\bfollow(?:ing)? up\b|^\W*follow-up\b|\bunresolved\b|\bpending\b|\bnot yet\b|\bopen question|"
    r"\?(?=[\s)\]\"'”’]*(?:\s|$))", re.I | re.M)
IMPORTANT_TYPES = frozenset({"project", "finance", "event", "person"})
FRESHNESS_MAX = 0.8  # the most freshness adds at reading time; the cooldown only subtracts
PROACTIVE_STATE = "proactive_hints"  # vault state: the hints every stored static score was computed with
HINT_REASON = "\0hint"  # the "matched hint: …" reason's place: it is worded only for the candidates shown


def is_open_statement(text: str) -> bool:
    """Whether `text` states open work: a question, "needs to", "waiting on", "TODO", "follow up with …", …"""
    return _OPEN_STATEMENT.search(text) is not None


def reads_open(text: str, kind: str, task: bool | None = None) -> bool:
    """Whether a memory reads as an open loop: an open task (an observation `kind` "blocked" on a task; with `task`
    unknown, None, that kind counts as one) or text stating open work. A bullet ingestion calls "blocked" for a word
    anywhere ("needs", "follow") is one only when it states the work."""
    return (kind == "blocked" and task is not False) or (kind != "done" and is_open_statement(text))


def task_of(memory_kind: str, source: str) -> bool | None:
    """`reads_open`'s `task`: True for a task, False for another vault memory (its kind read from its words), None
    for one whose kind its author declared (a scoped payload's observation)."""
    return True if memory_kind == "task" else False if source.startswith(VAULT_SOURCE_PREFIX) else None


@lru_cache(maxsize=200_000)
def chunk_terms(chunk: str) -> tuple[str, ...]:
    """The search terms of one word or whitespace-free chunk; cached: a vault repeats its words across thousands of
    bullets, and the proactive pass reads every one (and each word of each hinted one again)."""
    return tuple(tokens(chunk))


def words_of(text: str) -> frozenset[str]:
    """The search terms of a text, tokenised a whitespace-separated chunk at a time through a cache (half the time
    of `tokens` on a vault's bullets)."""
    return frozenset(chain.from_iterable(map(chunk_terms, text.split())))


@lru_cache(maxsize=65_536)
def segments_of(source: str) -> frozenset[str]:
    """The folder and file names of a source, lower-cased (every bullet of a note shares them)."""
    path = source.removeprefix(VAULT_SOURCE_PREFIX)
    return frozenset(s.lower() for s in re.split(r"[/:]", path) if s)


@lru_cache(maxsize=64)
def stemmed_hints(hint_words: tuple[str, ...]) -> tuple[str, ...]:
    """Hint words → the stemmed terms the scorer matches, each once, in order."""
    return tuple(dict.fromkeys(t for h in hint_words for t in tokens(h)))


def static_parts(kind: str, base: float, words: frozenset[str], hints: Sequence[str], note_type: str,
                 source: str) -> tuple[dict[str, float], list[str], list[str], dict[str, float]]:
    """(parts before freshness, their reasons — the hint reason as `HINT_REASON` —, the hints matched, parts after
    freshness): the breakdown keeps Mneme's order, with freshness between the note type and the source."""
    parts: dict[str, float] = {"base": base}
    reasons: list[str] = []
    if kind == "blocked":
        parts["open_loop_kind"] = 5.0
        reasons.append("open loop")
    elif kind == "risk":
        parts["risk_kind"] = 4.0
        reasons.append("risk or deadline")
    # a done item's deadline or waiting words say what was finished ("paid before the deadline"), not what is
    # still open: it gets neither bonus, and ranks below the open items of the same hints and note
    if words & DEADLINE_WORDS and kind != "done":
        parts["deadline_words"] = 4.0
        reasons.append("deadline wording")
    if words & OPEN_WORDS and kind != "done":
        parts["open_loop_words"] = 3.0
    hit = [h for h in hints if h in words]
    if hit:
        parts["hints"] = 2.0 * len(hit)
        reasons.append(HINT_REASON)
    if note_type in IMPORTANT_TYPES:
        parts["note_type"] = 1.5
    tail: dict[str, float] = {}
    segments = segments_of(source)
    if "archive" in segments:
        tail["source_quality"] = -2.5
    elif "runs" in segments or "logs" in segments:
        tail["source_quality"] = -1.0
    return parts, reasons, hit, tail


def static_score(kind: str, base: float, text: str, hints: Sequence[str], note_type: str, source: str,
                 words: frozenset[str] | None = None) -> float:
    """A bullet's score before freshness and cooldown: what ingestion stores for it. `words` are `words_of(text)`
    when the caller has them: ingestion has the bullet's `token_text`, whose tokens they are."""
    if words is None:
        words = words_of(text)
    head, _reasons, _hit, tail = static_parts(kind, base, words, hints, note_type, source)
    return sum(head.values()) + sum(tail.values())


def proactive_key(hints: Sequence[str]) -> str:
    """The vault state value saying every bullet's stored static score was computed with these (stemmed) hints."""
    return "\n".join(["hints", *hints])


def hints_of_key(value: str | None) -> tuple[str, ...] | None:
    """The hints a `proactive_key` names; None when the state says no single set of hints scored every bullet."""
    if not value or not value.startswith("hints"):
        return None
    return tuple(value.split("\n")[1:])
