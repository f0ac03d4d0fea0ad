"""Multi-factor re-ranking with transparent signals, supersedes demotion, and the no-filler gate."""
from __future__ import annotations

import math
import re
from bisect import insort
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..cue_words import CHANGE_SAID as _CHANGE_CUE
from ..cue_words import MAY_CORRECT as _MAY_CORRECT
from ..cue_words import MAY_CORRECT_WORDED as _CORRECTION_CUE
from ..model import Link
from ..text_memo import TextMemo
from .params import (
    LAMBDA_SEMANTIC, LAMBDA_STRUCTURAL, PROXIMITY_FACTOR, REPLY_CARRY, SUPERSEDED_FACTOR, RerankWeights,
)
from .timeframe import OUTSIDE_FACTOR

K = TypeVar("K", bound=Hashable)  # memory ids, or graph positions in the array engine

SIMILARITY_SUPPORT = 0.25  # calibrated cosine below this is not evidence of relevance on its own


@dataclass(frozen=True)
class Signals:
    keyword: float
    entity: float
    similarity: float
    graph: float

    def as_dict(self) -> dict[str, float]:
        return {"keyword": round(self.keyword, 4), "entity": round(self.entity, 4),
                "similarity": round(self.similarity, 4), "graph": round(self.graph, 4)}


@dataclass(frozen=True)
class Scored:
    id: str
    score: float
    signals: Signals
    via: str
    superseded: bool
    supported: bool
    outside_window: bool = False  # written outside the period the query names
    reply_to: str | None = None  # the question whose relevance this memory carries as its reply
    corrected_by: str | None = None  # a newer result whose correction retires a value this one states
    corrects: tuple[str, ...] = ()  # results this one supersedes or corrects, ranked below it (`precedence`)
    through: str | None = None  # no tie of its own to the query: the matched memory whose link brought it in


def idf(doc_freq: int, total: int) -> float:
    """Smoothed inverse document frequency; rare words weigh more than a name that is in every other turn."""
    return math.log(1.0 + (total - doc_freq + 0.5) / (doc_freq + 0.5))


def keyword_signal(query: Mapping[str, float], doc_tokens: frozenset[str]) -> float:
    """Weighted share of the query's tokens the document contains: |Q∩D| / |Q| when all weights are equal."""
    total = sum(query.values())
    if total <= 0:
        return 0.0
    return sum(w for t, w in query.items() if t in doc_tokens) / total


def entity_signal(query_entities: frozenset[str], doc_entities: frozenset[str]) -> float:
    if not query_entities:
        return 0.0
    return len(query_entities & doc_entities) / max(1, len(query_entities))


def minmax(values: Mapping[str, float]) -> dict[str, float]:
    if not values:
        return {}
    lo, hi = min(values.values()), max(values.values())
    if hi - lo <= 1e-12:
        return {k: (1.0 if hi > 0 else 0.0) for k in values}
    return {k: (v - lo) / (hi - lo) for k, v in values.items()}


def relevance(keyword: Mapping[K, float], similarity: Mapping[K, float], ids: Sequence[K],
              with_vectors: bool) -> dict[K, float]:
    """What each memory says about the query on its own: keyword and similarity, each scaled by its best value
    among `ids`, averaged (keyword alone without vectors)."""
    kw_top = max((keyword.get(i, 0.0) for i in ids), default=0.0) or 1.0
    if not with_vectors:
        return {i: keyword.get(i, 0.0) / kw_top for i in ids}
    sim_top = max((similarity.get(i, 0.0) for i in ids), default=0.0) or 1.0
    return {i: (keyword.get(i, 0.0) / kw_top + max(0.0, similarity.get(i, 0.0)) / sim_top) / 2 for i in ids}


def neighbour_support(rel: Mapping[str, float], adjacency: Mapping[str, Sequence[Link]], candidates: set[str],
                      edge_weights: Mapping[str, float], similarity: Mapping[str, float],
                      graph_of: Callable[[Link], str | None]) -> dict[str, float]:
    """How strongly its neighbourhood vouches for each candidate: the best rel(j) · f over edges j → i, where
    f = min(1, (λ1·φ[graph]·w·σ + λ2·cos(query, i)) / ((λ1 + λ2) / 2)) and σ halves same-day proximity edges
    (being written the same day is weaker evidence than directly following). A memory that answers the one
    before it — a reply to a question, the fix after a failure — is lifted by its neighbour's relevance; over a
    `reply` step (out of a question) that relevance carries over whole (f ≥ REPLY_CARRY).

    >>> from mnemon.core.model import Link
    >>> adj = {"q": [Link("q", "a", "temporal", "backbone", 1.0, 1)]}
    >>> neighbour_support({"q": 1.0, "a": 0.0}, adj, {"q", "a"}, {"temporal": 0.35}, {"a": 0.0}, lambda l: l.type)
    {'a': 0.5}
    """
    scale = (LAMBDA_STRUCTURAL + LAMBDA_SEMANTIC) / 2
    out: dict[str, float] = {}
    for src, links in adjacency.items():
        base = rel.get(src, 0.0)
        if base <= 0.0:
            continue
        for link in links:
            dst = link.dst
            if dst == src or dst not in candidates:
                continue
            phi = edge_weights.get(graph_of(link) or "", 0.0)
            if phi <= 0.0:
                continue
            sigma = PROXIMITY_FACTOR if link.sub_type == "proximity" else 1.0
            f = (LAMBDA_STRUCTURAL * phi * max(0.0, min(1.0, link.weight)) * sigma
                 + LAMBDA_SEMANTIC * max(0.0, similarity.get(dst, 0.0))) / scale
            carry = REPLY_CARRY if (link.type, link.sub_type) == ("temporal", "reply") else 0.0
            value = base * max(min(1.0, f), carry)
            if value > out.get(dst, 0.0):
                out[dst] = value
    return out


def combine(signals: Signals, weights: RerankWeights, superseded: bool, outside_window: bool = False) -> float:
    score = (weights.keyword * signals.keyword + weights.entity * signals.entity
             + weights.similarity * signals.similarity + weights.graph * signals.graph)
    if outside_window:
        score *= OUTSIDE_FACTOR
    return score * SUPERSEDED_FACTOR if superseded else score


# a query about what held before asks for the retired value itself: an inferred correction demotes nothing then
_ASKS_FOR_HISTORY = re.compile(
    r"(?i)\b(?:used\s+to|use\s+to|before|previous(?:ly)?|formerly|former|originally|earlier|at\s+first|"
    r"in\s+the\s+past|history|prior|past)\b|以前|之前|原来|曾经|过去")


def asks_for_history(query: str) -> bool:
    return _ASKS_FOR_HISTORY.search(query) is not None


@dataclass(frozen=True)
class _CorrectionReaders:
    corrections: Callable[[str], tuple[Any, ...]]
    correction_reason: Callable[[tuple[Any, ...], str, frozenset[str]], str]
    hands_over: Callable[[str], bool]
    handover: Callable[[str, str], str]


class _Readers:
    """The diff's readers, each loaded when a candidate first has its cue (imported once, not once a pair)."""

    def __init__(self) -> None:
        self.correction: _CorrectionReaders | None = None
        self.superseding_update: Callable[[str, str], str] | None = None

    def load_correction(self) -> _CorrectionReaders:
        from ..diff import correction_reason, corrections
        from ..diff_handover import handover, hands_over

        self.correction = _CorrectionReaders(corrections, correction_reason, hands_over, handover)
        return self.correction

    def load_update(self) -> Callable[[str, str], str]:
        from ..diff_updates import superseding_update

        self.superseding_update = superseding_update
        return superseding_update


class _Reading:
    """What the correctors' loop asks of one text: its keyword tokens, and — of a corrector, each when first needed —
    its cues, corrections and whether it hands a role over. Kept across recalls by the text (`_reading`)."""

    __slots__ = ("words", "cues", "found", "hands")

    def __init__(self, text: str) -> None:
        from ..text import token_set

        self.words = token_set(text)
        self.cues: tuple[bool, bool] | None = None  # (a correction's or hand-over's cue, a change's)
        self.found: tuple[Any, ...] | None = None
        self.hands: bool | None = None


_reading = TextMemo(_Reading, max_chars=1 << 20)


class _Correctors:
    """The candidates whose wording may correct, newest first, each one's corrections read when first needed."""

    def __init__(self, candidates: Sequence[tuple[str, str, str]]) -> None:
        self.wording = sorted((c for c in candidates if _MAY_CORRECT.said_in(c[1])), key=lambda c: c[2], reverse=True)
        self._readings: list[_Reading | None] = [None] * len(self.wording)  # (this recall's, without a lock each)
        self._readers = _Readers()

    def of(self, content: str, at: str) -> str | None:
        """The id of the newest candidate written after `at` whose correction retires what `content` states. The
        diff's readers load only for a candidate with their cue: a memory that says it "moved" or is "now" so
        needs no correction reader (the diff module alone costs a recall ≈ 30 ms to load)."""
        said = _reading(content).words
        readers = self._readers
        for k, (new_id, text, new_at) in enumerate(self.wording):
            if new_at <= at:
                return None
            reading = self._readings[k]
            if reading is None:
                reading = self._readings[k] = _reading(text)
            if not reading.words & said:
                # every reading names something the older memory says (the retired value, the handed role, the
                # measure or product): none can hold, so the pair is not read (each read costs tens of µs)
                continue
            cues = reading.cues
            if cues is None:
                cues = reading.cues = (_CORRECTION_CUE.said_in(text), _CHANGE_CUE.said_in(text))
            if cues[0]:
                correction = readers.correction or readers.load_correction()
                found = reading.found
                if found is None:
                    found = reading.found = correction.corrections(text)
                if found and correction.correction_reason(found, content, said):
                    return new_id
                hands = reading.hands
                if hands is None:
                    hands = reading.hands = correction.hands_over(text)
                # (a role handed to another holder retires the memory naming the last one, as a correction would)
                if hands and correction.handover(text, content):
                    return new_id
            # ("is now 250", "was upgraded to 1.29": a change said)
            if cues[1] and (readers.superseding_update or readers.load_update())(text, content):
                return new_id
        return None


def corrected_by(candidates: Sequence[tuple[str, str, str]]) -> dict[str, str]:
    """(id, content, created_at) of the final candidates → {older id: id of the newest later candidate that
    corrects it}, by diff's correction detection: "Mira moved from Lisbon to Porto" retires "Mira lives in Lisbon"
    as an agent's `supersedes` link would, when the agent did not link them.

    >>> corrected_by([("a", "Mira lives in Lisbon", "2026-11-01"), ("b", "Mira moved from Lisbon to Porto",
    ...               "2026-11-02"), ("c", "Ana lives in Lisbon", "2026-11-01")])
    {'a': 'b'}
    """
    correctors = _Correctors(candidates)
    if not correctors.wording:
        return {}  # no candidate uses a correction's words: the diff module is not even loaded (recall's start-up)
    found = {old_id: correctors.of(content, old_at) for old_id, content, old_at in candidates}
    return {old_id: new_id for old_id, new_id in found.items() if new_id is not None}


def corrected_in_reach(ranked: Sequence[tuple[str, str, str]], scores: Sequence[float], demotable: Sequence[bool],
                       limit: int, outside: Sequence[tuple[str, str, str]] = ()) -> dict[str, str]:
    """`corrected_by` of `ranked` (best first, `scores` theirs) and `outside` (correctors only), reading the older
    side only as far as the best `limit` can reach once the corrected (`demotable` ones) are demoted: a score only
    falls, so the memories below `limit` better ones cannot enter the list. Any of `ranked` may correct, so
    `--limit 1` reads the correction ranked third that `--limit 2` reads (the same flags and scores).

    >>> rows = [("a", "Mira lives in Lisbon", "2026-11-01"), ("c", "Ana likes tea", "2026-11-02"),
    ...         ("b", "Mira moved from Lisbon to Porto", "2026-11-03")]
    >>> corrected_in_reach(rows, [0.9, 0.5, 0.2], [True] * 3, 1)
    {'a': 'b'}
    """
    correctors = _Correctors([*ranked, *outside])
    if not correctors.wording:
        return {}
    out: dict[str, str] = {}
    best: list[float] = []  # the best `limit` final scores so far, lowest first
    for (old_id, content, old_at), score, demotable_one in zip(ranked, scores, demotable):
        if len(best) >= limit and best[0] > score:
            break  # (a tie may still be ranked above by importance: it is read)
        new_id = correctors.of(content, old_at)
        if new_id is not None:
            out[old_id] = new_id
        insort(best, score * SUPERSEDED_FACTOR if demotable_one and new_id is not None else score)
        del best[:-limit]
    return out


def is_supported(signals: Signals) -> bool:
    return signals.keyword > 0 or signals.entity > 0 or signals.similarity >= SIMILARITY_SUPPORT
