"""Retrieval metrics with the definitions of the shared reference scorer (eval/score.py): binary relevance,
duplicates collapsed to their first position, a missing query counts as a miss, session level maps each turn id to
`id.rsplit(":", 1)[0]`."""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

KS = (1, 5, 10, 20)


def dedup(seq: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    return [x for x in seq if not (x in seen or seen.add(x))]  # type: ignore[func-returns-value]


def per_query(ranked: Sequence[str], gold: set[str], ks: Sequence[int] = KS) -> dict[str, float]:
    hits = [i for i, r in enumerate(ranked) if r in gold]
    m: dict[str, float] = {}
    for k in ks:
        n = sum(1 for i in hits if i < k)
        m[f"recall_any@{k}"] = 1.0 if n else 0.0
        m[f"recall_frac@{k}"] = n / len(gold)
        m[f"recall_all@{k}"] = 1.0 if n == len(gold) else 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i in hits if i < 10)
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(len(gold), 10)))
    m["ndcg@10"] = dcg / idcg if idcg else 0.0
    m["mrr"] = 1.0 / (hits[0] + 1) if hits else 0.0
    return m


def _aggregate(rows: list[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {"n": 0}
    out: dict[str, float] = {"n": len(rows)}
    for k in rows[0]:
        out[k] = round(sum(r[k] for r in rows) / len(rows), 4)
    return out


def score_run(queries: Iterable[Mapping[str, Any]], run: Mapping[str, Sequence[str]], *, level: str = "turn",
              restrict_to_run: bool = False) -> dict[str, Any]:
    rows: list[dict[str, float]] = []
    by_cat: dict[str, list[dict[str, float]]] = defaultdict(list)
    missing = 0
    for q in queries:
        # data that gives no session labels is scored at turn level only (the reference scorer stops on it)
        gold = q.get("gold_session_ids") if level == "session" else q.get("gold_ids")
        if not gold or q.get("skip"):
            continue
        ranked = run.get(q["id"])
        if ranked is None:
            if restrict_to_run:
                continue
            missing += 1
            ranked = []
        if level == "session":
            ranked = [r.rsplit(":", 1)[0] for r in ranked]
        m = per_query(dedup(ranked), set(gold))
        rows.append(m)
        by_cat[q.get("category") or "unknown"].append(m)
    return {"level": level, "overall": _aggregate(rows),
            "by_category": {c: _aggregate(r) for c, r in sorted(by_cat.items())}, "missing_in_run": missing}


def headline(result: dict[str, Any]) -> dict[str, Any]:
    """The numbers the issue asks for: recall_any@1/5/10, recall_frac@5/10, NDCG@10, MRR."""
    keys = ("n", "recall_any@1", "recall_any@5", "recall_any@10", "recall_frac@5", "recall_frac@10", "ndcg@10", "mrr")
    return {"overall": {k: result["overall"].get(k) for k in keys},
            "by_category": {c: {k: v.get(k) for k in keys} for c, v in result["by_category"].items()}}
