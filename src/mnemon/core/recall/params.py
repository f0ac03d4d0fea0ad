"""The constants of smart recall (seed §5.2 and its Chinese tables), in one place, with a formula version."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from ..intent import Intent

FORMULA_VERSION = ("mnemon-recall/4 (rrf60 anchors, a named day's memories, or a period's asked about alone, as"
                   " anchors matching its date words,"
                   " relevance-seeded decaying beam, neighbour support with reply carry, replies read with their"
                   " questions, per-intent rerank)")
RRF_K = 60
ANCHOR_TOP_K = 20
# BM25 scores every posting of every query word: the keyword anchor searches by the query's rarest words until their
# document counts reach this many (a small store never reaches it; at 100k memories it halves recall's time, and the
# rare words find the memory asked about more often, not less: benchmarks/bench_recall.py target_in_top10)
ANCHOR_POSTING_BUDGET = 3_000
# a period the query names that is at most this long (a day: "on 20 November 2026") is a source of its own: the
# memories written in it are anchors (`window`, closest in meaning first) and match the query's date words
# (app/recall.py `_with_period_words`). Not a month: on LoCoMo (turn R@5 0.7617 → 0.7643 with days) months too lost
# temporal questions (R@5 0.7882 → 0.7850): a month's hundreds of memories all matching "June" outweigh the question.
# (A query that asks about nothing but the period, "what happened in March 2025", has no question for them to
# outweigh: any closed period is then a source, period_source.py `PERIOD_ONLY`; no LoCoMo question is one)
WINDOW_SOURCE_SPAN = timedelta(days=1)
WINDOW_ANCHOR_TOP_K = 50
LAMBDA_STRUCTURAL = 1.0
LAMBDA_SEMANTIC = 0.4
SUPERSEDED_FACTOR = 0.25
# a note's properties section the query matches only by the note's name (its title, its type): the note's, not the
# section's evidence; read at half weight, as second-hand evidence is (REPLY_INHERIT), it follows the note's prose
NAME_ONLY_PROPERTIES_FACTOR = 0.5
BEAM_FANOUT = 16  # edges the beam considers per node: its strongest by φ·weight (LoCoMo: same quality as all)
PROXIMITY_FACTOR = 0.5  # a same-day neighbour vouches half as much as the memory directly before or after
# a reply step (a question → what its source wrote next, graph_rules.backbone_pair) hands the question's relevance on
# whole: the answer is about what was asked even when it shares no word with it ("Which team?" → "The Wolves.")
REPLY_CARRY = 1.0
# ... and a reply that is there for its question reads the question's keyword, entity and similarity evidence at
# half weight: second-hand evidence, as a same-day neighbour vouches half as much (PROXIMITY_FACTOR)
REPLY_INHERIT = 0.5
CONFIDENCE_CUTS = (0.25, 0.6)


@dataclass(frozen=True)
class BeamParams:
    width: int
    depth: int
    max_visited: int


BEAM: dict[Intent, BeamParams] = {
    Intent.WHY: BeamParams(15, 5, 500),
    Intent.WHEN: BeamParams(10, 5, 400),
    Intent.ENTITY: BeamParams(10, 4, 400),
    Intent.GENERAL: BeamParams(10, 4, 500),
}

# φ: how much each of the four graphs counts for an intent during traversal
EDGE_WEIGHTS: dict[Intent, dict[str, float]] = {
    Intent.WHY: {"causal": 0.70, "temporal": 0.20, "entity": 0.05, "semantic": 0.05},
    Intent.WHEN: {"causal": 0.15, "temporal": 0.65, "entity": 0.10, "semantic": 0.10},
    Intent.ENTITY: {"causal": 0.10, "temporal": 0.05, "entity": 0.55, "semantic": 0.30},
    Intent.GENERAL: {"causal": 0.25, "temporal": 0.25, "entity": 0.25, "semantic": 0.25},
}


@dataclass(frozen=True)
class RerankWeights:
    keyword: float
    entity: float
    similarity: float
    graph: float


RERANK: dict[Intent, RerankWeights] = {
    Intent.WHY: RerankWeights(0.10, 0.10, 0.30, 0.50),
    Intent.WHEN: RerankWeights(0.15, 0.15, 0.30, 0.40),
    Intent.ENTITY: RerankWeights(0.20, 0.40, 0.20, 0.20),
    Intent.GENERAL: RerankWeights(0.25, 0.25, 0.25, 0.25),
}
# without vectors the similarity share moves to keyword and graph
RERANK_NO_EMBEDDING: dict[Intent, RerankWeights] = {
    Intent.WHY: RerankWeights(0.20, 0.10, 0.0, 0.70),
    Intent.WHEN: RerankWeights(0.25, 0.15, 0.0, 0.60),
    Intent.ENTITY: RerankWeights(0.30, 0.50, 0.0, 0.20),
    Intent.GENERAL: RerankWeights(0.35, 0.35, 0.0, 0.30),
}


def confidence_label(score: float) -> str:
    low, mid = CONFIDENCE_CUTS
    return "low" if score < low else "medium" if score < mid else "high"


def scored_as_shown(score: float, places: int) -> dict[str, Any]:
    """A result's score rounded as printed, and the label of that number: labelled before rounding, a 0.59996 shown
    as 0.6 was "medium" beside a "high" 0.6."""
    shown = round(score, places)
    return {"score": shown, "confidence": confidence_label(shown)}
