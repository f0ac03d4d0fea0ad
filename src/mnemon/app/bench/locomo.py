"""`mnemon bench recall`: one store per conversation, every turn a memory, smart recall for every question,
a run file in the shared scorer's format, and the metrics at turn and session level."""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from ...core.errors import InvalidInput, NotFound
from ...core.model import iso, parse_iso
from ...core.validation import MemoryInput
from ...ports.embed.base import EmbeddingProvider
from ...ports.store.sqlite import SQLiteStore
from ..recall import run_recall
from ..remember import write_memory
from ..runtime import Runtime
from .scoring import headline, score_run

RECALL_DEPTH = 20
UNDATED = datetime(2000, 1, 1, tzinfo=timezone.utc)  # the day of turns the data gives no date for


def _jsonl(path: Path, required: tuple[str, ...] = ()) -> Iterator[dict[str, Any]]:
    """The records of a JSONL file; a line that is not a JSON object with the `required` fields is a clear error."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:  # type: ignore[operator]
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{path.name} line {number} is not JSON: {exc.msg}") from None
            missing = [k for k in required if not isinstance(rec, dict) or rec.get(k) in (None, "")]
            if missing:
                raise InvalidInput(f"{path.name} line {number} lacks {', '.join(missing)}")
            yield rec


def _find(data: Path, stem: str) -> Path:
    for name in (f"{stem}.jsonl", f"{stem}.jsonl.gz"):
        if (data / name).exists():
            return data / name
    raise NotFound(f"no {stem}.jsonl in {data}")


def speaker_of(rec: dict[str, Any]) -> str:
    """Who said a turn: its speaker's name, else its role (a user/assistant transcript names no one)."""
    return str(rec.get("speaker") or rec.get("role") or "").strip()


def memory_text(rec: dict[str, Any]) -> str:
    """What a turn says, with who said it and what picture they shared."""
    text = f"{speaker_of(rec) or 'someone'}: {rec.get('text', '')}".strip()
    if rec.get("image_caption"):
        text += f" [shared an image: {rec['image_caption']}]"
    return text


class VectorCache:
    """Benchmark-only cache of document vectors on disk, keyed by provider identity and text hash."""

    def __init__(self, directory: Path | None, identity: str) -> None:
        self.path = directory / (hashlib.sha1(identity.encode()).hexdigest()[:16] + ".npz") if directory else None
        self.data: dict[str, np.ndarray] = {}
        if self.path and self.path.exists():
            with np.load(self.path) as z:
                self.data = {k: z[k] for k in z.files}

    def embed(self, provider: EmbeddingProvider, texts: list[str]) -> np.ndarray:
        keys = [hashlib.sha1(t.encode()).hexdigest() for t in texts]
        todo = [(k, t) for k, t in zip(keys, texts) if k not in self.data]
        for start in range(0, len(todo), 64):
            chunk = todo[start : start + 64]
            rows = provider.embed_documents([t for _, t in chunk])
            self.data.update({k: rows[n] for n, (k, _) in enumerate(chunk)})
        if todo and self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            np.savez(self.path, **self.data)  # type: ignore[arg-type]  # numpy's stub: keyword arrays
        return np.stack([self.data[k] for k in keys]) if keys else np.zeros((0, 0), dtype=np.float32)


def _sample_of(rec: dict[str, Any]) -> str:
    """The conversation a record belongs to; data without sample ids is one conversation."""
    return str(rec.get("sample_id") or "all")


def _dates(turns: list[dict[str, Any]]) -> list[datetime]:
    """Each turn's timestamp; a turn without a readable one takes the date of the turn before it (the first of a
    conversation without any, a fixed day), so the order of the data is kept either way."""
    out: list[datetime] = []
    for turn in turns:
        try:
            out.append(parse_iso(str(turn["timestamp"])))
        except (KeyError, ValueError):
            out.append(out[-1] if out else UNDATED)
    return out


def _asked_on(query: dict[str, Any]) -> datetime | None:
    """The question's own date (`question_date`), when the data gives one that reads as a timestamp."""
    asked = query.get("question_date")
    if not asked:
        return None
    try:
        return parse_iso(str(asked))
    except ValueError:
        return None


def _fixed_clock(at: datetime) -> Callable[[], datetime]:
    return lambda: at


def run_bench(data_dir: str, out_path: str | None, provider: EmbeddingProvider, *, samples: list[str] | None = None,
              limit: int = RECALL_DEPTH, cache_dir: str | None = None,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    data = Path(data_dir)
    if not data.is_dir():
        raise NotFound(f"benchmark data directory {data_dir} does not exist")
    memories: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for rec in _jsonl(_find(data, "memories"), ("id",)):
        memories[_sample_of(rec)].append(rec)
    queries = list(_jsonl(_find(data, "queries"), ("id", "question")))
    chosen = samples or sorted(memories)
    unknown = [s for s in chosen if s not in memories]
    if unknown:
        raise InvalidInput(f"unknown sample ids: {', '.join(unknown)}")
    cache = VectorCache(Path(cache_dir) if cache_dir else None, provider.identity()) if provider.produces_vectors else None
    run: dict[str, list[str]] = {}
    timings = {"ingest_s": 0.0, "embed_s": 0.0, "recall_ms": []}  # type: dict[str, Any]
    for sample in chosen:
        turns = sorted(memories[sample], key=lambda r: (r.get("session_index", 0), r.get("turn_index", 0)))
        with tempfile.TemporaryDirectory(prefix="mnemon-bench-") as tmp:
            store = SQLiteStore(os.path.join(tmp, "bench.db"))
            # The conversation's own clock: the benchmark asks its questions after the last session.
            dates = _dates(turns)
            last = max(dates)
            rt = Runtime(store=store, provider=provider, max_insights=0, clock=_fixed_clock(last))
            texts = [memory_text(t) for t in turns]
            t0 = time.perf_counter()
            vectors = cache.embed(provider, texts) if cache is not None else None
            timings["embed_s"] += time.perf_counter() - t0
            t0 = time.perf_counter()
            with store.transaction():
                for k, (turn, text) in enumerate(zip(turns, texts)):
                    # the speaker is the turn's entity (names merely mentioned stay in the text), so a
                    # question about a person finds what that person said
                    speaker = speaker_of(turn)
                    inp = MemoryInput(text, "fact", 3, (), (speaker,) if speaker else (), "conversation",
                                      "provided" if speaker else "merge", iso(dates[k]))
                    write_memory(rt, inp, vectors[k] if vectors is not None else None, node_id=turn["id"],
                                 prune=False, origin="bench")
            timings["ingest_s"] += time.perf_counter() - t0
            for q in (q for q in queries if _sample_of(q) == sample):
                # a question asked on a known date is answered as of that date ("in June" is the June before it)
                rt.clock = _fixed_clock(_asked_on(q) or last)
                qvec = provider.embed_query(q["question"]) if provider.produces_vectors else None
                t0 = time.perf_counter()
                out = run_recall(rt, q["question"], limit=limit, query_vector=qvec, touch=False)
                timings["recall_ms"].append((time.perf_counter() - t0) * 1000)
                run[q["id"]] = [s.id for s in out.results]
            store.close()
        if progress:
            progress(sample)
    if out_path:
        with open(out_path, "w", encoding="utf-8") as f:
            for qid, ranked in run.items():
                f.write(json.dumps({"query_id": qid, "ranked": ranked}) + "\n")
    scoped = [q for q in queries if _sample_of(q) in set(chosen)]
    turn = score_run(scoped, run, level="turn")
    session = score_run(scoped, run, level="session")
    lat = sorted(timings["recall_ms"])
    return {
        "data": str(data), "samples": chosen, "provider": provider.identity(), "limit": limit,
        "queries_run": len(run), "run_file": out_path,
        "turn": headline(turn), "session": headline(session),
        "timing": {"embed_s": round(timings["embed_s"], 2), "ingest_s": round(timings["ingest_s"], 2),
                   "recall_p50_ms": round(lat[len(lat) // 2], 2) if lat else None,
                   "recall_p95_ms": round(lat[int(len(lat) * 0.95)], 2) if lat else None},
    }
