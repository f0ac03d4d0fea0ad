"""`gc` (suggest mode) benchmark. Prints ONE JSON document on stdout.

    .venv/bin/python benchmarks/bench_gc.py --sizes 10000,20000 --samples 3 [--profile]

Per store size: the wall time of `Mnemon.gc()` in-process, split into its parts (reading the memories, counting
their edges, writing the effective importance), on a copy of a store built as bench_write.py builds them (bulk
import, provider none, cached under `.bench/`). The first call recomputes values the build left behind; the calls
after it show what a repeated `gc` costs, when few values changed.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_write  # noqa: E402


def _timed_parts(store: Any) -> tuple[dict[str, float], list[Any]]:
    """Wrap the store methods gc spends its time in, to time each."""
    spent: dict[str, float] = {}
    undo = []
    for name in ("importance_rows", "get_nodes", "edge_counts", "set_effective_importance", "memory_ids"):
        original = getattr(store, name)

        def timed(*a: Any, _f: Any = original, _n: str = name, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return _f(*a, **k)
            finally:
                spent[_n] = spent.get(_n, 0.0) + time.perf_counter() - t0
        setattr(store, name, timed)
        undo.append(name)
    return spent, undo


def bench(size: int, samples: int, cache: Path, profile: bool) -> dict[str, Any]:
    db = bench_write.build_store(size, "none", cache, None, lambda msg: print(msg, file=sys.stderr))
    out: dict[str, Any] = {"size": size, "runs": []}
    with tempfile.TemporaryDirectory() as tmp:
        work = bench_write.working_copy(db, Path(tmp))
        for k in range(samples):
            m = bench_write.open_mem(work, "none")
            spent, _ = _timed_parts(m.rt.store)
            prof = cProfile.Profile() if profile and k == samples - 1 else None
            t0 = time.perf_counter()
            if prof:
                prof.enable()
            reply = m.gc()
            if prof:
                prof.disable()
            wall = time.perf_counter() - t0
            m.close()
            out["runs"].append({"wall_s": round(wall, 3), **{f"{n}_s": round(v, 3) for n, v in spent.items()},
                                "recomputed": reply["recomputed"]})
            if prof:
                text = io.StringIO()
                pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(25)
                print(text.getvalue(), file=sys.stderr)
    later = [r["wall_s"] for r in out["runs"][1:]] or [out["runs"][0]["wall_s"]]
    out["first_s"], out["repeat_median_s"] = out["runs"][0]["wall_s"], round(statistics.median(later), 3)
    return out


def main() -> None:
    if os.path.realpath(os.path.expanduser("~")) == "/root":
        sys.exit("refusing to run with HOME=/root: point HOME at a scratch folder")
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,20000")
    ap.add_argument("--samples", type=int, default=3)
    ap.add_argument("--cache", default=str(ROOT / ".bench"))
    ap.add_argument("--profile", action="store_true", help="cProfile the last run of each size (to stderr)")
    args = ap.parse_args()
    results = [bench(int(s), args.samples, Path(args.cache), args.profile) for s in args.sizes.split(",")]
    print(json.dumps({"benchmark": "gc", "results": results}, indent=1))


if __name__ == "__main__":
    main()
