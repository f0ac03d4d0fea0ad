"""Multi-factor re-ranking with transparent signals, supersedes demotion, and the no-filler gate."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .params import SUPERSEDED_FACTOR, RerankWeights

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


def idf(doc_freq: int, total: int) -> float:
    """Smoothed inverse document frequency; rare words weigh more than a name that is in every other turn."""
    return math.log(1.0 + (total - doc_freq + 0.5) / (doc_freq + 0.5))


def keyword_signal(query: Mapping[str, float], doc_tokens: frozenset[str]) -> float:
    """Weighted share of the query's tokens the document contains: |Q∩D| / |Q| when all weights are equal."""
    total = sum(query.values())
    if total <= 0:
        return 0.0
    return sum(w for t, w in query.items() if t in doc_tokens) / total


def bm25_scores(query: Mapping[str, float], docs: Mapping[str, Sequence[str]], k1: float = 1.2,
                b: float = 0.75) -> dict[str, float]:
    """BM25 of each document's token list against IDF-weighted query terms; average length taken over `docs`."""
    if not docs:
        return {}
    avgdl = sum(len(t) for t in docs.values()) / len(docs) or 1.0
    out: dict[str, float] = {}
    for doc_id, toks in docs.items():
        tf: dict[str, int] = {}
        for t in toks:
            if t in query:
                tf[t] = tf.get(t, 0) + 1
        norm = k1 * (1 - b + b * len(toks) / avgdl)
        out[doc_id] = sum(query[t] * f * (k1 + 1) / (f + norm) for t, f in tf.items())
    return out


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


def combine(signals: Signals, weights: RerankWeights, superseded: bool) -> float:
    score = (weights.keyword * signals.keyword + weights.entity * signals.entity
             + weights.similarity * signals.similarity + weights.graph * signals.graph)
    return score * SUPERSEDED_FACTOR if superseded else score


def is_supported(signals: Signals) -> bool:
    return signals.keyword > 0 or signals.entity > 0 or signals.similarity >= SIMILARITY_SUPPORT
