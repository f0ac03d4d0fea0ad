"""Write benchmark for `remember` and bulk `import`. Prints ONE JSON document on stdout.

    .venv/bin/python benchmarks/bench_write.py                         # 1k, 10k, 100k × providers none, local
    .venv/bin/python benchmarks/bench_write.py --sizes 1000,10000 --providers none --samples 20

Measured per (store size, provider):
- `remember` latency p50/p95 in-process, excluding the embedding call (vectors are computed beforehand and handed in
  through the runtime), after one warm-up call (reported separately: it loads the vector matrix);
- `remember` latency p50/p95 as a CLI process (`python -m mnemon remember …`), embedding included;
- database bytes per memory.
Plus bulk `import` throughput (memories/s, provider none, into an empty store).

Stores are built once through the bulk import path (provider none) or `write_memory` in large transactions (provider
local, with vectors derived from a small pool of real e5 embeddings so cosine distributions look like e5's), and
cached under `.bench/` (gitignored). Every measurement runs on a copy, so the cache never drifts.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import numpy as np  # noqa: E402

from mnemon.app.config import load_config  # noqa: E402
from mnemon.app.memory import Mnemon  # noqa: E402
from mnemon.app.remember import write_memory  # noqa: E402
from mnemon.core.validation import validate_memory  # noqa: E402
from mnemon.interfaces.daemon import client  # noqa: E402

GEN_VERSION = "v3"  # bump when the generator or the write rules change, so cached stores are rebuilt
SOURCES = ("user", "agent", "claude-code", "cursor", "import")
CATEGORIES = ("preference", "decision", "fact", "insight", "context", "general")

# ── synthetic memories: varied English, 8–40 words, entities, causal cues, 5 sources, a year of timestamps ──
PEOPLE = ["Alice", "Bob", "Priya", "Chen Wei", "Marta", "Diego", "Yuki", "Omar", "Lena", "Sam"]
PROJECTS = ["Athena", "Falcon", "Orion", "Nimbus", "Atlas", "Hermes", "Kestrel", "Juniper"]
TECH = ["Redis", "PostgreSQL", "Kubernetes", "Docker", "Kafka", "SQLite", "React", "Terraform", "GraphQL", "AWS",
        "Python", "Rust", "Nginx", "Grafana", "Prometheus", "FastAPI", "MongoDB", "GitHub", "Qdrant", "Ollama"]
FILES = ["src/app/main.py", "config/settings.yaml", "deploy/helm/values.yaml", "README.md", "api/routes.ts",
         "docs/architecture.md", "scripts/migrate.sql"]
SERVICES = ["PaymentService", "AuthGateway", "SearchIndexer", "BillingWorker", "NotificationHub", "UserProfileApi"]
VERBS = ["moved", "migrated", "rewrote", "benchmarked", "deployed", "reviewed", "refactored", "monitored", "tuned",
         "documented", "split", "replaced", "upgraded", "rolled back", "load tested"]
OBJECTS = ["the session cache", "the nightly batch job", "the checkout flow", "the search ranking", "the login page",
           "the CI pipeline", "the staging cluster", "the metrics dashboard", "the onboarding emails",
           "the retry policy", "the rate limiter", "the data export", "the mobile release", "the schema migration"]
REASONS = ["latency was too high during peak traffic", "the old setup kept running out of memory",
           "customers reported slow page loads", "the bill doubled last quarter", "the team wanted fewer moving parts",
           "tests were flaky on every third run", "the vendor announced end of support",
           "we needed audit logs for compliance", "error rates spiked after the last release",
           "on-call got paged every night"]
CUES = ["because", "so that", "due to the fact that", "which led to", "as a result", "in order to avoid", "therefore"]
TAILS = ["next sprint", "before the holidays", "after the incident review", "with help from the platform team",
         "as discussed in the weekly sync", "pending a final review", "for the European region", "on Fridays only",
         "without downtime", "behind a feature flag"]
OPINIONS = ["prefers", "dislikes", "asked for", "suggested", "agreed on", "questioned", "pushed back on"]
FILLER = ["honestly", "for now", "at least in theory", "as far as we know", "again", "this time", "quietly",
          "for the second time", "after a long debate", "with some reluctance"]


def synth_memory(rng: random.Random, i: int, start: datetime) -> dict[str, Any]:
    kind = rng.random()
    who, proj, tech = rng.choice(PEOPLE), rng.choice(PROJECTS), rng.choice(TECH)
    if kind < 0.3:
        s = f"{who} {rng.choice(VERBS)} {rng.choice(OBJECTS)} to {tech} {rng.choice(CUES)} {rng.choice(REASONS)}"
    elif kind < 0.5:
        s = f"In {proj} we {rng.choice(VERBS)} {rng.choice(SERVICES)} {rng.choice(TAILS)}"
    elif kind < 0.65:
        s = f"{who} {rng.choice(OPINIONS)} using {tech} for {rng.choice(OBJECTS)} in {proj}"
    elif kind < 0.8:
        s = f"The file {rng.choice(FILES)} controls {rng.choice(OBJECTS)} and {who} owns it {rng.choice(TAILS)}"
    else:
        s = (f"{rng.choice(REASONS).capitalize()}, so {who} {rng.choice(VERBS)} {rng.choice(OBJECTS)} "
             f"with {tech} and {rng.choice(TECH)}")
    words = s.split()
    while len(words) < 8 or rng.random() < 0.35:
        words += rng.choice(FILLER + TAILS).split()
    words = words[: rng.randint(max(8, min(len(words), 12)), 40)] if len(words) > 40 else words
    text = " ".join(words) + f" (ticket {proj[:3].upper()}-{i})"  # keeps every memory distinct
    created = start + timedelta(seconds=rng.randint(0, 365 * 86400))
    return {"content": text, "category": rng.choice(CATEGORIES), "importance": rng.choice([1, 2, 3, 3, 3, 4, 5]),
            "source": rng.choice(SOURCES), "created_at": created.isoformat().replace("+00:00", "Z"),
            "tags": rng.sample(["ops", "infra", "team", "product", "perf", "security"], rng.randint(0, 2))}


def synth_batch(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    return [synth_memory(rng, seed * 10_000_000 + i, start) for i in range(n)]


# ── helpers ──────────────────────────────────────────────────────────────────
def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return round(s[min(len(s) - 1, int(round(q * (len(s) - 1))))], 2)


def open_mem(db: Path, provider: str, max_insights: int = 0, **env_extra: str) -> Mnemon:
    env = {"HOME": str(db.parent), "MNEMON_EMBED_PROVIDER": provider, "MNEMON_MAX_INSIGHTS": str(max_insights),
           **env_extra}
    return Mnemon.open(load_config(env, db=str(db)))


def db_bytes(db: Path) -> int:
    return sum(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists())


def checkpoint(db: Path) -> None:
    import sqlite3

    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()


class VectorPool:
    """e5 vectors for synthetic text without embedding 100k sentences: mixes of a few hundred real embeddings."""

    def __init__(self, provider: Any, cache: Path, size: int = 256) -> None:
        path = cache / f"e5_pool_{GEN_VERSION}_{size}.npy"
        if path.exists():
            self.pool = np.load(path)
        else:
            texts = [m["content"] for m in synth_batch(size, seed=999)]
            self.pool = np.asarray(provider.embed_documents(texts), dtype=np.float32)
            cache.mkdir(parents=True, exist_ok=True)
            np.save(path, self.pool)

    def vector(self, rng: np.random.Generator) -> np.ndarray:
        a, b = rng.integers(0, len(self.pool), 2)
        v = self.pool[a] + 0.35 * self.pool[b] + rng.normal(0, 0.01, self.pool.shape[1]).astype(np.float32)
        return (v / np.linalg.norm(v)).astype(np.float32)


def build_store(size: int, provider: str, cache: Path, pool: VectorPool | None, log: Any) -> Path:
    db = cache / f"store_{GEN_VERSION}_{provider}_{size}.db"
    if db.exists():
        return db
    tmp = db.with_suffix(".building")
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        p.unlink(missing_ok=True)
    t0 = time.perf_counter()
    items = synth_batch(size, seed=1)
    m = open_mem(tmp, "none" if provider == "none" else "local")
    rng = np.random.default_rng(1)
    chunk = 5000
    try:
        for start in range(0, size, chunk):
            part = items[start : start + chunk]
            if provider == "none":
                m.import_json({"schema_version": "1", "insights": part})
            else:
                assert pool is not None
                with m.rt.store.transaction():
                    for it in part:
                        inp = validate_memory(it["content"], category=it["category"], importance=it["importance"],
                                              tags=it["tags"], source=it["source"], created_at=it["created_at"])
                        write_memory(m.rt, inp, pool.vector(rng), prune=False, origin="import")
            log(f"  built {min(size, start + chunk)}/{size} ({provider}) in {time.perf_counter() - t0:.0f} s")
    finally:
        m.close()
    checkpoint(tmp)
    tmp.rename(db)
    for suffix in ("-vectors", "-vectors.ids", "-vectors-ann", "-vectors-ann.json", "-graph"):  # the saved caches
        if Path(f"{tmp}{suffix}").exists():
            Path(f"{tmp}{suffix}").rename(f"{db}{suffix}")
    return db


def working_copy(db: Path, work: Path) -> Path:
    dst = work / "work.db"
    for p in (dst, *(Path(f"{dst}{suffix}") for suffix in ("-wal", "-shm", "-vectors", "-vectors.ids", "-vectors-ann",
                                                          "-vectors-ann.json", "-graph"))):
        p.unlink(missing_ok=True)
    shutil.copyfile(db, dst)
    return dst


def prepare_vectors(db: Path) -> dict[str, Any]:
    """What a store in use has beside it: the vector matrix saved by the last process and, for a large store, the
    approximate index a background process builds over it (built here in the foreground, on two threads, and timed:
    in use it is built niced on one thread while commands go on with the exact scan)."""
    from mnemon.ports import vector_ann

    m = open_mem(db, "local", MNEMON_ANN="false")  # saving the matrix would start the background build: here instead
    try:
        len(m.rt.index)
    finally:
        m.close()
    path = f"{db}-vectors"
    t = time.perf_counter()
    built = vector_ann.build(path, threads=2) if vector_ann.available() else {"built": False, "reason": "no usearch"}
    return {**built, "seconds": round(time.perf_counter() - t, 2)}


def bench_in_process(db: Path, provider: str, samples: list[dict[str, Any]], pool: VectorPool | None
                     ) -> dict[str, Any]:
    m = open_mem(db, provider if provider == "none" else "local", max_insights=1000)
    # precomputed vectors: the embedding call is excluded, everything after it is measured
    rng = np.random.default_rng(7)
    vectors = {s["content"]: (pool.vector(rng)[None, :] if pool is not None else None) for s in samples}
    m.rt.embed_documents = lambda texts: vectors[texts[0]]  # type: ignore[method-assign]
    # the production cap (1000) with a store far over it would prune 10 per write; measure the write itself
    m.rt.max_insights = 0
    times: list[float] = []
    cpu: list[float] = []
    first = 0.0
    try:
        for k, s in enumerate(samples):
            t, c = time.perf_counter(), time.process_time()
            out = m.remember(s["content"], category=s["category"], importance=s["importance"], source=s["source"])
            dt = (time.perf_counter() - t) * 1000
            assert out["action"] == "added"
            if k == 0:
                first = dt
            else:
                times.append(dt)
                cpu.append((time.process_time() - c) * 1000)
    finally:
        m.close()
    # a fresh process's first writes also warm SQLite's page cache, the keyword document counts and the index's
    # mapped pages: the second half is what a resident process (the MCP server) sees
    return {"p50_ms": pct(times, 0.5), "p95_ms": pct(times, 0.95), "mean_ms": round(statistics.mean(times), 2),
            "p50_second_half_ms": pct(times[len(times) // 2 :], 0.5),
            "cpu_p50_ms": pct(cpu, 0.5), "first_call_ms": round(first, 1), "n": len(times)}


def bench_cli(db: Path, provider: str, samples: list[dict[str, Any]], *, daemon: bool = False) -> dict[str, Any]:
    """`mnemon remember` as a new process per call: alone (MNEMON_DAEMON=off), or handing the command to the
    resident process (`interfaces/daemon`), which the first, unmeasured call starts as it would for a user."""
    # as installed: the package's bytecode exists (pip compiles it; quickstart.sh does for the editable install)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "src")], check=True, capture_output=True)
    env = dict(os.environ)
    env.update({"MNEMON_EMBED_PROVIDER": "none" if provider == "none" else "local", "MNEMON_MAX_INSIGHTS": "0",
                "PYTHONPATH": str(ROOT / "src"), "HOME": str(db.parent), "MNEMON_DAEMON": "on" if daemon else "off",
                "MNEMON_DAEMON_DIR": tempfile.mkdtemp(prefix="mnb-", dir="/tmp")})

    def remember(s: dict[str, Any]) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(db), "remember", s["content"],
                               "--source", s["source"], "--cat", s["category"]],
                              capture_output=True, text=True, env=env, timeout=120)
        if proc.returncode != 0 or json.loads(proc.stdout).get("action") != "added":
            raise RuntimeError(f"CLI remember failed: {proc.stdout[:300]} {proc.stderr[:300]}")
        return proc

    served_before = 0
    if daemon:
        remember(samples[0])  # runs alone and leaves the resident process behind
        samples = samples[1:]
        deadline = time.monotonic() + 60
        while (status := client.ask(env, {"op": "status"})) is None and time.monotonic() < deadline:
            time.sleep(0.05)
        served_before = status["served"] if status else 0
    times: list[float] = []
    cpu: list[float] = []  # the child's own CPU time: what wall time would be on an idle machine, near enough
    try:
        for s in samples:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            remember(s)
            times.append((time.perf_counter() - t) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
    finally:
        stopped = client.ask(env, {"op": "stop"}) if daemon else None
        shutil.rmtree(env["MNEMON_DAEMON_DIR"], ignore_errors=True)
    out = {"p50_ms": pct(times, 0.5), "p95_ms": pct(times, 0.95), "mean_ms": round(statistics.mean(times), 2),
           "cpu_p50_ms": pct(cpu, 0.5), "load_avg_1m": round(os.getloadavg()[0], 2), "n": len(times)}
    if daemon:  # every measured call must have been answered by the resident process, or the row means nothing
        out["served_by_resident_process"] = (stopped or {}).get("served", 0) - served_before
    return out


def _cpu_with_children() -> float:
    """CPU seconds of this process and its finished children: a large import runs its rules in a child."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def bench_import(n: int, work: Path) -> dict[str, Any]:
    db = work / "import.db"
    for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        p.unlink(missing_ok=True)
    items = synth_batch(n, seed=42)
    m = open_mem(db, "none")
    try:
        t, c = time.perf_counter(), _cpu_with_children()
        out = m.import_json(json.dumps({"schema_version": "1", "insights": items}))
        dt, cpu = time.perf_counter() - t, _cpu_with_children() - c
    finally:
        m.close()
    return {"memories": n, "imported": out["imported"], "seconds": round(dt, 2),
            "memories_per_s": round(out["imported"] / dt, 1), "memories_per_cpu_s": round(out["imported"] / cpu, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--providers", default="none,local")
    ap.add_argument("--samples", type=int, default=40, help="in-process remembers per cell (first is warm-up)")
    ap.add_argument("--cli-samples", type=int, default=12)
    ap.add_argument("--import-n", type=int, default=10000)
    ap.add_argument("--cache", default=str(ROOT / ".bench"))
    ap.add_argument("--no-cli", action="store_true")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    providers = [p.strip() for p in args.providers.split(",") if p.strip()]
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    pool = None
    if "local" in providers:
        from mnemon.ports.embed import EmbedSettings, get_provider

        pool = VectorPool(get_provider("local", EmbedSettings()), cache)
    result: dict[str, Any] = {"benchmark": "write", "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
                              "targets": {"cli_remember_10k_ms": 150, "in_process_remember_100k_ms": 10,
                                          "import_per_s_none": 3000}, "remember": []}
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        work = Path(tmp)
        for provider in providers:
            for size in sizes:
                log(f"store {size} × {provider}")
                db = build_store(size, provider, cache, pool if provider != "none" else None, log)
                cell: dict[str, Any] = {"provider": provider, "stored": size,
                                        "db_bytes_per_memory": round(db_bytes(db) / size, 1)}
                samples = synth_batch(args.samples + args.cli_samples, seed=size + 7)
                copy = working_copy(db, work)
                if provider != "none":
                    cell["ann_build"] = prepare_vectors(copy)
                cell["in_process"] = bench_in_process(copy, provider, samples[: args.samples],
                                                      pool if provider != "none" else None)
                if not args.no_cli:
                    cell["cli"] = bench_cli(copy, provider, samples[args.samples :])
                    cell["cli_resident"] = bench_cli(copy, provider, synth_batch(args.cli_samples + 1, seed=size + 8),
                                                     daemon=True)
                result["remember"].append(cell)
                log(json.dumps(cell))
        log(f"import {args.import_n} (none)")
        result["import"] = bench_import(args.import_n, work)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
