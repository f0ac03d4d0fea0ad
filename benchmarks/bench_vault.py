"""Vault ingestion benchmark: a generated vault of 2,000 notes (~8 MB) with wikilinks, headings, tasks, dates, emails
and status bullets. Prints one JSON document.

Measures: cold full ingest without embeddings (target ≤ 1.5 s; Mneme: 11.6 s) with its CPU split between the writing
process and the parsing workers, re-ingest after changing one note (≤ 100 ms; `--reingest-runs` edits of different
notes after each cold ingest), re-ingest with nothing changed, the proactive pass (`candidates --limit 5`, in process), the
store's counts behind `status` (`status_counts_ms`, warm), database size
(≤ 10 MB; Mneme: 62 MB), the vector checks of a store with a vector per memory (`vector_coverage`, which `status`
runs, and `load_vectors`; the vectors from the `hash` provider, which makes them in moments), and the same cold
ingest with the local embedder on (when it can run here). Medians over `--repeat` runs.

    PYTHONPATH=src python benchmarks/bench_vault.py [--notes 2000] [--repeat 3] [--reingest-runs 12] [--no-embed]
                                                    [--no-vectors]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from mnemon.app.config import load_config  # noqa: E402
from mnemon.app.memory import Mnemon  # noqa: E402
from mnemon.app.thoughts import candidates  # noqa: E402
from mnemon.app.vault.ingest import ingest_vault  # noqa: E402

FOLDERS = ("Projects", "People", "Meetings", "Decisions", "Areas", "Journal")
WORDS = ("sensor", "battery", "contract", "gateway", "pilot", "budget", "harbour", "firmware", "supplier", "review",
         "schedule", "network", "survey", "report", "invoice", "design", "station", "tide", "weather", "badge",
         "meeting", "draft", "plan", "install", "field", "crew", "vendor", "order", "delivery", "quota", "update")
STATUS = ("waiting on the vendor reply", "blocked by missing approval", "deadline is close", "paid in full",
          "resolved after the call", "needs a second review", "overdue by a week", "confirmed with the team",
          "correction: the count was wrong", "follow up with finance")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def make_vault(root: Path, notes: int, seed: int = 7) -> int:
    rng = random.Random(seed)
    titles = [f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} {i}" for i in range(notes)]
    total = 0
    for i, title in enumerate(titles):
        folder = FOLDERS[i % len(FOLDERS)]
        lines = ["---", f"title: {title}", f"tags: [{rng.choice(WORDS)}, bench]", "---", f"# {title}", ""]
        for section in range(5):
            lines += [f"## {rng.choice(WORDS).title()} {section}", ""]
            for _ in range(2):
                lines.append(_sentence(rng, rng.randint(12, 22)) + " " + _sentence(rng, rng.randint(8, 16)))
            lines.append("")
            for _ in range(rng.randint(2, 4)):
                link = titles[rng.randrange(notes)]
                lines.append(f"- {_sentence(rng, 6)[:-1]} {rng.choice(STATUS)}, see [[{link}]]")
            if rng.random() < 0.6:
                lines.append(f"- [ ] {rng.choice(STATUS).capitalize()} for {rng.choice(WORDS)}"
                             f" by {rng.randint(1, 28)} {rng.choice(MONTHS)} 2026")
            if rng.random() < 0.4:
                lines.append(f"- [x] {_sentence(rng, 5)}")
            lines.append(f"Due 2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}; owner"
                         f" {rng.choice(WORDS)}{i % 97}@example.org." if rng.random() < 0.5 else _sentence(rng, 12))
            lines.append("")
        path = root / folder / f"{title.lower().replace(' ', '-')}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = "\n".join(lines)
        path.write_text(text, encoding="utf-8")
        total += len(text.encode("utf-8"))
    return total


def _open(db: Path, provider: str) -> Mnemon:
    cfg = load_config({"MNEMON_HOME": str(db.parent), "MNEMON_EMBED_PROVIDER": provider, "HOME": str(db.parent)},
                      db=str(db))
    return Mnemon.open(cfg)


def _cpu_split() -> tuple[float, float]:
    """(CPU seconds of this process, of its finished children): the writer's share and the parsing workers'."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _cpu_s() -> float:
    """CPU seconds of this process and its finished children (the parsing workers): a steadier measure than wall
    time on a machine shared with other work."""
    return sum(_cpu_split())


def _size(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


def run(notes: int, repeat: int, embed: bool, vectors: bool = True, reingest_runs: int = 12) -> dict[str, object]:
    work = Path(tempfile.mkdtemp(prefix="mnemon-bench-vault-"))
    try:
        vault = work / "vault"
        vault_bytes = make_vault(vault, notes)
        cold: list[float] = []
        cold_cpu: list[float] = []
        writer_cpu: list[float] = []  # the main process: reading, link resolution and every write
        workers_cpu: list[float] = []  # the pool's parsing and planning
        one: list[float] = []
        none: list[float] = []
        proactive: list[float] = []  # `candidates --limit 5`: the proactive pass behind surface and thought
        counts: list[float] = []  # the store's counts `status` reports (memories by category and kind, deleted, …)
        size = 0
        stats: dict[str, object] = {}
        for r in range(repeat):
            db = work / f"cold{r}" / "mnemon.db"
            mem = _open(db, "none")
            t, (own, children) = time.perf_counter(), _cpu_split()
            out = ingest_vault(mem.rt, vault)
            cold.append(time.perf_counter() - t)
            own_after, children_after = _cpu_split()
            writer_cpu.append(own_after - own)
            workers_cpu.append(children_after - children)
            cold_cpu.append(writer_cpu[-1] + workers_cpu[-1])
            stats = {k: out[k] for k in ("notes_read", "nodes", "edges", "observations", "edges_added")}
            t = time.perf_counter()
            ingest_vault(mem.rt, vault)
            none.append(time.perf_counter() - t)
            files = sorted(vault.rglob("*.md"))
            for k in range(reingest_runs):  # a different note each time, across the vault
                target = files[(r * 7 + k * 37) % len(files)]
                target.write_text(target.read_text(encoding="utf-8") + f"\n- [ ] Follow up on change {r}.{k}\n",
                                  encoding="utf-8")
                t = time.perf_counter()
                changed = ingest_vault(mem.rt, vault)
                one.append(time.perf_counter() - t)
                assert changed["notes_read"] == 1, changed
            for _ in range(3):
                t = time.perf_counter()
                candidates(mem.rt, limit=5)
                proactive.append(time.perf_counter() - t)
                t = time.perf_counter()
                mem.rt.store.stats()
                counts.append(time.perf_counter() - t)
            mem.rt.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            mem.close()
            size = _size(db)
        result: dict[str, object] = {
            "benchmark": "vault_ingest",
            "notes": notes,
            "vault_bytes": vault_bytes,
            "cpu_count": os.cpu_count(),
            "cold_ingest_s": {"median": round(statistics.median(cold), 3), "runs": [round(x, 3) for x in cold],
                              "target": 1.5, "mneme": 11.6},
            "cold_ingest_cpu_s": {"median": round(statistics.median(cold_cpu), 3),
                                  "runs": [round(x, 3) for x in cold_cpu],
                                  "writer_process_median": round(statistics.median(writer_cpu), 3),
                                  "parsing_workers_median": round(statistics.median(workers_cpu), 3)},
            "load_average_1m": round(os.getloadavg()[0], 2),
            "reingest_one_changed_ms": {"median": round(statistics.median(one) * 1000, 1),
                                        "min": round(min(one) * 1000, 1),
                                        "p90": round(sorted(one)[int(0.9 * (len(one) - 1))] * 1000, 1),
                                        "runs": len(one), "target": 100},
            "reingest_unchanged_ms": {"median": round(statistics.median(none) * 1000, 1)},
            "candidates_ms": {"median": round(statistics.median(proactive) * 1000, 1),
                              "runs": [round(x * 1000, 1) for x in proactive]},
            "status_counts_ms": {"median": round(statistics.median(counts) * 1000, 1),
                                 "runs": [round(x * 1000, 1) for x in counts]},
            "db_bytes": size,
            "db_mb": round(size / 1e6, 2),
            "db_target_mb": 10,
            "db_to_vault_ratio": round(size / vault_bytes, 2),
            "graph": stats,
        }
        if vectors:
            result["vector_checks"] = _vector_checks(work / "hash" / "mnemon.db", vault)
        if embed:
            db = work / "embed" / "mnemon.db"
            mem = _open(db, "local")
            t = time.perf_counter()
            out = ingest_vault(mem.rt, vault)
            elapsed = time.perf_counter() - t
            mem.rt.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            result["with_local_embedder"] = {"cold_ingest_s": round(elapsed, 2), "vectors": out["vectors"],
                                             "db_mb": round(_size(db) / 1e6, 2)}
            mem.close()
        return result
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _vector_checks(db: Path, vault: Path) -> dict[str, object]:
    """A store with a vector of every vault memory: how long its vector checks take (CPU ms, best and median of 7)."""
    mem = _open(db, "hash")
    t = time.perf_counter()
    out = ingest_vault(mem.rt, vault)
    ingest_s = time.perf_counter() - t
    store, provider = mem.rt.store, mem.rt.provider.identity()
    timings: dict[str, list[float]] = {"vector_coverage_ms": [], "load_vectors_ms": []}
    for _ in range(7):
        for name, call in (("vector_coverage_ms", store.vector_coverage), ("load_vectors_ms", store.load_vectors)):
            c = time.process_time()
            call(provider)
            timings[name].append((time.process_time() - c) * 1000)
    mem.close()
    return {"provider": "hash", "vectors": (out.get("vectors") or {}).get("embedded"), "cold_ingest_s": round(ingest_s, 2),
            **{k: {"best": round(min(v), 1), "median": round(statistics.median(v), 1)} for k, v in timings.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--reingest-runs", type=int, default=12,
                        help="one-note re-ingests after each cold ingest (each edits a different note)")
    parser.add_argument("--no-embed", action="store_true", help="skip the run with the local embedder")
    parser.add_argument("--no-vectors", action="store_true", help="skip the vector checks (a store with hash vectors)")
    args = parser.parse_args()
    if args.reingest_runs < 1:
        parser.error("--reingest-runs must be at least 1")
    print(json.dumps(run(args.notes, args.repeat, not args.no_embed, not args.no_vectors, args.reingest_runs),
                     indent=2))


if __name__ == "__main__":
    main()
