"""Recall speed benchmark (issue 3). Prints ONE JSON document on stdout; progress goes to stderr.

    .venv/bin/python benchmarks/bench_recall.py                            # 10k and 100k
    .venv/bin/python benchmarks/bench_recall.py --sizes 10000,100000,1000000 --queries 60
    .venv/bin/python benchmarks/bench_recall.py --sizes 100000 --dump .bench/recall_results.json   # for identity checks

Measured per store size, each in a fresh subprocess so peak RSS belongs to that size alone:
- in-process `run_recall` p50/p95 over ≥ 50 varied queries after 3 warm-ups, the query embedding excluded
  (`query_vector` is handed in), `touch=False` so the cached store never drifts; also the p50 of the process's CPU
  time per recall (all its threads, BLAS included), steadier than wall time on a shared machine;
- the first (cold) call separately: it loads the vector matrix;
- peak RSS (`resource.getrusage`) of the measuring process;
- a digest of every result list (ids and scores), so a speed change that alters results is caught;
- CLI `mnemon --db X recall "…"` wall time p50 over 10 runs at 10k (provider `none`: the CLI would otherwise embed),
  and p50 of a recall right after a CLI `remember` (the saved recall graph is extended, not rebuilt);
- the recall graph (`ports/graph_index.py`): a full build from the store, a load of the saved snapshot and the
  size of its file.

Stores are synthetic: English sentences of 8-40 words about people, projects and tools (entities from a vocabulary of
~1,100 names, so an entity is not held by a tenth of the store), 5 sources, created_at spread over a year, 384-d random
unit vectors stamped with a benchmark-only provider identity, and the edge set the write path would have grown:
temporal backbone per source, ≤10 proximity pairs within 24 h, ≤5 entity links per entity. They are built once by a
bulk loader (`write_memory` costs ~2 ms a row) and cached under `.bench/` (gitignored).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from collections import deque
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# BENCH_SRC points at another checkout's src/ to measure a baseline against the same cached stores
sys.path.insert(0, os.environ.get("BENCH_SRC") or str(ROOT / "src"))

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

from mnemon.core.keywords import keyword_text  # noqa: E402
from mnemon.app.runtime import Runtime  # noqa: E402
from mnemon.core.model import content_hash  # noqa: E402
from mnemon.ports.embed.base import EmbeddingProvider  # noqa: E402
from mnemon.ports.embed.registry import register_provider  # noqa: E402
from mnemon.ports.store.sqlite import SQLiteStore  # noqa: E402
from mnemon.ports.vector_ann import AnnPolicy  # noqa: E402

GEN_VERSION = "r2"  # bump when the generator changes, so cached stores are rebuilt
DIM = 384
SOURCES = ("user", "agent", "claude-code", "cursor", "import")
CATEGORIES = ("preference", "decision", "fact", "insight", "context", "general")
TAG_POOL = ("ops", "infra", "team", "product", "perf", "security", "billing", "mobile")
TARGETS_MS = {"10000": {"p50": 5.0, "p95": 15.0}, "100000": {"p50": 15.0}, "1000000": {"p50": 60.0},
              "cli_recall_10k_p50": 150.0}

FIRST = ["Alice", "Bob", "Priya", "Chen", "Marta", "Diego", "Yuki", "Omar", "Lena", "Sam", "Fatima", "Igor", "Noor",
         "Tomas", "Aiko", "Kwame", "Sofia", "Ravi", "Elena", "Jonas", "Mei", "Hugo", "Zara", "Pavel", "Ines", "Kofi",
         "Greta", "Arjun", "Leila", "Mateo", "Hana", "Emil", "Amara", "Luca", "Nadia", "Oscar", "Rosa", "Tariq",
         "Vera", "Wen"]
LAST = ["Nakamura", "Okafor", "Schmidt", "Rossi", "Kowalski", "Haddad", "Larsen", "Moreau", "Silva", "Novak",
        "Tanaka", "Mensah", "Iyer", "Costa", "Weber", "Duarte", "Fischer", "Park", "Sato", "Byrne", "Varga",
        "Lindqvist", "Abebe", "Petrov", "Quinn"]
PEOPLE = [f"{f} {l}" for f in FIRST for l in LAST]  # 1,000 people
PROJECTS = [f"{a}{b}" for a in ("Athena", "Falcon", "Orion", "Nimbus", "Atlas", "Hermes", "Kestrel", "Juniper",
                                "Cobalt", "Sierra") for b in ("", "X", "Lite", "Edge", "Core", "Cloud")]  # 60
TECH = ["Redis", "PostgreSQL", "Kubernetes", "Docker", "Kafka", "SQLite", "React", "Terraform", "GraphQL", "AWS",
        "Python", "Rust", "Nginx", "Grafana", "Prometheus", "FastAPI", "MongoDB", "GitHub", "Qdrant", "Ollama",
        "Elasticsearch", "RabbitMQ", "Vault", "Consul", "Airflow", "Spark", "Snowflake", "Datadog", "Sentry", "Envoy"]
SERVICES = ["PaymentService", "AuthGateway", "SearchIndexer", "BillingWorker", "NotificationHub", "UserProfileApi",
            "LedgerSync", "MediaProxy", "QuotaKeeper", "ReportBuilder"]
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
CUES = ["because", "so that", "due to the fact that", "which led to", "as a result", "in order to avoid"]
TAILS = ["next sprint", "before the holidays", "after the incident review", "with help from the platform team",
         "as discussed in the weekly sync", "pending a final review", "for the European region", "on Fridays only",
         "without downtime", "behind a feature flag"]
OPINIONS = ["prefers", "dislikes", "asked for", "suggested", "agreed on", "questioned", "pushed back on"]
FILLER = ["honestly", "for now", "at least in theory", "as far as we know", "again", "this time", "quietly",
          "for the second time", "after a long debate", "with some reluctance"]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ── the provider whose identity the stored vectors carry ────────────────────────────────────────────────────
class BenchVectors(EmbeddingProvider):
    """Benchmark-only: the store's vectors are random unit rows generated by the loader; recall gets its query
    vector handed in, so this provider is only asked for its identity (and, if ever called, hashes the text)."""

    name = "bench-random"
    family = "bench"

    @property
    def model_id(self) -> str:
        return "random-unit"

    @property
    def dimensions(self) -> int:
        return DIM

    def available(self) -> bool:
        return True

    def _vector(self, text: str) -> npt.NDArray[np.float32]:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
        return np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)

    def _embed_documents_batch(self, texts: list[str]) -> npt.ArrayLike:
        return np.stack([self._vector(t) for t in texts])

    def _embed_query(self, text: str) -> npt.ArrayLike:
        return self._vector(text)


register_provider(BenchVectors.name, lambda settings: BenchVectors(), replace=True)


# ── synthetic memories ───────────────────────────────────────────────────────────────────────────────────────
def synth_text(rng: random.Random, i: int) -> tuple[str, list[str]]:
    """One sentence of 8-40 words and the entities it names (what extract_entities would find in it)."""
    who, proj, tech, svc = rng.choice(PEOPLE), rng.choice(PROJECTS), rng.choice(TECH), rng.choice(SERVICES)
    kind = rng.random()
    if kind < 0.3:
        s, ents = f"{who} {rng.choice(VERBS)} {rng.choice(OBJECTS)} to {tech} {rng.choice(CUES)} {rng.choice(REASONS)}", [who, tech]
    elif kind < 0.5:
        s, ents = f"In {proj} we {rng.choice(VERBS)} {svc} {rng.choice(TAILS)}", [proj, svc]
    elif kind < 0.65:
        s, ents = f"{who} {rng.choice(OPINIONS)} using {tech} for {rng.choice(OBJECTS)} in {proj}", [who, tech, proj]
    elif kind < 0.8:
        s, ents = f"{who} owns {rng.choice(OBJECTS)} of {svc} and reviews it {rng.choice(TAILS)}", [who, svc]
    else:
        tech2 = rng.choice(TECH)
        s = f"{rng.choice(REASONS).capitalize()}, so {who} {rng.choice(VERBS)} {rng.choice(OBJECTS)} with {tech} and {tech2}"
        ents = list(dict.fromkeys([who, tech, tech2]))
    words = s.split()
    while len(words) < 8 or (len(words) < 36 and rng.random() < 0.35):
        words += rng.choice(FILLER + TAILS).split()
    text = " ".join(words[:38]) + f" (ticket {proj[:3].upper()}-{i})"  # keeps every memory distinct
    return text, ents


class Loader:
    """Streams N memories into a store in chunks, growing the edges the write path would have grown.

    Benchmark-only code: it writes through `store.conn` with executemany, bypassing the write pipeline, because
    `write_memory` per row would take hours at 1M. The rows it writes are the rows that pipeline writes.
    """

    def __init__(self, store: SQLiteStore, n: int, identity: str) -> None:
        self.store, self.n, self.identity = store, n, identity
        self.rng = random.Random(1)
        self.vrng = np.random.default_rng(1)
        self.start = datetime(2025, 1, 1, tzinfo=timezone.utc)
        self.step = 365 * 86400 / n
        self.now = "2026-01-05T00:00:00Z"
        self.last_by_source: dict[str, str] = {}
        self.window: deque[tuple[str, datetime]] = deque(maxlen=12)  # the most recent memories, newest last
        self.holders: dict[str, deque[str]] = {}
        self.edges = 0

    def load(self, chunk: int = 20000) -> None:
        conn = self.store.conn
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -1000000")
        t0 = time.perf_counter()
        for lo in range(0, self.n, chunk):
            self._chunk(lo, min(self.n, lo + chunk))
            done = min(self.n, lo + chunk)
            rate = done / (time.perf_counter() - t0)
            log(f"  loaded {done}/{self.n} ({self.edges} edge rows) {rate:.0f}/s, eta {(self.n - done) / rate:.0f} s")

    def _chunk(self, lo: int, hi: int) -> None:
        rng = self.rng
        nodes, fts, ents, edges = [], [], [], []
        vecs = self.vrng.standard_normal((hi - lo, DIM)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        vec_rows = []
        for k, i in enumerate(range(lo, hi)):
            seq = i + 1
            node_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            text, entities = synth_text(rng, i)
            t = self.start + timedelta(seconds=(i + rng.random()) * self.step)
            created = t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            source = rng.choice(SOURCES)
            tags = rng.sample(TAG_POOL, rng.randint(0, 2))
            digest = content_hash(text)
            nodes.append((seq, node_id, "memory", None, text, digest, rng.choice(CATEGORIES),
                          rng.choice((1, 2, 3, 3, 3, 4, 5)), json.dumps(tags), json.dumps(entities), source, created,
                          created, created, None, 0, round(rng.uniform(0.2, 0.9), 4), None, "{}"))
            fts.append((seq, keyword_text(None, text, source, None), " ".join(tags), " ".join(entities)))
            ents.extend((e, seq, created) for e in entities)
            vec_rows.append((seq, self.identity, DIM, digest, vecs[k].astype("<f4").tobytes(), created))
            edges.extend(self._edges(node_id, t, source, entities))
        conn = self.store.conn
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO nodes (seq, id, kind, title, content, content_hash, category, importance, tags, entities,"
            " source, created_at, updated_at, inserted_at, last_accessed_at, access_count, effective_importance,"
            " deleted_at, metadata) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", nodes)
        conn.executemany("INSERT INTO memory_fts(rowid, body, tags, entities) VALUES (?,?,?,?)", fts)
        conn.executemany("INSERT OR IGNORE INTO node_entities(entity, node_seq, created_at) VALUES (?,?,?)", ents)
        conn.executemany("INSERT INTO vectors(node_seq, provider, dim, content_hash, vec, created_at)"
                         " VALUES (?,?,?,?,?,?)", vec_rows)
        conn.executemany(
            "INSERT OR IGNORE INTO edge_rows (src, dst, type, sub_type, weight, confidence, status, evidence, origin,"
            " rule, source_path, metadata, created_at, updated_at) VALUES ((SELECT seq FROM nodes WHERE id = ?),"
            " (SELECT seq FROM nodes WHERE id = ?),?,?,?,1.0,'active','','import',?,'',?,?,?)",
            edges)
        conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vector_generation'")
        conn.execute("COMMIT")
        self.edges += len(edges)

    def _edges(self, node_id: str, t: datetime, source: str, entities: list[str]) -> list[tuple[Any, ...]]:
        """The same edges `write_memory` grows for a memory imported in time order (see core.graph_rules)."""
        now = self.now
        out: list[tuple[Any, ...]] = []

        def pair(a: str, b: str, type_: str, sub: str, w: float, meta: str, meta_back: str) -> None:
            rule = f"{type_}:{sub}" if sub else type_
            out.append((a, b, type_, sub, w, rule, meta, now, now))
            out.append((b, a, type_, sub, w, rule, meta_back, now, now))

        prev = self.last_by_source.get(source)
        if prev is not None:
            pair(prev, node_id, "temporal", "backbone", 1.0, '{"direction": "precedes"}', '{"direction": "succeeds"}')
        taken = 0
        for other, ot in reversed(self.window):
            if taken >= 10:
                break
            hours = (t - ot).total_seconds() / 3600.0
            if other == prev or hours > 24.0:
                continue
            meta = json.dumps({"hours_diff": round(hours, 3)})
            pair(node_id, other, "temporal", "proximity", 1.0 / (1.0 + hours), meta, meta)
            taken += 1
        linked: set[str] = set()
        for e in entities:
            held = self.holders.setdefault(e, deque(maxlen=5))
            for other in reversed(held):
                if other not in linked and len(linked) < 25:
                    linked.add(other)
                    meta = json.dumps({"entity": e})
                    pair(node_id, other, "entity", "", 1.0, meta, meta)
            held.append(node_id)
        self.last_by_source[source] = node_id
        self.window.append((node_id, t))
        return out


def build_store(n: int, cache: Path) -> Path:
    db = cache / f"recall_{GEN_VERSION}_{n}.db"
    if db.exists():
        return db
    tmp = db.with_suffix(".building")
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        p.unlink(missing_ok=True)
    t0 = time.perf_counter()
    store = SQLiteStore(str(tmp))
    try:
        Loader(store, n, BenchVectors().identity()).load()
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        store.conn.execute("ANALYZE")
    finally:
        store.close()
    tmp.rename(db)
    log(f"  built {n} in {time.perf_counter() - t0:.0f} s")
    return db


# ── queries ──────────────────────────────────────────────────────────────────────────────────────────────────
STOP = {"the", "to", "and", "of", "in", "we", "it", "for", "with", "so", "a", "on", "as", "that", "was", "were"}


def make_queries(store: SQLiteStore, n_queries: int) -> list[tuple[str, str]]:
    """(query text, target memory id): a few words of a real memory, sometimes with an intent cue, sometimes
    a person; the query vector is the target's vector plus noise (cosine ≈ 0.7), as a good model would give."""
    rng = random.Random(42)
    total = store.conn.execute("SELECT MAX(seq) FROM nodes").fetchone()[0]
    seqs = [rng.randint(1, total) for _ in range(n_queries)]
    rows = dict((r[0], (r[1], r[2])) for r in store.conn.execute(
        f"SELECT seq, id, content FROM nodes WHERE seq IN ({','.join('?' * len(seqs))})", seqs))
    out = []
    for k, seq in enumerate(seqs):
        node_id, content = rows[seq]
        words = [w.strip(",.()") for w in content.split() if w.strip(",.()").lower() not in STOP]
        pick = rng.sample(words, min(len(words), rng.randint(2, 5)))
        text = " ".join(pick)
        if k % 4 == 1:
            text = f"why did {text}"
        elif k % 8 == 2:
            text = f"when did we touch {text}"
        elif k % 8 == 6:
            text = f"what do we know about {rng.choice(PEOPLE)}"
        out.append((text, node_id))
    return out


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return round(s[min(len(s) - 1, int(round(q * (len(s) - 1))))], 2)


def query_vectors(rt: Runtime, queries: list[tuple[str, str]]) -> list[npt.NDArray[np.float32]]:
    """Each query's vector: its target memory's plus noise of the same norm scale (seeded), unit length."""
    noise = np.random.default_rng(7)
    out = []
    for _, target in queries:
        v = rt.index.vector(target) + noise.standard_normal(DIM).astype(np.float32) / np.sqrt(DIM)
        out.append((v / np.linalg.norm(v)).astype(np.float32))
    return out


def projection_agreement(db: Path, n_queries: int, dims: int, candidates: list[int]) -> dict[str, Any]:
    """A two-stage vector search measured against the exact scan on the benchmark's queries: a seeded Gaussian
    projection to `dims` ranks every row, the best `candidates` are re-scored exactly. Reports the mean and worst
    top-20 agreement with the exact top 20 and the CPU time of each search (one BLAS thread, as recall scans)."""
    from mnemon.ports.vector_index import _blas_threads_setter

    set_threads = _blas_threads_setter()
    if set_threads is not None:
        set_threads(1)
    store = SQLiteStore(str(db), readonly=True)
    rt = Runtime(store=store, provider=BenchVectors())
    qvecs = query_vectors(rt, make_queries(store, n_queries))
    mat = np.asarray(store.load_vectors(rt.provider.identity())[1], dtype=np.float32)
    projection = np.random.default_rng(20261201).standard_normal((mat.shape[1], dims)).astype(np.float32)
    projection /= np.sqrt(dims)
    projected = np.ascontiguousarray(mat @ projection)
    exact_cpu, exact_top = [], []
    for q in qvecs:
        c = time.process_time()
        sims = mat @ q
        exact_top.append(set(np.argpartition(-sims, 19)[:20].tolist()))
        exact_cpu.append((time.process_time() - c) * 1000)
    rows = []
    for cand in candidates:
        agree, cpu = [], []
        for q, want in zip(qvecs, exact_top):
            c = time.process_time()
            rough = projected @ (q @ projection)
            pool = np.argpartition(-rough, cand)[:cand]
            exact = mat[pool] @ q
            got = pool[np.argpartition(-exact, 19)[:20]]
            cpu.append((time.process_time() - c) * 1000)
            agree.append(len(want & set(got.tolist())) / 20)
        rows.append({"candidates": cand, "top20_agreement_mean": round(statistics.mean(agree), 3),
                     "top20_agreement_min": min(agree), "cpu_p50_ms": pct(cpu, 0.5)})
    store.close()
    return {"stored": len(mat), "dims": dims, "queries": len(qvecs), "exact_cpu_p50_ms": pct(exact_cpu, 0.5),
            "two_stage": rows}


# ── one size, measured inside its own process ────────────────────────────────────────────────────────────────
def measure(db: Path, n_queries: int, warmups: int, dump: str | None, profile: str | None) -> dict[str, Any]:
    from mnemon.app.recall import run_recall

    store = SQLiteStore(str(db))
    # the exact scan throughout: these stores' random vectors have no neighbourhoods for an approximate index to find
    # (it is measured on e5 vectors by bench_ann.py), and a background build would run during the measurement
    rt = Runtime(store=store, provider=BenchVectors(), ann=AnnPolicy(builds=False, min_rows=1 << 62))
    queries = make_queries(store, n_queries + warmups)
    t = time.perf_counter()
    rt.index.scores(np.zeros(DIM, dtype=np.float32))  # loads the matrix: reported, not part of a recall
    load_ms = (time.perf_counter() - t) * 1000
    graph: dict[str, float] = {}
    if hasattr(rt, "graph"):  # the in-memory recall graph (absent in checkouts from before it, via BENCH_SRC)
        from mnemon.ports.graph_index import GraphSnapshot
        t = time.perf_counter()
        GraphSnapshot.build(store)  # what a process pays after a change that is not an insert
        graph["graph_build_ms"] = round((time.perf_counter() - t) * 1000, 1)
        t = time.perf_counter()
        rt.graph.snapshot()  # from the file beside the database when it is current, else built and saved
        graph["graph_load_ms"] = round((time.perf_counter() - t) * 1000, 1)
        if rt.graph.path and os.path.exists(rt.graph.path):  # the snapshot file beside the database
            graph["graph_file_mb"] = round(os.path.getsize(rt.graph.path) / 1e6, 1)
    qvecs = query_vectors(rt, queries)
    times, cpu, first_ms = [], [], 0.0
    results: list[list[Any]] = []
    hit_target = 0
    prof = None
    if profile:
        import cProfile
        prof = cProfile.Profile()
    for k, ((text, target), qv) in enumerate(zip(queries, qvecs)):
        if prof is not None and k >= warmups:
            prof.enable()
        t, c = time.perf_counter(), time.process_time()
        out = run_recall(rt, text, limit=10, query_vector=qv, touch=False)
        dt, dc = (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000
        if prof is not None:
            prof.disable()
        if k == 0:
            first_ms = dt
        if k < warmups:
            continue
        times.append(dt)
        cpu.append(dc)
        ids = [s.id for s in out.results]
        hit_target += target in ids
        results.append([text, [[s.id, round(s.score, 9)] for s in out.results]])
    if prof is not None:
        prof.dump_stats(profile)
    digest = hashlib.sha256(json.dumps(results).encode()).hexdigest()[:16]
    if dump:
        Path(dump).write_text(json.dumps(results, indent=1))
    store.close()
    return {"stored": int(db.name.split("_")[-1].split(".")[0]), "queries": len(times), "warmups": warmups,
            "p50_ms": pct(times, 0.5), "p95_ms": pct(times, 0.95), "mean_ms": round(statistics.mean(times), 2),
            "max_ms": round(max(times), 2), "cpu_p50_ms": pct(cpu, 0.5), "first_call_ms": round(first_ms, 1),
            "matrix_load_ms": round(load_ms, 1),
            **graph,
            "target_in_top10": round(hit_target / len(times), 3), "results_digest": digest,
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def bench_cli(db: Path, work: Path, runs: int) -> dict[str, Any]:
    # a copy: the CLI touches what it returns, and the cached store must not drift
    copy = work / "cli.db"
    shutil.copyfile(db, copy)
    env = dict(os.environ, MNEMON_EMBED_PROVIDER="none", PYTHONPATH=os.environ.get("BENCH_SRC") or str(ROOT / "src"),
               HOME=str(work))
    store = SQLiteStore(str(copy))
    queries = [q for q, _ in make_queries(store, runs + 1)]
    store.close()
    times = []
    for k, q in enumerate(queries):
        t = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(copy), "recall", q],
                              capture_output=True, text=True, env=env, timeout=120)
        dt = (time.perf_counter() - t) * 1000
        if proc.returncode != 0 or "results" not in json.loads(proc.stdout):
            raise RuntimeError(f"CLI recall failed: {proc.stdout[:300]} {proc.stderr[:300]}")
        if k:  # the first run warms the OS page cache
            times.append(dt)
    # the recall right after a remember (another process wrote): the saved graph is extended by the added rows
    # (auto-prune off, as it is for anyone who keeps 10k memories: the default cap would soft-delete on every write)
    after_write = []
    for k, q in enumerate(queries[:4]):
        subprocess.run([sys.executable, "-m", "mnemon", "--db", str(copy), "remember",
                        f"Benchmark note {k}: {q} was looked up again"], capture_output=True,
                       env={**env, "MNEMON_MAX_INSIGHTS": "0"}, check=True)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mnemon", "--db", str(copy), "recall", q], capture_output=True, env=env,
                       check=True)
        after_write.append((time.perf_counter() - t) * 1000)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
    bare = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mnemon", "--help"], env=env, check=True, capture_output=True)
    help_ms = (time.perf_counter() - t) * 1000
    return {"stored": int(db.name.split("_")[-1].split(".")[0]), "provider": "none", "runs": len(times),
            "p50_ms": pct(times, 0.5), "p95_ms": pct(times, 0.95), "after_remember_p50_ms": pct(after_write, 0.5),
            "help_ms": round(help_ms, 1),
            "bare_python_ms": round(bare, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument("--warmups", type=int, default=3)
    ap.add_argument("--cli-runs", type=int, default=10)
    ap.add_argument("--no-cli", action="store_true")
    ap.add_argument("--cache", default=str(ROOT / ".bench"))
    ap.add_argument("--dump", help="write every query's results (ids, scores) to this file (single size)")
    ap.add_argument("--profile", help="cProfile the measured recalls into this file (single size)")
    ap.add_argument("--projection-agreement", metavar="DIMS", type=int,
                    help="instead: top-20 agreement and CPU of a two-stage (projection, then exact) vector search")
    ap.add_argument("--candidates", default="400,2000,8000,20000,60000", help="with --projection-agreement")
    ap.add_argument("--measure", help=argparse.SUPPRESS)  # internal: measure one built store in this process
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(Path(args.measure), args.queries, args.warmups, args.dump, args.profile)))
        return
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if args.projection_agreement:
        print(json.dumps([projection_agreement(build_store(n, cache), args.queries, args.projection_agreement,
                                               [int(c) for c in args.candidates.split(",")]) for n in sizes],
                         indent=2))
        return
    result: dict[str, Any] = {"benchmark": "recall", "machine": {"cpus": os.cpu_count(),
                              "python": sys.version.split()[0]}, "targets_ms": TARGETS_MS, "in_process": []}
    for n in sizes:
        log(f"store {n}")
        t = time.perf_counter()
        db = build_store(n, cache)
        build_s = time.perf_counter() - t
        cmd = [sys.executable, __file__, "--measure", str(db), "--queries", str(args.queries),
               "--warmups", str(args.warmups)]
        if args.dump:
            cmd += ["--dump", args.dump]
        if args.profile:
            cmd += ["--profile", args.profile]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr[-2000:])
        cell = json.loads(proc.stdout)
        cell["db_mb"] = round(db.stat().st_size / 2**20, 1)
        cell["build_s"] = round(build_s, 1)
        result["in_process"].append(cell)
        log(json.dumps(cell))
    if not args.no_cli and 10000 in sizes:
        work = cache / "cli_work"
        work.mkdir(exist_ok=True)
        result["cli"] = bench_cli(build_store(10000, cache), work, args.cli_runs)
        log(json.dumps(result["cli"]))
        shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
