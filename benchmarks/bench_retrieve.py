"""`retrieve` latency over a generated vault. Prints ONE JSON document on stdout.

    .venv/bin/python benchmarks/bench_retrieve.py                      # 2,000 notes, provider none, 40 prompts
    .venv/bin/python benchmarks/bench_retrieve.py --notes 500 --provider hash --queries 20
    .venv/bin/python benchmarks/bench_retrieve.py --as-of    # also replays after kills and forgets made since

The vault (fictional notes with wikilinks, headings, tasks, dates and status bullets) is generated once with a fixed
seed and ingested with part A's `ingest_vault` (no embeddings during ingest); when ingestion is not installed the
store is built from the same notes with memories and edges written directly. Each prompt is timed in-process
(`build_context_pack`, default budget 2500 chars / 8 items) after one warm-up call, which is reported on its own (the
first query after an ingest builds the recall graph); medians are reported, never asserted.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from mnemon.app.config import load_config  # noqa: E402
from mnemon.app.context import build_context_pack  # noqa: E402
from mnemon.app.memory import Mnemon  # noqa: E402

TOPICS = ["supplier", "invoice", "lease", "school", "move", "tax", "garden", "launch", "visa", "insurance", "dentist",
          "contract", "budget", "renovation", "travel", "payroll", "audit", "website", "hiring", "warehouse"]
VERBS = ["Waiting for", "Need to confirm", "Follow up on", "Paid", "Deadline for", "Resolved", "Call about",
         "Review", "Send", "Blocked by"]
FOLDERS = ["Projects", "People", "Finance", "Events", "Archive", "Daily"]


def generate_vault(root: Path, notes: int, seed: int = 7) -> int:
    rng = random.Random(seed)
    titles = [f"{rng.choice(TOPICS).title()} {i}" for i in range(notes)]
    total = 0
    for i, title in enumerate(titles):
        folder = root / FOLDERS[i % len(FOLDERS)]
        folder.mkdir(parents=True, exist_ok=True)
        lines = [f"# {title}", ""]
        for h in range(3):
            lines += [f"## Section {h} of {title}", ""]
            for _ in range(rng.randint(4, 9)):
                topic = rng.choice(TOPICS)
                day = f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
                kind = rng.random()
                if kind < 0.25:
                    lines.append(f"- [{' ' if rng.random() < 0.6 else 'x'}] {rng.choice(VERBS)} the {topic} paperwork by {day}")
                else:
                    lines.append(f"- {rng.choice(VERBS)} {topic} details with [[{rng.choice(titles)}]] on {day}")
            lines.append("")
            lines.append(f"Notes about {rng.choice(TOPICS)} and {rng.choice(TOPICS)} for the {title} work. " * 3)
            lines.append("")
        text = "\n".join(lines)
        (folder / f"note-{i:05d}.md").write_text(text, encoding="utf-8")
        total += len(text.encode("utf-8"))
    return total


def _time_replays(mem: Mnemon, prompts: list[str]) -> dict[str, Any]:
    """Packs replayed at an instant before decisions that change them: the edges the packs hold killed and some of
    their memories forgotten, then each prompt timed with `as_of` (the replay reads those decisions' history)."""
    time.sleep(0.01)  # the decisions below must come strictly after the instant
    as_of = mem.rt.now_iso()
    time.sleep(0.01)
    packed = sorted({str(item["id"]) for prompt in prompts for item in build_context_pack(mem.rt, prompt)["items"]
                     if item.get("item_type") == "memory"})
    # the edges around the packed memories are the ones a pack weighs (and a replay must read the history of)
    edges = sorted({int(e.id or 0) for e in mem.rt.store.edges_of(packed, statuses=("active", "candidate"),
                                                                 direction="both") if e.id})[:200]
    memories = packed[::3][:50]
    for edge_id in edges:
        mem.kill_edge(edge_id, reason="bench")
    for node_id in memories:
        mem.forget(node_id)
    timings = []
    for prompt in prompts:
        t = time.perf_counter()
        build_context_pack(mem.rt, prompt, as_of=as_of)
        timings.append((time.perf_counter() - t) * 1000)
    timings.sort()
    return {"edges_killed_since": len(edges), "memories_forgotten_since": len(memories),
            "retrieve_ms": {"p50": round(statistics.median(timings), 2),
                            "p95": round(timings[int(0.95 * (len(timings) - 1))], 2)}}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--notes", type=int, default=2000)
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("--provider", default="none", help="embedding provider for retrieval (none, hash, local)")
    ap.add_argument("--as-of", action="store_true",
                    help="also time replays (`retrieve --as-of T`, T = just after the ingest) after 200 edges around the "
                         "packed memories were killed and up to 50 of those memories forgotten")
    args = ap.parse_args()
    if importlib.util.find_spec("mnemon.app.vault.ingest") is None:
        print(json.dumps({"ok": False, "error": "vault ingestion (mnemon.app.vault.ingest) is not installed"}))
        return 1
    from mnemon.app.vault.ingest import ingest_vault

    with tempfile.TemporaryDirectory() as tmp:
        vault = Path(tmp) / "vault"
        size = generate_vault(vault, args.notes)
        env = dict(os.environ, MNEMON_HOME=str(Path(tmp) / "home"), MNEMON_EMBED_PROVIDER=args.provider)
        mem = Mnemon.open(load_config(env))
        t0 = time.perf_counter()
        stats = ingest_vault(mem.rt, vault, embed=args.provider != "none")
        ingest_s = time.perf_counter() - t0
        rng = random.Random(11)
        prompts = [f"what needs follow up for the {rng.choice(TOPICS)} {rng.choice(TOPICS)}?" for _ in range(args.queries)]
        t0 = time.perf_counter()
        build_context_pack(mem.rt, prompts[0])  # warm-up: the recall graph's first build, caches, vector matrix
        first_ms = (time.perf_counter() - t0) * 1000
        timings: list[float] = []
        items: list[int] = []
        for prompt in prompts:
            t = time.perf_counter()
            pack = build_context_pack(mem.rt, prompt)
            timings.append((time.perf_counter() - t) * 1000)
            items.append(len(pack["items"]))
        replay = _time_replays(mem, prompts) if args.as_of else None
        db = Path(mem.rt.store.path)
        db_bytes = sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))
        mem.close()
    timings.sort()
    out: dict[str, Any] = {
        "notes": args.notes, "vault_bytes": size, "provider": args.provider, "ingest_s": round(ingest_s, 3),
        "ingest": {k: v for k, v in stats.items() if isinstance(v, (int, float, str))},
        "db_bytes": db_bytes, "queries": len(timings),
        "retrieve_ms": {"p50": round(statistics.median(timings), 2),
                        "p95": round(timings[int(0.95 * (len(timings) - 1))], 2), "max": round(timings[-1], 2)},
        "items_per_pack_mean": round(statistics.mean(items), 2), "target_p50_ms": 30,
        # the first pack after the ingest builds the recall graph (saved beside the database for later processes)
        "first_retrieve_after_ingest_ms": round(first_ms, 1),
    }
    if replay is not None:
        out["as_of"] = replay
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
