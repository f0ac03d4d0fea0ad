"""What `--hints` did to a thought, candidates or proactive cards.

A hint raises the score of an observation or task that holds it (`matched hint: …`, +2 in `score_breakdown`); it
does not filter. `thought --hints suppliers` gave a "Past due: sensor firmware" card, which outscored every
supplier item, and nothing said whether the hint had matched anything at all (a misspelt hint matches nothing and
changes no score). The reply now says which hints the cards hold and which no observation or task holds.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .runtime import Runtime
from .thought_scores import is_observation

_HOLDERS_READ = 200  # the best keyword hits read for a hint: an observation among them shows it matches something


def _held(rt: Runtime, hint: str) -> bool:
    ids = [node_id for node_id, _score in rt.store.keyword_search([hint], _HOLDERS_READ)]
    return any(is_observation(n) and not n.deleted_at for n in rt.store.get_nodes(ids).values()) if ids else False


def hint_report(rt: Runtime, hints: Sequence[str], matched: Iterable[str]) -> dict[str, Any]:
    """{"given", "matched" (by the cards shown), "unmatched" (held by no observation or task)} and a note when the
    cards hold none of the hints, as the words the scorer compares (stemmed: 'suppliers' is 'supplier')."""
    hit = set(matched)
    unmatched = [h for h in hints if h not in hit and not _held(rt, h)]
    report: dict[str, Any] = {"given": list(hints), "matched": [h for h in hints if h in hit], "unmatched": unmatched}
    if len(unmatched) == len(hints):
        report["note"] = "no observation or task holds a hint: they changed no score"
    elif not hit:
        report["note"] = ("no card shown holds a hint: a hint raises the score of an item that holds it, it"
                          " does not filter, and other items scored higher")
    return report


def said_hints(rt: Runtime, asked: Any, hints: Sequence[str], matched: Iterable[str]) -> dict[str, Any]:
    """`{"hint_report": …}` for a reply when hints were asked for (`asked`, the argument as given), else nothing."""
    return {"hint_report": hint_report(rt, hints, matched)} if asked is not None and hints else {}
