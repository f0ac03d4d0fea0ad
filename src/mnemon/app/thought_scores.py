"""How the proactive pass scores one observation: Mneme's static parts (`core.vault.proactive`), then freshness
(its dates against today), the recently-surfaced cooldown and the demotion of a weakened observation edge.

The cooldown is read from the thought history (the oplog's `thought` rows, newest first): an item shown in the
last `RECENT_WINDOW` thoughts loses `RECENT_PENALTY` for each showing, less the longer ago it was (`cooldown`).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence, Set as AbstractSet
from datetime import datetime
from typing import Any

from ..core.model import Memory, parse_iso
from ..core.vault.dates import date_spans
from ..core.vault.parser import blanked_links
from ..core.vault.proactive import HINT_REASON, chunk_terms, static_parts, words_of
from .runtime import Runtime

RECENT_WINDOW = 20
RECENT_PENALTY = 3.0


def is_observation(node: Memory) -> bool:
    kind = (node.metadata or {}).get("memory_kind")
    return kind in ("observation", "task") or (node.source.startswith("mneme://") and kind != "section")


def text_dates(text: str) -> list[datetime]:
    """The dated phrases of a text (2026-04-10, 10 Apr 2026, Apr 10, 2026); a date without a year has no place in
    time and is left out, and so is one in a link or URL (`[[2026-03-04 Kickoff]]` names another note's day, not
    this text's), as the parser's date edges leave them out."""
    return [datetime(year, month, day) for _, _, year, month, day in date_spans(blanked_links(text))
            if year is not None]


def _hint_reason(text: str, hit: Sequence[str]) -> str:
    """The text's words that matched a hint, as written (the stemmed hints when none reads back)."""
    shown = [w for w in re.findall(r"[\w-]+", text.lower()) if any(t in hit for t in chunk_terms(w)[:1])]
    return "matched hint: " + ", ".join(dict.fromkeys(shown or hit))


def worded(reasons: list[str], text: str, hit: Sequence[str]) -> list[str]:
    return [_hint_reason(text, hit) if r == HINT_REASON else r for r in reasons]


def _stored_dates(meta: dict[str, Any]) -> list[datetime] | None:
    """The dated days ingestion found in a bullet's text (`dates` in its metadata), or None for a row written
    before ingestion stored them (a payload observation, an older store): the caller reads its text."""
    days = meta.get("dates")
    if not isinstance(days, list):
        return None
    try:
        return [datetime(int(d[:4]), int(d[5:7]), int(d[8:10])) for d in days]
    except (TypeError, ValueError):
        return None


Recent = Mapping[str, Sequence[int]] | AbstractSet[str]


def cooldown(ranks: Iterable[int]) -> float:
    """The recently-surfaced penalty of an item among the last `RECENT_WINDOW` thoughts at these ranks (0 = the
    newest): each showing costs `RECENT_PENALTY`, less the longer ago it was. A flat penalty let every item shown
    lately tie again, and the same one won every run; this one grows with how recently and how often an item was
    shown, so repeated runs rotate through the good candidates, and the same history always gives the same order."""
    return round(sum(RECENT_PENALTY * (RECENT_WINDOW - r) / RECENT_WINDOW for r in set(ranks)), 4)


def _ranks(recent: Recent, *ids: str) -> set[int]:
    """The ranks of the recent thoughts that named any of `ids`; a plain set of ids counts each as the newest."""
    if isinstance(recent, Mapping):
        return {r for i in ids for r in recent.get(i, ())}
    return {0} if any(i in recent for i in ids) else set()


def score_observation(node: Memory, *, hints: tuple[str, ...], now: datetime, recent_seeds: Recent,
                      note_type: str = "", strength: float = 1.0) -> tuple[float, dict[str, float], list[str]]:
    """(score, breakdown, reasons) of an observation. `recent_seeds`: the ids the last thoughts named, with their
    ranks (`recent_ranks`); `strength`: its observation edge's strength over its confidence (below 1: weakened)."""
    score, parts, reasons, hit = score_draft(node, hints=hints, now=now, recent_seeds=recent_seeds,
                                             note_type=note_type, strength=strength)
    return score, parts, worded(reasons, node.content, hit)


def score_draft(node: Memory, *, hints: tuple[str, ...], now: datetime, recent_seeds: Recent,
                note_type: str = "", strength: float = 1.0) -> tuple[float, dict[str, float], list[str], list[str]]:
    """`score_observation` with the hint reason left as a slot: the proactive pass scores every bullet of a vault
    and shows a handful, and wording the reason cost a third of its scoring."""
    meta = node.metadata or {}
    parts, reasons, hit, tail = static_parts(str(meta.get("observation_kind") or "fact"),
                                             float(meta.get("score") or node.importance), words_of(node.content),
                                             hints, note_type, node.source)
    naive_now = now.replace(tzinfo=None)
    dates = _stored_dates(meta)
    if dates is None:
        dates = text_dates(node.content)
    if dates:
        # by day, as a card's "Past due" reads them: against the current time, a date was past from 00:00:01 on the
        # day it was due, and the most pressing item of all ranked below one due in three weeks
        today = naive_now.replace(hour=0, minute=0, second=0, microsecond=0)
        upcoming = [d for d in dates if d >= today]
        if upcoming and (min(upcoming) - today).days <= 30:
            parts["freshness"] = 0.8
            reasons.append(f"dated {min(upcoming).date().isoformat()}, within 30 days")
        else:
            age = min(abs((naive_now - d).days) for d in dates)
            parts["freshness"] = 0.6 if age <= 30 else 0.2 if age <= 120 else -0.2
    elif node.created_at:
        age = (now - parse_iso(node.created_at)).days
        parts["freshness"] = 0.3 if age <= 30 else 0.0 if age <= 120 else -0.15
    parts.update(tail)
    seed = f"note:{meta['note']}" if meta.get("note") else node.id
    if ranks := _ranks(recent_seeds, node.id, seed):
        parts["recently_surfaced"] = -cooldown(ranks)
        reasons.append("recently surfaced (cooldown)" if len(ranks) == 1
                       else f"recently surfaced {len(ranks)} times (cooldown)")
    if 0.0 < strength < 1.0:
        # a dismissed observation is demoted in proportion (Mneme's `dismissal_weakens_by_default`): a tenth of
        # its edge's strength, a tenth of its score. Only a positive score shrinks: it never rises toward zero.
        total = sum(parts.values())
        if total > 0:
            parts["weakened"] = -round(total * (1.0 - strength), 4)
            reasons.append(f"observation edge weakened (strength ×{strength:.3g})")
    return round(sum(parts.values()), 4), parts, reasons, hit


def recent_ranks(rt: Runtime) -> dict[str, tuple[int, ...]]:
    """Node id → the ranks (0 = the newest) of the last `RECENT_WINDOW` thoughts that named it, as seed or memory."""
    ranks: dict[str, list[int]] = {}
    for rank, entry in enumerate(rt.store.oplog(RECENT_WINDOW, op="thought")):
        for named in {str(s) for s in (entry.detail.get("seed"), entry.detail.get("memory")) if s}:
            ranks.setdefault(named, []).append(rank)
    return {node_id: tuple(found) for node_id, found in ranks.items()}


__all__ = ["RECENT_PENALTY", "RECENT_WINDOW", "Recent", "cooldown", "is_observation", "recent_ranks", "score_draft",
           "score_observation", "text_dates", "worded"]
