"""Does the approximate index keep the exact scan's answers? Prints ONE JSON document on stdout.

    .venv/bin/python benchmarks/bench_ann.py [--store .bench/store_v3_local_100000.db] [--queries 300]

Two sets of vectors, each indexed exactly as a store's background build does (`vector_ann.build`: usearch HNSW,
f16, inner product, connectivity 16, expansion 128/128):
- **real e5 embeddings** of LoCoMo's turns and questions, from the LoCoMo benchmark's embedding cache under
  `.bench/cache/` (built by `mnemon bench locomo` from ../shared/data; skipped when absent);
- **a store's saved matrix** (default: the 100k write-benchmark store, e5 vectors mixed from real embeddings).
Queries are held-out rows (each searched with itself excluded) — the question a `remember` asks about a new text.
Per set: recall@k of `VectorIndex.search` against the exact scan for k = 3 (semantic edges), 8 (what `remember`
asks for), 20; agreement of the semantic edges (calibrated cosine ≥ 0.80, top 3) and the review candidates
(calibrated cosine in [0.40, 0.80), top 5); the search's p50 latency both ways.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402

from mnemon.ports import vector_ann, vector_file  # noqa: E402
from mnemon.ports.embed.local import E5Provider  # noqa: E402

E5_BASELINE = float(E5Provider.cosine_baseline)


def calibrate(c: np.ndarray) -> np.ndarray:
    return np.clip((c - E5_BASELINE) / (1.0 - E5_BASELINE), 0.0, 1.0) if E5_BASELINE > 0 else c


class _Matrix:
    """The pieces of `VectorIndex` the comparison needs, over a plain matrix saved as a store would save it."""

    def __init__(self, mat: np.ndarray, work: Path) -> None:
        self.mat = np.ascontiguousarray(mat, dtype=np.float32)
        self.path = str(work / "m.db-vectors")
        token = vector_file.save(self.path, "bench", "s1", [f"r{k}" for k in range(len(mat))], self.mat)
        assert token is not None
        t = time.perf_counter()
        # any size is indexed here: the question is quality, not when to build
        self.build = vector_ann.build(self.path, threads=2, min_rows=1)
        self.build_s = time.perf_counter() - t
        view = vector_ann.open_view(self.path, "bench", token, self.mat.shape[1])
        assert view is not None
        self.view = view

    def exact(self, q: np.ndarray, k: int, skip: int) -> tuple[list[int], float]:
        t = time.perf_counter()
        sims = self.mat @ q
        sims[skip] = -np.inf
        top = np.argpartition(-sims, k)[:k]
        order = sorted(top.tolist(), key=lambda i: (-sims[i], i))
        return order, time.perf_counter() - t

    def approximate(self, q: np.ndarray, k: int, skip: int) -> tuple[list[int], float]:
        """What `VectorIndex._approximate_top` does: candidates from the index, re-scored exactly."""
        t = time.perf_counter()
        keys = [x for x in self.view.nearest(q, k + 1 + 16).tolist() if x != skip]
        sims = self.mat[keys] @ q
        order = sorted(range(len(keys)), key=lambda i: (-sims[i], keys[i]))[:k]
        return [keys[i] for i in order], time.perf_counter() - t


def compare(name: str, mat: np.ndarray, queries: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    picks = rng.choice(len(mat), size=min(queries, len(mat)), replace=False)
    with tempfile.TemporaryDirectory() as tmp:
        m = _Matrix(mat, Path(tmp))
        recall = {3: [], 8: [], 20: []}
        edges_same = edges_total = cands_same = cands_total = 0
        t_exact: list[float] = []
        t_ann: list[float] = []
        for qi in picks.tolist():
            q = m.mat[qi]
            for k in recall:
                ex, te = m.exact(q, k, qi)
                ap, ta = m.approximate(q, k, qi)
                recall[k].append(len(set(ex) & set(ap)) / k)
                if k == 8:
                    t_exact.append(te)
                    t_ann.append(ta)
                    cex, cap = calibrate(m.mat[ex] @ q), calibrate(m.mat[ap] @ q)
                    e_ex = {i for i, c in zip(ex[:3], cex[:3]) if c >= 0.80}
                    e_ap = {i for i, c in zip(ap[:3], cap[:3]) if c >= 0.80}
                    edges_total += len(e_ex)
                    edges_same += len(e_ex & e_ap)
                    c_ex = [i for i, c in zip(ex, cex) if 0.40 <= c < 0.80][:5]
                    c_ap = [i for i, c in zip(ap, cap) if 0.40 <= c < 0.80][:5]
                    cands_total += len(c_ex)
                    cands_same += len(set(c_ex) & set(c_ap))
        return {"set": name, "rows": int(len(mat)), "dim": int(mat.shape[1]), "queries": int(len(picks)),
                "build_s": round(m.build_s, 2), "index_bytes": m.build.get("bytes"),
                "recall_at": {str(k): round(statistics.mean(v), 4) for k, v in recall.items()},
                "semantic_edges_kept": f"{edges_same}/{edges_total}",
                "review_candidates_kept": f"{cands_same}/{cands_total}",
                "exact_p50_ms": round(statistics.median(t_exact) * 1000, 3),
                "approximate_p50_ms": round(statistics.median(t_ann) * 1000, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--store", default=str(ROOT / ".bench" / "store_v3_local_100000.db"))
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--cache", default=str(ROOT / ".bench" / "cache"))
    args = ap.parse_args()
    out: dict[str, Any] = {"benchmark": "ann", "e5_cosine_baseline": E5_BASELINE, "sets": []}
    caches = sorted(Path(args.cache).glob("*.npz"))
    if caches:
        with np.load(caches[0]) as z:
            real = np.stack([z[k] for k in z.files]).astype(np.float32)
        out["sets"].append(compare("LoCoMo turns and questions, real e5", real, args.queries, 1))
    else:
        out["skipped"] = "no LoCoMo embedding cache under .bench/cache (run `mnemon bench locomo` first)"
    store = Path(args.store)
    saved = Path(f"{store}-vectors")
    if store.exists():
        import sqlite3

        con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
        blob = b"".join(r[0] for r in con.execute("SELECT vec FROM vectors ORDER BY node_seq"))
        con.close()
        mat = np.frombuffer(blob, dtype="<f4").reshape(-1, 384)
        out["sets"].append(compare(f"{store.name} (e5 mixes)", mat, args.queries, 2))
    elif saved.exists():
        out["skipped_store"] = str(store)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
