"""The facade every interface calls: one method per command, each returning a JSON-ready dict."""
from __future__ import annotations

import importlib
import json
import os
import stat
from collections.abc import Generator, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, closing, contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..core.keywords import embedding_text_of
from ..core.errors import InvalidInput, NotFound, ProviderUnavailable, write_refused
from ..core.model import LOG_OPS
from ..core.surface import creating_write, embed_all, typed
from ..ports.cache_paths import beside, cache_bytes
from ..ports.embed.base import EmbedSettings
from ..ports.embed.registry import get_provider
from ..ports.store.base import Store
from ..ports.vector_ann import AnnPolicy
from .config import DB_URL_SCHEMES, Config
from .fresh_store import Fresh, before_opening, is_beside, remove, untouched
from .runtime import Runtime

# The world-model, context-pack/thought and vault commands live in mixins whose modules cost ~250 ms to import;
# `mnemon recall` should not pay for `mnemon state`. Type checkers see the real bases; at run time the methods are
# found on first use by `Mnemon.__getattr__` (no mixin shares a name with the facade or with another mixin).
if TYPE_CHECKING:
    from .thoughts import ContextMixin
    from .vault.facade import VaultMixin
    from .world.facade import WorldMixin
else:
    class WorldMixin:
        pass

    class ContextMixin:
        pass

    class VaultMixin:
        pass

MAX_LOG_LIMIT = 10_000
WARM_GRAPH_AFTER = 5_000  # memories an import adds before it builds the recall graph itself
# looked up in this order, each module imported only when the ones before it lack the method: `ingest` must not
# import the context packs (and with them recall and numpy)
_MIXINS = (("vault.facade", "VaultMixin"), ("world.facade", "WorldMixin"), ("thoughts", "ContextMixin"))
_mixin_classes: dict[str, type] = {}


def _mixins() -> Iterator[type]:
    for mod, name in _MIXINS:
        if mod not in _mixin_classes:
            _mixin_classes[mod] = getattr(importlib.import_module(f"{__package__}.{mod}"), name)
        yield _mixin_classes[mod]


def _curation() -> ModuleType:
    from . import curation  # with it the write pipeline (`remember`): `recall` and `status` do without

    return curation


def _encoded(pieces: Iterable[str], size: int = 1 << 16) -> Iterator[bytes]:
    """Text pieces (an export's rows) as UTF-8, about `size` characters at a time: one write, and one call into
    gzip, per block instead of per row."""
    held: list[str] = []
    count = 0
    for piece in pieces:
        held.append(piece)
        count += len(piece)
        if count >= size:
            yield "".join(held).encode()
            held, count = [], 0
    if held:
        yield "".join(held).encode()


def open_store(target: str | Path, *, readonly: bool = False, create: bool = True, busy_wait_s: float = 60.0,
               busy_wait_set_by: str | None = None) -> Store:
    """A store by path or URL: postgresql://… selects the PostgreSQL backend, anything else is a SQLite file.
    `create=False`: a server schema holding no store is `NotFound`, told over the store's own connection (a SQLite
    file is checked before, by `refuse_missing_db`). `busy_wait_s`: how long a call waits for another process's
    write (then `store_busy`, naming `busy_wait_set_by`: the flag, variable or config file that set it, or
    "default")."""
    target = str(target)
    wait_ms = int(busy_wait_s * 1000)
    if target.startswith(DB_URL_SCHEMES):
        from ..ports.store.postgres import PostgresStore

        return PostgresStore(target, readonly=readonly, create=create, busy_timeout_ms=wait_ms,
                             busy_wait_set_by=busy_wait_set_by)
    from ..ports.store.sqlite import SQLiteStore

    return SQLiteStore(target, readonly=readonly, busy_timeout_ms=wait_ms, busy_wait_set_by=busy_wait_set_by)


# Facade methods that only read the store. One of them asked of a database the user named (`Config.db_named_by`)
# that does not exist fails instead of creating it: a mistyped --db used to leave an empty store behind and answer
# "nothing" with exit 0. Every other method (a write) creates the database, as the store's own place under the home
# is created by its first use, read or write.
READS_ONLY = frozenset({
    "recall", "search", "show", "related", "graph", "graph_export", "find_nodes", "log", "receipt", "status",
    "embed_status", "export_stream", "export_to", "retrieve", "candidates", "debug_candidates", "thought", "surface",
    "explain_edge", "state_list", "state_explain", "state_conflicts", "predict_due", "world_watch", "alias_ls",
    "contract_check", "agent_preflight",
})


def refuse_missing_db(cfg: Config, method: str | None) -> bool:
    """`NotFound` naming the path when facade method `method` only reads (`READS_ONLY`) — or, for None, the store
    is opened read-only (`--readonly`, `serve` without `--allow-writes`) — and the database the user named is a
    file that does not exist; nothing is created. A path that could not hold a database at all (a file
    where a folder should be, a folder without write permission) is left to the store, whose `store_error` says why,
    as it does for a write. True when the store must then be opened with `create=False`: a server database is
    asked by the opening itself, over its one connection (a second one only to ask cost every read a connect)."""
    if (method is not None and method not in READS_ONLY) or cfg.db_named_by is None:
        return False
    if not isinstance(cfg.db_path, Path):
        return True
    path = cfg.db_path
    try:
        log = f"{path}-wal"
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False  # a named pipe or a device: the store refuses it, saying what it is (it is not empty)
        if os.stat(path).st_size > 0 or (os.path.exists(log) and os.path.getsize(log) > 0):
            return False  # (an empty file beside a log of writes: the store refuses it and says why)
        # an empty file holds no store (SQLite would make one in it): an emptied store, not an empty memory
        raise NotFound(f"{path} (named by {cfg.db_named_by}) is an empty file, not a mnemon store: if it was one, it "
                       "was emptied (restore it from a copy or an export); a write (" + creating_write() + ") makes "
                       "a new store in it", path=str(path), named_by=cfg.db_named_by)
    except FileNotFoundError:
        pass
    except OSError:  # not a directory on the way, a name too long, …
        return False
    folder = path.absolute().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not (folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)):
        return False
    if path == cfg.home / "data" / cfg.store / "mnemon.db":
        raise NotFound(typed(f"no store {cfg.store!r} (named by {cfg.db_named_by}): `mnemon store list` shows the "
                             f"stores; `mnemon store create {cfg.store}` (or a write: {creating_write()}) makes it"),
                       path=str(path), store=cfg.store, named_by=cfg.db_named_by)
    raise NotFound(f"no database at {path} (named by {cfg.db_named_by}): check the path; a write ({creating_write()}) "
                   "creates it there", path=str(path), named_by=cfg.db_named_by)




class Mnemon(WorldMixin, ContextMixin, VaultMixin):
    """Memory for one store. Build it with `Mnemon.open(config)` or from parts for tests and embedding."""

    def __init__(self, runtime: Runtime) -> None:
        self.rt = runtime
        self.fresh: Fresh | None = None  # the database file its opening created (`discard_if_untouched`)

    def __getattr__(self, name: str) -> Any:
        # only reached when normal lookup fails: a mixin method, bound to this facade as inheritance would
        if not name.startswith("__"):
            for cls in _mixins():
                member = cls.__dict__.get(name)
                if member is not None:
                    return member.__get__(self, type(self))
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @classmethod
    def open(cls, cfg: Config, *, readonly: bool = False, provider: str | None = None,
             create: bool = True) -> "Mnemon":
        """The facade over `cfg`'s store; `create=False` (`refuse_missing_db`) opens only a store that exists."""
        name = cfg.embed_provider if provider is None else provider  # (a blank one is refused, not the default)
        fresh = before_opening(cfg.db_path, readonly=readonly)
        try:
            store = open_store(cfg.db_path, readonly=readonly, create=create, busy_wait_s=cfg.busy_wait_s,
                               busy_wait_set_by=cfg.sources.get("busy_wait_s"))
        except NotFound as missing:  # a server schema holding no store: what a missing SQLite file is
            where = missing.details.get("path", str(cfg.db_path))
            raise NotFound(f"no mnemon store in {where} (named by {cfg.db_named_by}): check the URL and its schema; "
                           f"a write ({creating_write()}) creates the store there", path=where,
                           named_by=cfg.db_named_by) from None
        try:
            emb = get_provider(name, EmbedSettings.from_env(cfg.environ))
        except BaseException:
            store.close()
            raise
        rt = Runtime(store=store, provider=emb, max_insights=cfg.max_insights, prune_min_age_s=cfg.prune_min_age_s,
                     audit_content=cfg.audit_content, save_caches=cfg.save_caches,
                     ann=AnnPolicy(cfg.ann, cfg.ann_min_rows, cfg.ann_cold_min_rows),
                     store_name=cfg.store if cfg.db_path == cfg.home / "data" / cfg.store / "mnemon.db" else None,
                     vault=str(cfg.vault) if cfg.vault else None, cache_dir=str(cfg.home / "cache"))
        mem = cls(rt)
        if fresh is not None and os.path.exists(fresh.path):
            fresh.token = store.change_token()  # type: ignore[attr-defined]  # (SQLiteStore's)
            mem.fresh = fresh
        return mem

    def close(self) -> None:
        self.rt.close()

    def discard_if_untouched(self) -> bool:
        """After a call refused before it wrote anything: a store its opening created and nothing has written
        into since is closed and removed (its file, the files beside it, the folders made for it), so a refused
        command leaves no new store behind. True when it was; otherwise the facade is left as it is."""
        fresh = self.fresh
        if fresh is None or not untouched(fresh, self.rt.store):
            return False
        # under the write lock from the check to the removal: another process that opened the new file meanwhile
        # either wrote first (the check sees it: kept) or finds it removed when it writes (refused, not lost)
        with self.rt.store.transaction():
            if not untouched(fresh, self.rt.store):
                return False
            remove(fresh)
        self.fresh = None
        self.close()
        return True

    def __enter__(self) -> "Mnemon":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def one_call(self) -> AbstractContextManager[bool]:
        """Held around each call by a server whose threads share this facade: they take turns, and a write waiting
        for another process's lets the others' calls (reads, answered at once) run meanwhile."""
        return self.rt.store.one_call()

    @contextmanager
    def unrecorded(self) -> Iterator["Mnemon"]:
        """The reads made inside leave the store as it is: `recall`, `search` and `show` count no access and log
        nothing (for a request that gets no answer to read, such as an HTTP HEAD)."""
        before, self.rt.record_reads = self.rt.record_reads, False
        try:
            yield self
        finally:
            self.rt.record_reads = before

    # ── writes ───────────────────────────────────────────────────────────────
    def remember(self, content: Any, *, category: Any = None, importance: Any = None, tags: Any = None,
                 entities: Any = None, source: Any = None, entity_mode: Any = "merge", no_diff: bool = False,
                 created_at: Any = None, default_source: str = "user") -> dict[str, Any]:
        """None is "not given": the default applies (category general, importance 3, `default_source`), and a
        skipped exact repeat does not report it among the values it ignored."""
        from ..core.validation import refuse_future, refuse_vault_source, validate_memory  # (for writes only)

        given = frozenset(k for k, v in (("category", category), ("importance", importance), ("source", source))
                          if v is not None)
        inp = validate_memory(content, category="general" if category is None else category,
                              importance=3 if importance is None else importance, tags=tags, entities=entities,
                              source=default_source if source is None else source, entity_mode=entity_mode,
                              created_at=created_at)
        refuse_vault_source(refuse_future(inp, self.rt.now()))
        from . import remember as remember_mod  # the write pipeline loads for writes only, not for `recall`

        return self._with_warnings(remember_mod.remember(self.rt, inp, no_diff=no_diff, given=given))

    def forget(self, node_id: str, *, dry_run: bool = False) -> dict[str, Any]:
        return _curation().forget(self.rt, node_id, dry_run=dry_run)

    def undo_forget(self, node_ids: Sequence[str], *, dry_run: bool = False) -> dict[str, Any]:
        """`forget --undo`: memories `forget` or auto-prune removed, back with the edges their removal retired."""
        from . import revival

        return self._with_warnings(revival.undo_forget(self.rt, node_ids, dry_run=dry_run))

    def link(self, src: str, dst: str, edge_type: str = "semantic", *, sub_type: str = "", weight: Any = 0.5,
             meta: Any = None) -> dict[str, Any]:
        return _curation().link(self.rt, src, dst, edge_type, sub_type=sub_type, weight=weight, meta=meta)

    def gc(self, *, threshold: float = 0.5, limit: int = 20, keep: str | None = None) -> dict[str, Any]:
        if keep:
            return _curation().gc_keep(self.rt, keep)
        return _curation().gc(self.rt, threshold=threshold, limit=limit)

    def import_json(self, raw: Any, *, dry_run: bool = False, no_diff: bool = False,
                    revive_forgotten: bool = False, full_report: bool = False) -> dict[str, Any]:
        from . import transfer  # bulk import/export: only for those commands

        reply = transfer.import_document(self.rt, raw, dry_run=dry_run, no_diff=no_diff,
                                         revive_forgotten=revive_forgotten, full_report=full_report)
        transfer.refuse_if_nothing_landed(reply)
        if not dry_run and reply.get("imported", 0) + reply.get("revived", 0) >= WARM_GRAPH_AFTER:
            # the recall graph built (and saved beside the database) inside the import, ≈ 1 s a 10k: else the first
            # recall after a large restore stalls on it, for a minute at 100k on a busy machine
            self.rt.graph.snapshot()
        self.rt.warnings[:0] = reply.pop("warnings", [])  # the draft's own, first (`transfer.unknown_fields`)
        return self._with_warnings(reply)

    def export_json(self, *, include_vectors: bool = True) -> dict[str, Any]:
        """The whole export as one parsed document (for callers that want it in memory; the CLI streams)."""
        return json.loads("".join(self.export_stream(include_vectors=include_vectors)))

    def export_stream(self, *, include_vectors: bool = True) -> Generator[str, None, None]:
        """The export document as text pieces, written as the store is read: memory stays flat at any size."""
        from . import backup_export  # bulk import/export: only for those commands

        return backup_export.export_chunks(self.rt, include_vectors=include_vectors)

    def export_gzip_stream(self, *, include_vectors: bool = True) -> Generator[bytes, None, None]:
        """The export document gzip-compressed, as it is written (`ports/compressed.gzipped`)."""
        from ..ports.compressed import gzipped

        with closing(self.export_stream(include_vectors=include_vectors)) as pieces:
            yield from gzipped(_encoded(pieces))

    def export_to(self, path: str, *, include_vectors: bool = True, gzip: bool = False) -> dict[str, Any]:
        """The export written to `path` under a temporary name and renamed into place once whole: a failure midway
        leaves no partial file and an earlier one untouched. gzip-compressed when asked or when `path` ends in .gz
        (`import` reads either)."""
        from ..ports.array_file import write_atomic
        from ..ports.compressed import gzipped, is_gzip_name

        real = self._out_file(path, "the export", "leave it out, or give '-', to print the export")
        packed = gzip or is_gzip_name(path)
        try:
            with closing(self.export_stream(include_vectors=include_vectors)) as pieces:
                write_atomic(real, gzipped(_encoded(pieces)) if packed else _encoded(pieces), durable=True)
        except OSError as exc:  # a full disk is the machine's (store_error), a folder given as the file the user's
            raise write_refused(path, exc) from None
        return {"ok": True, "path": real, "bytes": os.path.getsize(real), "gzip": packed}

    def graph_export(self, fmt: str, out: str, *, focus: str | None = None, depth: int = 1, max_nodes: int = 150,
                     max_links: int = 600, include_candidates: bool = True, include_killed: bool = False,
                     folder: str | None = None) -> dict[str, Any]:
        """`graph`'s view written to the file `out` as DOT (Graphviz) or a self-contained HTML page (`fmt`), renamed
        into place once whole; the answer says what was written (`app/graph_export.py`)."""
        from .graph_export import export_graph

        real = self._out_file(out, "the graph", "give --out FILE")
        return export_graph(self.rt, fmt, real, focus=focus, depth=depth, max_nodes=max_nodes, max_links=max_links,
                            include_candidates=include_candidates, include_killed=include_killed, folder=folder)

    def _out_file(self, path: str, what: str, instead: str) -> str:
        """The file `--out` names, to be written as `what` (its link followed), or `InvalidInput` before any work:
        blank, not a regular file, or the store's database (`_refuse_database_target`)."""
        if not path.strip():  # a script's unset "$OUT": a file named by spaces in the working directory
            raise InvalidInput(f"--out must name a file, not be blank ({instead})", out=path)
        # a link is followed (its file is written, the link kept); what is there but not a file (a directory, a
        # device, a pipe) would be replaced by the rename: /dev/null itself, when run as root
        real = os.path.realpath(path)
        if os.path.exists(real) and not os.path.isfile(real):
            raise InvalidInput(f"--out {path} is not a regular file (a folder, a device or a pipe) and {what} "
                               f"would replace it: name a file, or {instead}", out=path)
        self._refuse_database_target(path, what)
        return real

    def _refuse_database_target(self, path: str, what: str = "the export") -> None:
        """`--out` naming the store's own database or a file beside it (its log, its caches), or any SQLite
        database, would replace it with the export: refused before anything is written."""
        target = Path(path).absolute()
        own = self.rt.store.path
        if isinstance(own, str) and not own.startswith(DB_URL_SCHEMES):
            db = Path(own).absolute()
            if os.path.realpath(target) == os.path.realpath(db) or (
                    os.path.realpath(target.parent) == os.path.realpath(db.parent) and is_beside(db, target.name)):
                raise InvalidInput(f"--out {path} is this store's database or a file beside it: {what} would "
                                   "replace it; choose another file", path=str(path))
        try:
            with open(target, "rb") as fh:
                head = fh.read(16)
        except OSError:
            return
        if head == b"SQLite format 3\x00":
            raise InvalidInput(f"--out {path} is a database, not an earlier export: {what} would replace it; "
                               "choose another file", path=str(path))

    # ── reads ────────────────────────────────────────────────────────────────
    def recall(self, query: str, *, limit: int = 10, intent: str | None = None, category: str | None = None,
               source: str | None = None, verbose: bool = False, brief: bool = False,
               excerpt_chars: int | None = None,
               explain: bool = False, basic: bool = False) -> Any:
        from . import recall as recall_mod  # the recall engine loads only when asked for
        from .recall_source import warn_on_unknown_source

        if verbose and brief:
            raise InvalidInput("--brief and --verbose cannot be combined")
        excerpt_chars = recall_mod.check_excerpt_chars(excerpt_chars, brief)
        if basic:
            ignored = [flag for flag, given in (("--intent", intent), ("--cat", category), ("--source", source),
                                                ("--verbose", verbose), ("--brief", brief), ("--explain", explain))
                       if given]
            if ignored:  # the legacy mode has none of them: refusing beats answering as if it had
                raise InvalidInput(f"--basic takes only --limit; drop {', '.join(ignored)}")
            return recall_mod.basic_recall(self.rt, query, limit=limit)
        out = recall_mod.run_recall(self.rt, query, limit=limit, intent=intent, category=category, source=source,
                                    explain=explain)
        recall_mod.warn_on_vector_gaps(self.rt, out.embedded_query)
        warn_on_unknown_source(self.rt, source)
        return self._with_warnings(recall_mod.to_payload(out, verbose=verbose, brief=brief,
                                                         excerpt_chars=excerpt_chars, explain=explain))

    def search(self, query: str, *, limit: int = 10, brief: bool = False,
               excerpt_chars: int | None = None) -> dict[str, Any]:
        from . import recall as recall_mod  # the recall engine loads only when asked for

        chars = recall_mod.check_excerpt_chars(excerpt_chars, brief)
        return recall_mod.keyword_only(self.rt, query, limit=limit, brief=brief, excerpt_chars=chars)

    def show(self, node_id: str) -> dict[str, Any]:
        return _curation().show(self.rt, node_id)

    def related(self, node_id: str, *, depth: int = 2, edge_type: str | None = None,
                direction: str = "both") -> dict[str, Any]:
        return _curation().related(self.rt, node_id, depth=depth, edge_type=edge_type, direction=direction)

    def graph(self, *, focus: str | None = None, depth: int = 1, max_nodes: int = 150, max_links: int = 600,
              include_candidates: bool = True, include_killed: bool = False,
              folder: str | None = None) -> dict[str, Any]:
        from .graph_view import graph_view

        return graph_view(self.rt, focus=focus, depth=depth, max_nodes=max_nodes, max_links=max_links,
                          include_candidates=include_candidates, include_killed=include_killed, folder=folder)

    def find_nodes(self, query: Any, *, limit: int = 10) -> dict[str, Any]:
        from .graph_view import find_nodes

        return find_nodes(self.rt, query, limit=limit)

    def log(self, *, limit: int = 20, op: str | None = None) -> dict[str, Any]:
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LOG_LIMIT:
            raise InvalidInput(f"--limit must be from 1 to {MAX_LOG_LIMIT}")
        entries = self.rt.store.oplog(limit, op=op)
        if op and not entries and op not in LOG_OPS:
            import difflib

            known = sorted(LOG_OPS, key=lambda name: -difflib.SequenceMatcher(None, op, name).ratio())
            raise InvalidInput(f"unknown operation {op!r} for --op: the log records {', '.join(known)}", op=op,
                               valid=known)
        rows = [{"id": e.id, "op": e.op, "insight_id": e.node_id, "detail": e.detail, "created_at": e.created_at}
                for e in entries]
        if any(r["op"] in ("forget", "prune") for r in rows):  # (the write pipeline loads only for those)
            from .revival import annotate_removals

            annotate_removals(self.rt, rows)
        return {"entries": rows}

    def receipt(self, *, limit: int = 20) -> dict[str, Any]:
        """The newest `limit` log rows as a privacy-reduced audit export (`app/receipt.py`): operations, times and
        SHA-256 hashes, no text, detail or id in clear."""
        from .receipt import receipt

        return receipt(self.rt, limit=limit, store=self.rt.store_name)

    def status(self) -> dict[str, Any]:
        store = self.rt.store
        out = store.stats()
        out["top_entities"] = [{"entity": e, "count": c} for e, c in store.top_entities(20)]
        # the cap counts the writer's memories; a vault's rows live as long as their lines, a payload's as long as
        # its scope (never pruned)
        counted = store.count_prunable(out["total_insights"])
        scoped = store.vault.count_payload_memories()  # type: ignore[attr-defined]
        out["auto_prune"] = {"cap": self.rt.max_insights, "memories_counted": counted,
                             "vault_rows_exempt": out["total_insights"] - counted - scoped,
                             "payload_rows_exempt": scoped}
        ident = self.rt.provider.identity()
        providers = store.vector_providers()
        embedded, total = store.vector_coverage(ident) if self.rt.vectors_enabled else (0, out["total_insights"])
        out["embedding"] = {
            "provider": self.rt.provider.name, "identity": ident, "embedded": embedded, "total": total,
            "coverage": f"{(100 * embedded / total) if total else 100:.0f}%",
            "stored_by_provider": providers,
            "mismatch": sorted(p for p in providers if p != ident),
        }
        from .unfinished import unfinished_work

        # (what a run cut short left undone, from the store's own records: coverage alone did not say)
        out["unfinished"] = unfinished_work(store, ident, self.rt.vectors_enabled, (embedded, total))
        if out["embedding"]["mismatch"]:
            out["embedding"]["hint"] = ("vectors from other providers are kept beside this one's and never mixed; "
                                        f"{embed_all()} adds this provider's without touching theirs, and "
                                        "switching back to one of them embeds nothing again")
        # the recall graph and vector matrix saved beside the database (a server's graph: in the user's cache folder)
        out["cache_bytes"] = {name: cache_bytes(store, name, self.rt.cache_dir) for name in ("graph", "vectors")}
        matrix = beside(store, "vectors")
        from ..ports import vector_ann

        # the approximate nearest-neighbour index of a large store (built in the background from 30k vectors); the
        # same keys where there can be none: every search is then an exact scan
        if matrix is None:
            ann = vector_ann.describe_none(self.rt.ann, "the index is a file beside a SQLite database; this store has"
                                                        " none, so every vector search is an exact scan")
        elif not self.rt.save_caches:
            ann = vector_ann.describe_none(self.rt.ann, "save_caches is off: no vector matrix is saved to build it"
                                                        " over, so every vector search is an exact scan")
        else:
            ann = vector_ann.describe(matrix, self.rt.ann)
        out["cache_bytes"]["vector_ann"] = ann.pop("bytes")
        out["embedding"]["approximate_index"] = ann
        return out

    def embed_status(self) -> dict[str, Any]:
        st = self.status()["embedding"]
        return {"total_insights": st["total"], "embedded": st["embedded"], "coverage": st["coverage"],
                "provider": st["provider"], "identity": st["identity"], "model": self.rt.provider.model_id,
                "embedding_available": self.rt.vectors_enabled and self.rt.provider.available(),
                "stored_by_provider": st["stored_by_provider"], "mismatch": st["mismatch"]}

    def embed_all(self, *, progress: Any = None, batch: int = 64, bulk_threads: bool = False) -> dict[str, Any]:
        """`bulk_threads`: this process does nothing else (a CLI backfill), so a local model may use every core."""
        rt = self.rt
        if not rt.vectors_enabled:
            raise ProviderUnavailable(f"provider {rt.provider.name!r} makes no vectors; choose one with --embed")
        threads = rt.provider.prefer_bulk_threads() if bulk_threads else None
        missing = rt.store.nodes_missing_vectors(rt.provider.identity())
        if not missing:
            done_already: dict[str, Any] = {"status": "complete", "identity": rt.provider.identity(),
                                            "message": "every memory already has a vector from this provider"}
            if len(rt.index) < rt.store.vector_coverage(rt.provider.identity())[0]:
                # the matrices lost sight of stored vectors (a store an earlier release revived vault rows in
                # without a new generation: recall warned of memories without a vector this answer said none lacked)
                with rt.store.transaction():
                    rt.store.renew_vector_generation()
                done_already["index_reloaded"] = len(rt.index)
            return done_already
        from ..ports.store.history_reads import vectors_of
        from .remember import backfill_semantic_edges
        from .vault.ingest import ingest_embedded

        done = 0
        owned: list[tuple[Any, Any]] = []  # (memory, vector): their semantic edges come once every vector is in
        # told to the index as they are written (as `Runtime.embed_stored` does), they are appended to the saved
        # matrix at close: unseen, the next process read every vector and saved them whole, dropping a large store's
        # approximate index until it was rebuilt
        rt.index.follow_saved()
        for start in range(0, len(missing), batch):
            chunk = missing[start : start + batch]
            rows = rt.provider.embed_documents([embedding_text_of(m) for m in chunk])
            with rt.store.transaction():
                now = rt.now_iso()
                gen = rt.store.vector_generation()
                for m, vec in zip(chunk, rows):
                    rt.store.put_vector(m.id, rt.provider.identity(), vec, m.content_hash, now)
                # read back: a row whose text changed since it was read keeps no vector of the old one
                rt.index.note_writes(vectors_of(rt.store, [m.id for m in chunk], rt.provider.identity()), gen)
            owned += zip(chunk, rows)
            done += len(chunk)
            if progress is not None:
                progress(done, len(missing))
        with rt.store.transaction():
            # (once every vector is in: two memories embedded in one run link to each other as a write would)
            linked = backfill_semantic_edges(rt, owned)
            rt.store.log("embed:backfill", None, {"succeeded": done, "identity": rt.provider.identity(),
                                                  "semantic_edges": linked}, rt.now_iso())
            ingest_embedded(rt.store)
        out = {"status": "backfill_complete", "succeeded": done, "failed": 0, "identity": rt.provider.identity(),
               "semantic_edges_added": linked}
        if threads is not None:
            out["threads"] = threads
        return out

    def _with_warnings(self, out: dict[str, Any]) -> dict[str, Any]:
        if self.rt.warnings:
            out["warnings"] = list(dict.fromkeys(self.rt.warnings))
            self.rt.warnings.clear()
        return out
