"""What every workflow needs: the store, the embedding provider, the vector index, the clock and the policies."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from ..ports.graph_index import GraphIndex
    from ..ports.vector_index import VectorIndex

import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime


from ..core.errors import ProviderMismatch, ProviderUnavailable
from ..core.model import Link, Memory, iso, utcnow
from ..core.surface import embed_all
from ..core.text import memory_tokens
from ..ports.embed.base import EmbeddingProvider
from ..ports.store.base import Store
from ..ports.store.history_reads import vectors_of
from ..ports.vector_ann import AnnPolicy


@functools.lru_cache(maxsize=1)
def _user_at_host() -> str:
    import getpass
    import socket

    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no login name in the environment and no passwd entry (a container's random uid)
        user = f"uid {os.getuid()}" if hasattr(os, "getuid") else "unknown"
    return f"{user}@{socket.gethostname()}"


@dataclass
class Runtime:
    store: Store
    provider: EmbeddingProvider
    max_insights: int = 1000
    prune_min_age_s: float = 86400.0
    audit_content: bool = True
    clock: Callable[[], datetime] = utcnow
    save_caches: bool = True  # the recall graph and vector matrix saved beside the database (cache_paths.beside)
    ann: AnnPolicy = field(default_factory=AnnPolicy)  # when a large store's approximate vector index is built and used
    warnings: list[str] = field(default_factory=list)
    # False while a read must leave the store as it is (an HTTP HEAD): its hits are not counted nor the read logged
    record_reads: bool = True
    # the named store the database is (`--store`, MNEMON_STORE), None for one named by path or URL: `receipt` says it
    store_name: str | None = None
    # the vault configured for this process (`vault`, MNEMON_VAULT): its own checkout, when several share the store
    vault: str | None = None
    # this user's cache folder (`<home>/cache`): where a server store's recall graph is saved (cache_paths.in_user_cache)
    cache_dir: str | None = None
    # told (a line of text) before a step that takes seconds, such as building a large store's recall graph: the CLI
    # sets it when stderr is a terminal; None for every other caller (hooks, servers, pipes)
    on_slow_step: Callable[[str], None] | None = None
    _index: VectorIndex | None = None
    _token_cache: dict[str, tuple[str, frozenset[str], tuple[str, ...]]] = field(default_factory=dict)
    _graph: GraphIndex | None = None

    def now(self) -> datetime:
        return self.clock()

    def now_iso(self) -> str:
        return iso(self.clock())

    @property
    def vectors_enabled(self) -> bool:
        return bool(self.provider.produces_vectors)

    def close(self) -> None:
        """Done with the store: the vector matrix this process read is saved for the next one (if still current)."""
        try:
            if self._index is not None:
                self._index.persist()
        finally:
            self.store.close()

    def save_caches_now(self) -> None:
        """What `close` saves for the next process, saved now by a process that keeps the store open (the resident
        CLI process, between two commands)."""
        if self._index is not None:
            self._index.persist()

    @property
    def index(self) -> VectorIndex:
        if self._index is None:
            from ..ports.vector_index import VectorIndex  # numpy is loaded only when vectors are used

            self._index = VectorIndex(self.store, self.provider.identity(), persist=self.save_caches, ann=self.ann,
                                      warn=self.warnings.append)
        return self._index

    @property
    def graph(self) -> GraphIndex:
        """The in-memory graph recall walks, rebuilt (or loaded from beside the database) when the graph changes."""
        if self._graph is None:
            from ..ports.graph_index import GraphIndex

            self._graph = GraphIndex(self.store, persist=self.save_caches, cache_dir=self.cache_dir)
        self._graph.on_slow_step = self.on_slow_step  # (a facade kept open between commands: this command's)
        return self._graph

    def calibrate(self, cosine: float) -> float:
        """Map a provider's raw cosine onto one scale, so thresholds (0.80 link, 0.40 candidate) mean the same
        for every model: e5-style models put unrelated text at 0.7-0.8, most others near 0."""
        base = float(getattr(self.provider, "cosine_baseline", 0.0) or 0.0)
        if base <= 0.0:
            return max(-1.0, min(1.0, cosine))
        return max(0.0, min(1.0, (cosine - base) / (1.0 - base)))

    def calibrate_many(self, cosines: np.ndarray) -> np.ndarray:
        """`calibrate` over a float64 array, element for element the same floats."""
        import numpy as np

        base = float(getattr(self.provider, "cosine_baseline", 0.0) or 0.0)
        if base <= 0.0:
            return np.clip(cosines, -1.0, 1.0)
        return np.clip((cosines - base) / (1.0 - base), 0.0, 1.0)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray | None:
        """Vectors for `texts`, or None when the provider makes none or cannot answer now: the write goes on without
        them and says so (an embedder that is down, rate-limited or slow must not lose a memory; `mnemon embed
        --all` adds the vectors later, and a backfill itself does fail loudly). Whichever way the provider was
        chosen: a failure used to drop the write when it came from a flag or the environment, not from the file."""
        if not self.vectors_enabled or not texts:
            return None
        try:
            rows = self.provider.embed_documents(list(texts))
            stored = self.store.vector_width(self.provider.identity())
            if stored is not None and int(rows.shape[-1]) != stored:
                raise ProviderMismatch(f"the store holds {stored}-d vectors from {self.provider.identity()}, the "
                                       f"model now answers {int(rows.shape[-1])}-d ones")
            return rows
        except ProviderUnavailable as exc:
            self.warnings.append(f"embedding skipped: {exc.message}; stored without a vector ({embed_all()} adds"
                                 " it)")
            return None
        except ProviderMismatch as exc:  # the model behind the name changed: a memory is kept, never mixed in
            self.warnings.append(f"embedding skipped: {exc.message}; stored without a vector (to embed the store "
                                 "anew, give the model another identity: another model name or MNEMON_EMBED_DIMENSIONS"
                                 f", then {embed_all().rstrip(',')})")
            return None

    def embed_stored(self, ids: Sequence[str], *, batch: int = 64,
                     progress: Callable[[int, int], None] | None = None) -> tuple[int, int]:
        """Vectors for those of these stored memories that have none from this provider, a batch at a time, each
        committed on its own (a stopped run keeps what it did): (embedded, how many had none). Stops at a batch the
        provider cannot embed; its warning says why."""
        if not ids or not self.vectors_enabled:
            return 0, 0
        identity = self.provider.identity()
        missing = self.store.vault.memories_missing_vectors(ids, identity)  # type: ignore[attr-defined]
        done = 0
        if missing:
            # the vectors told to the index below land in the saved matrix at close as appended rows: unseen, the
            # next process read every vector from the store and saved them whole, dropping the approximate index
            self.index.follow_saved()
        for start in range(0, len(missing), batch):
            chunk = missing[start : start + batch]
            rows = self.embed_documents([text for _id, text, _digest in chunk])
            if rows is None:
                break
            with self.store.transaction():
                when = self.now_iso()
                gen = self.store.vector_generation()
                for (node_id, _text, digest), vec in zip(chunk, rows):
                    self.store.put_vector(node_id, identity, vec, digest, when)
                # read back: a row whose text changed since it was read keeps no vector of the old one
                self.index.note_writes(vectors_of(self.store, [node_id for node_id, _t, _d in chunk], identity), gen)
            done += len(chunk)
            if progress is not None:
                progress(done, len(missing))
        return done, len(missing)

    def embed_query(self, text: str) -> np.ndarray | None:
        """The query's vector, or None (recall answers from keywords and the graph, with a warning)."""
        if not self.vectors_enabled:
            return None
        try:
            vector = self.provider.embed_query(text)
        except (ProviderUnavailable, ProviderMismatch) as exc:  # (a mismatch: the width changed since its first answer)
            self.warnings.append(f"query embedding skipped: {exc.message}; recalled by keywords and the graph")
            return None
        stored, width = self.index.width(), int(vector.shape[-1])
        if stored and width != stored:  # the model behind the name changed: no stored vector can be compared
            self.warnings.append(f"query embedding skipped: the store holds {stored}-d vectors from "
                                 f"{self.provider.identity()}, the model now answers {width}-d ones; recalled by "
                                 "keywords and the graph (re-embed under another model name or provider)")
            return None
        return vector

    def tokens_of(self, node: Memory) -> frozenset[str]:
        """Token set of a memory (title, content, tags, entities)."""
        return self._tokens(node)[1]

    def _tokens(self, node: Memory) -> tuple[str, frozenset[str], tuple[str, ...]]:
        # cached per process: recall re-ranks the same rows again and again
        key = f"{len(node.content)}:{node.updated_at}"
        hit = self._token_cache.get(node.id)
        if hit is not None and hit[0] == key:
            return hit
        seq = tuple(memory_tokens(node.title, node.content, node.tags, node.entities))
        entry = (key, frozenset(seq), seq)
        if len(self._token_cache) > 200_000:
            self._token_cache.clear()
        self._token_cache[node.id] = entry
        return entry

    def audit(self, content: str) -> dict[str, str]:
        from ..core.model import content_hash

        if self.audit_content:
            return {"content": content[:200]}
        return {"content_sha256": content_hash(content)}

    def actor(self) -> dict[str, Any]:
        """Who removes memories, for their log rows (`prune`, `forget`, `forget:source`): on a store a team shares,
        a teammate's auto-prune or forget said nothing of which process took them. The user and host this process
        runs as, and its pid (for CLI calls a resident process ran, that process's)."""
        return {"actor": _user_at_host(), "pid": os.getpid()}

    def neighbors(self, statuses: Sequence[str] = ("active",), types: Sequence[str] | None = None,
                  per_node: int | None = None) -> Callable[[Sequence[str]], dict[str, list[tuple[str, Link]]]]:
        """A batch neighbour function over outgoing edges, for the pure graph algorithms."""
        wanted = set(types) if types else None

        def fn(ids: Sequence[str]) -> dict[str, list[tuple[str, Link]]]:
            adj = self.store.adjacency(ids, statuses, per_node) if per_node else self.store.adjacency(ids, statuses)
            return {src: [(l.dst, l) for l in links if wanted is None or l.type in wanted] for src, links in adj.items()}
        return fn
