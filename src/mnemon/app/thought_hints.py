"""What `--hints` did to a thought, candidates or proactive cards.

A hint raises the score of an observation or task that holds it (`matched hint: …`, +2 in `score_breakdown`); it
does not filter. `thought --hints suppliers` gave a "Past due: sensor firmware" card, which outscored every
supplier item, and nothing said whether the hint had matched anything at all (a misspelt hint matches nothing and
changes no score). The reply now says which hints the cards hold and which no observation or task holds.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..core.text import tokens
from ..core.vault.observations import hint_words
from .runtime import Runtime
from .thought_scores import is_observation

_HOLDERS_READ = 200  # the best keyword hits read for a hint: an observation among them shows it matches something


def _held(rt: Runtime, hint: str) -> bool:
    ids = [node_id for node_id, _score in rt.store.keyword_search([hint], _HOLDERS_READ)]
    return any(is_observation(n) and not n.deleted_at for n in rt.store.get_nodes(ids).values()) if ids else False


def hint_report(rt: Runtime, words: Sequence[str], matched: Iterable[str]) -> dict[str, Any]:
    """{"given", "matched" (by the cards shown), "unmatched" (held by no observation or task)}, each in the user's
    own words, and a note when the cards hold none of them. A word counts by the stemmed terms the scorer compares
    ('suppliers' matches as 'supplier'); the report had echoed those terms, `--hints suppliers` read back as
    'supplier' and `Acme` as 'acm'."""
    hit = set(matched)
    terms = {w: tokens(w) for w in dict.fromkeys(words)}
    held = {t: t in hit or _held(rt, t) for t in dict.fromkeys(t for ts in terms.values() for t in ts)}
    unmatched = [w for w, ts in terms.items() if not any(held[t] for t in ts)]
    shown = [w for w, ts in terms.items() if any(t in hit for t in ts)]
    report: dict[str, Any] = {"given": list(terms), "matched": shown, "unmatched": unmatched}
    if len(unmatched) == len(terms):
        report["note"] = "no observation or task holds a hint: they changed no score"
    elif not shown:
        report["note"] = ("no card shown holds a hint: a hint raises the score of an item that holds it, it"
                          " does not filter, and other items scored higher")
    return report


def said_hints(rt: Runtime, asked: Any, hints: Sequence[str], matched: Iterable[str]) -> dict[str, Any]:
    """`{"hint_report": …}` for a reply when hints were asked for (`asked`, the argument as given; `hints`, the
    stemmed terms it was scored by), else nothing. Words with no term to score by ('the') are reported too:
    asked for and silently dropped, they read as if they had been used."""
    words = hint_words(asked) if asked is not None else []
    return {"hint_report": hint_report(rt, words, matched)} if words else {}
