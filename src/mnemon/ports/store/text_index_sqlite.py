"""Entities and keywords on SQLite: the node_entities index and FTS5 (BM25 search, document counts)."""
from __future__ import annotations

import itertools
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from ...core.errors import StoreError
from ...core.keywords import index_term, keyword_fingerprint, keyword_text, keyword_words
from ...core.text import rarest_terms
from .base import MemoryFilter
from .sources import not_vault, source_in, source_is
from .vault_texts_sqlite import metadata_of, text_of, title_of

KEYWORD_POSTING_BUDGET = 2_000  # BM25 scores every posting of every term: this bounds a `max_terms` search
_CHUNK = 500  # stay far below SQLite's host-parameter limit


def _chunks(seq: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for i in range(0, len(seq), _CHUNK):
        yield seq[i : i + _CHUNK]


def _counts_through(cache: dict[str, int], terms: Sequence[str],
                    count: Callable[[Sequence[str]], dict[str, int]]) -> dict[str, int]:
    """Counts of `terms` from `cache`, counting (and keeping) only those it lacks."""
    missing = [t for t in terms if t not in cache]
    if missing:
        cache.update(count(missing))
    return {t: cache[t] for t in terms}


_VERSION_JOINERS = str.maketrans("", "", "\ue000\ue001")  # (`core.keywords.index_term`: FTS5 keeps them in a word)


def _one_fts_word(spelled: str) -> bool:
    """Whether FTS5 keeps an index term whole (letters and digits; a version's joiners): else its vocabulary holds
    only the term's pieces."""
    return spelled.isalnum() or spelled.translate(_VERSION_JOINERS).isalnum()


class RoughCounts:
    """Counts that may lag a little behind the store, for choices that never change a result (which words to search
    by, which entity to walk first): kept until the store has grown or shrunk by 1 % (at least 100 memories)."""

    def __init__(self) -> None:
        self._cache: dict[str, int] = {}
        self._seen_at = 0

    def get(self, keys: Sequence[str], active: int, count: Callable[[Sequence[str]], dict[str, int]]) -> dict[str, int]:
        if abs(active - self._seen_at) > max(100, self._seen_at // 100) or len(self._cache) > 100_000:
            self._cache, self._seen_at = {}, active
        return _counts_through(self._cache, keys, count)


# The keyword index is contentless (m044): it keeps no copy of the text, so removing a row must hand FTS5 exactly the
# values it indexed — recomputed from the row by the same pure function every writer indexes with (core.keywords),
# registered on the connection so one statement unindexes any set of rows. A row is in the index exactly while it is
# an undeleted memory; unindexing anything else would corrupt it.
KEYWORD_SQL_FUNCTIONS = (("mnemon_keywords", 4, keyword_text), ("mnemon_words", 1, keyword_words),
                         ("mnemon_keyword_fingerprint", 0, keyword_fingerprint))
INDEXED = "kind = 'memory' AND deleted_at IS NULL"
_UNINDEX = ("INSERT INTO memory_fts(memory_fts, rowid, body, tags, entities) SELECT 'delete', seq,"
            f" mnemon_keywords({title_of('nodes')}, {text_of('nodes')}, source, {metadata_of('nodes')}), mnemon_words(tags),"
            f" mnemon_words(entities) FROM nodes WHERE {INDEXED} AND ")
_INDEX_ALL = ("INSERT INTO memory_fts(rowid, body, tags, entities) SELECT seq,"
              " mnemon_keywords({title}, {content}, source, {metadata}), mnemon_words(tags), mnemon_words(entities)"
              f" FROM nodes WHERE {INDEXED}")
FINGERPRINT_KEY = "keyword_fingerprint"
CONTENTLESS_KEYWORDS_MIGRATION = (
    "m044_contentless_keywords",
    f"""
    -- the keyword index without its own copy of every indexed text (9 MB of a 2,000-note vault's 109 MB): rows are
    -- unindexed by recomputing their values (text_index_sqlite.KEYWORD_SQL_FUNCTIONS, registered on every connection)
    DROP TABLE memory_fts_vocab;
    DROP TABLE memory_fts;
    CREATE VIRTUAL TABLE memory_fts USING fts5(body, tags, entities, content = '',
                                               tokenize = 'unicode61 remove_diacritics 0');
    CREATE VIRTUAL TABLE memory_fts_vocab USING fts5vocab(memory_fts, 'row');
    {_INDEX_ALL.format(title="title", content="content", metadata="metadata")};  -- (no vault text was packed before m050)
    INSERT INTO meta(key, value) VALUES ('{FINGERPRINT_KEY}', mnemon_keyword_fingerprint())
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
    """,
)
# MNEMON_CHECK_KEYWORDS=1 (the test suite sets it): every FTS body a writer hands in is checked against the row
CHECK_ENV = "MNEMON_CHECK_KEYWORDS"


def register_keyword_functions(conn: sqlite3.Connection) -> None:
    for name, arity, fn in KEYWORD_SQL_FUNCTIONS:
        conn.create_function(name, arity, fn, deterministic=True)


def rebuild_keyword_index(conn: sqlite3.Connection) -> None:
    """Empty the keyword index and index every undeleted memory again from its row (inside the caller's write
    transaction); records the fingerprint it was built under."""
    conn.execute("INSERT INTO memory_fts(memory_fts) VALUES ('delete-all')")
    conn.execute(_INDEX_ALL.format(title=title_of("nodes"), content=text_of("nodes"), metadata=metadata_of("nodes")))
    conn.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                 (FINGERPRINT_KEY, keyword_fingerprint()))


# each MemoryFilter field and the condition it puts on a node row
_FILTER_CONDITIONS = (("kind", "kind = ?"), ("category", "category = ?"), ("source", None),  # (None: `source_is`)
                      ("created_from", "created_at >= ?"), ("created_to", "created_at <= ?"))


def _where(flt: MemoryFilter | None, alias: str = "n") -> tuple[str, list[Any]]:
    """The SQL condition (and its arguments) of a memory filter; no filter means active memories."""
    if flt is None:
        return f"{alias}.deleted_at IS NULL AND {alias}.kind = 'memory'", []
    clauses = [f"{alias}.deleted_at IS NULL"]
    args: list[Any] = []
    for name, condition in _FILTER_CONDITIONS:
        value = getattr(flt, name)
        if value:
            clauses.append(f"{alias}.{condition}" if condition else source_is(value, alias))
            args.append(value)
    if flt.timed_only:
        clauses.append(not_vault(alias))
    if flt.sources:
        clauses.append(source_in(flt.sources, alias))
        args.extend(flt.sources)
    return " AND ".join(clauses), args


# up to this many query entities every set of them is looked up on its own (2^n - 1 walks, each stopping early)
SUBSET_ENTITIES = 4


class SQLiteTextIndex:
    """Mixed into `SQLiteStore` (as `vectors_sqlite` is); uses its connection, `_write`, `count_active` and
    `change_token`, and the document-count caches it sets up."""

    conn: sqlite3.Connection
    _write: Callable[..., Any]
    _write_many: Callable[..., None]
    count_active: Callable[[], int]
    change_token: Callable[[], tuple[int, int]]
    _rough_df: RoughCounts
    _rough_holders: RoughCounts
    _exact_df: dict[str, int]
    _exact_df_token: tuple[int, int] | None

    # ── keyword index upkeep ─────────────────────────────────────────────────
    def _index_keywords(self, rows: Sequence[tuple[int, str | None, str, str, Any, Any, Any, str | None]]) -> None:
        """(seq, title, content, source, metadata, tags, entities, FTS body or None) of memories just written — the
        metadata, tags and entities as values or as their JSON columns — into the keyword index. A given body must be
        `keyword_text` of the row (tokenised ahead, e.g. by a worker process); None computes it here."""
        check = os.environ.get(CHECK_ENV) == "1"
        values = []
        for seq, title, content, source, metadata, tags, entities, body in rows:
            expected = keyword_text(title, content, source, metadata) if body is None or check else body
            if body is not None and body != expected:
                raise StoreError(f"FTS body of {seq} is not keyword_text of its row", body=body, expected=expected)
            values.append((seq, expected, keyword_words(tags), keyword_words(entities)))
        self._write_many("INSERT INTO memory_fts(rowid, body, tags, entities) VALUES (?,?,?,?)", values)

    def _merge_keyword_index(self) -> None:
        """Merge the keyword index into one segment, inside the caller's write transaction. For the end of a bulk
        load: it leaves a few segments of different sizes, and FTS5's next automatic merge (a few small writes
        later) rewrote the largest too, leaving ~2.6 MB of a 2,000-note vault's file as free pages. Merged before
        the load's indexes are rebuilt, the pages it frees are the ones they reuse."""
        self._write("INSERT INTO memory_fts(memory_fts) VALUES ('optimize')")

    def _unindex_keywords(self, seqs: Sequence[int]) -> None:
        """Remove these rows from the keyword index — call before changing or deleting them; rows that are not
        indexed (deleted, not memories) are left alone."""
        for chunk in _chunks(list(seqs)):
            self._write(_UNINDEX + f"seq IN ({','.join('?' * len(chunk))})", list(chunk))

    def _check_keyword_fingerprint(self) -> None:
        """Rebuild the keyword index when it was built by another recipe or tokenizer (a changed stemmer would
        otherwise make every later delete hand FTS5 tokens it never indexed)."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (FINGERPRINT_KEY,)).fetchone()
        if row is not None and row[0] == keyword_fingerprint():
            return
        contentless = self.conn.execute("SELECT 1 FROM migrations WHERE name = ?",
                                        (CONTENTLESS_KEYWORDS_MIGRATION[0],)).fetchone()
        if not contentless:
            return  # an index with its own content (a schema before m044) never needs its values handed back
        with self.transaction():  # type: ignore[attr-defined]
            row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (FINGERPRINT_KEY,)).fetchone()
            if row is None or row[0] != keyword_fingerprint():
                rebuild_keyword_index(self.conn)

    # ── entities and keywords ────────────────────────────────────────────────
    def index_entities(self, node_id: str, entities: Sequence[str], created_at: str) -> None:
        seq = self.conn.execute("SELECT seq FROM nodes WHERE id = ?", (node_id,)).fetchone()[0]
        self._write("DELETE FROM node_entities WHERE node_seq = ?", (seq,))
        self._write_many("INSERT OR IGNORE INTO node_entities(entity, node_seq, created_at) VALUES (?,?,?)",
                         [(e, seq, created_at) for e in dict.fromkeys(entities)])

    def index_entities_of_new(self, rows: Sequence[tuple[str, Sequence[str], str]]) -> None:
        """(node id, entities, created_at) of nodes inserted in this transaction: the bulk form of `index_entities`."""
        seqs: dict[str, int] = {}
        ids = [r[0] for r in rows if r[1]]
        for chunk in _chunks(ids):
            marks = ",".join("?" * len(chunk))
            seqs.update((r[0], r[1]) for r in self.conn.execute(f"SELECT id, seq FROM nodes WHERE id IN ({marks})",
                                                                list(chunk)))
        self._write_many("INSERT OR IGNORE INTO node_entities(entity, node_seq, created_at) VALUES (?,?,?)",
                         [(e, seqs[node_id], created) for node_id, entities, created in rows if entities
                          for e in dict.fromkeys(entities)])

    def entity_holders(self, entity: str, limit: int, exclude: Iterable[str] = (), *,
                       until: str | None = None, after: str | None = None) -> list[str]:
        excluded = set(exclude)
        window = " AND e.created_at <= ?" if until else ""
        order = "DESC"
        if after:
            window, order = window + " AND e.created_at > ?", "ASC"
        rows = self.conn.execute(
            "SELECT n.id FROM node_entities e JOIN nodes n ON n.seq = e.node_seq"
            f" WHERE e.entity = ?{window} AND n.deleted_at IS NULL"
            f" ORDER BY e.created_at {order}, e.node_seq {order} LIMIT ?",
            (entity, *([until] if until else []), *([after] if after else []), limit + len(excluded)),
        )
        return [r[0] for r in rows if r[0] not in excluded][:limit]

    def known_entities(self, candidates: set[str]) -> set[str]:
        found: set[str] = set()
        cands = sorted(candidates)
        for chunk in _chunks(cands):
            marks = ",".join("?" * len(chunk))
            found.update(r[0] for r in self.conn.execute(
                f"SELECT DISTINCT entity FROM node_entities WHERE entity IN ({marks})", list(chunk)))
        return found

    def name_heads(self) -> None:
        return None  # (reading them is a scan: a single write asks every run)

    def entity_name_heads(self) -> set[str]:
        """The first word of every entity of several words (what a run of words naming one starts with)."""
        return {r[0] for r in self.conn.execute(
            "SELECT DISTINCT substr(entity, 1, instr(entity, ' ') - 1) FROM node_entities WHERE instr(entity, ' ') > 0")}

    def memories_with_entities(self, entities: Sequence[str], limit: int,
                               flt: MemoryFilter | None = None) -> list[tuple[str, int]]:
        """Memories holding the most of `entities`, newest first among equals. Only rows that can reach the top
        `limit` are grouped: for each set of the entities, the `limit` newest memories inside the filter holding all
        of it (and any tied with the last of them) — a memory outside those is outranked by `limit` others holding at
        least as many, newer. Each set is one walk down the newest holders of its first entity, stopping at
        `limit` (grouping every holder of two entities cost 13–22 ms at 100k memories with common entities); past
        `SUBSET_ENTITIES` entities the sets are too many and every holder of two or more is grouped instead.
        Relies on node_entities.created_at being its node's created_at, as every writer stores it."""
        ents = list(dict.fromkeys(entities))
        if not ents or limit <= 0:
            return []
        where, args = _where(flt)
        seqs: set[int] = set()
        if len(ents) <= SUBSET_ENTITIES:
            # each set walks down its rarest entity's holders; a set none holds wholly has no superset anyone holds
            holders = self._rough_holder_counts(ents)
            ents_rare = sorted(ents, key=lambda e: (holders[e], e))
            held: set[tuple[str, ...]] = set()
            for size in range(1, len(ents_rare) + 1):
                for group in itertools.combinations(ents_rare, size):
                    if size > 1 and not all(sub in held for sub in itertools.combinations(group, size - 1)):
                        continue
                    found = self._newest_holders_of_all(group, limit, where, args)
                    if found:
                        held.add(group)
                        seqs.update(found)
        else:
            for entity in ents:
                seqs.update(self._newest_holders_of_all((entity,), limit, where, args))
        marks = ",".join("?" * len(ents))
        if len(ents) > SUBSET_ENTITIES:
            seqs.update(r[0] for r in self.conn.execute(
                f"SELECT node_seq FROM node_entities WHERE entity IN ({marks}) GROUP BY node_seq HAVING COUNT(*) > 1",
                ents))
        if not seqs:
            return []
        # driven by the candidate list (CROSS JOIN keeps that order): left to itself SQLite read every holder of the
        # entities and tested each against the list (≈ 45 ms for two common entities at 100k memories, 5 ms so)
        sql = ("SELECT n.id, COUNT(*) AS c, MAX(n.created_at) AS t FROM json_each(?) j"
               f" CROSS JOIN node_entities e ON e.node_seq = j.value AND e.entity IN ({marks})"
               f" JOIN nodes n ON n.seq = e.node_seq WHERE {where}"
               " GROUP BY n.id ORDER BY c DESC, t DESC, n.id LIMIT ?")
        return [(r[0], r[1]) for r in self.conn.execute(sql, [json.dumps(sorted(seqs)), *ents, *args, limit])]

    def _rough_holder_counts(self, entities: Sequence[str]) -> dict[str, int]:
        """How many memories hold each entity, for choosing which one a walk starts from (any order is correct, a
        rarer first is faster): kept, like `_rough_doc_freq`, until the store has grown or shrunk by 1 %."""
        return self._rough_holders.get(entities, self.count_active(), lambda ents: {
            e: self.conn.execute("SELECT COUNT(*) FROM node_entities WHERE entity = ?", (e,)).fetchone()[0]
            for e in ents})

    def _newest_holders_of_all(self, group: Sequence[str], limit: int, where: str, args: list[Any]) -> list[int]:
        """Node seqs of the `limit` newest memories inside the filter holding every entity of `group` (its rarest
        first), and any tied with the last of them: one walk down the first entity's holders, newest first, each
        checked against the others before its node row is read (CROSS JOIN keeps that order)."""
        joins = "".join(f" CROSS JOIN node_entities e{j} ON e{j}.entity = ? AND e{j}.node_seq = e0.node_seq"
                        for j in range(1, len(group)))
        body = (f"FROM node_entities e0{joins} CROSS JOIN nodes n ON n.seq = e0.node_seq"
                f" WHERE e0.entity = ? AND {where}")
        params = [*group[1:], group[0], *args]
        rows = self.conn.execute(f"SELECT e0.node_seq, e0.created_at {body} ORDER BY e0.created_at DESC LIMIT ?",
                                 [*params, limit]).fetchall()
        found = [r[0] for r in rows]
        if len(rows) == limit:  # others may share the last one's time
            found += [r[0] for r in self.conn.execute(f"SELECT e0.node_seq {body} AND e0.created_at = ?",
                                                      [*params, rows[-1][1]])]
        return found

    def top_entities(self, limit: int) -> list[tuple[str, int]]:
        return [(r[0], r[1]) for r in self.conn.execute(
            "SELECT e.entity, COUNT(*) c FROM node_entities e JOIN nodes n ON n.seq = e.node_seq"
            " WHERE n.deleted_at IS NULL GROUP BY e.entity ORDER BY c DESC, e.entity LIMIT ?", (limit,))]

    def keyword_search(self, tokens: Sequence[str], limit: int, flt: MemoryFilter | None = None, *,
                       max_terms: int | None = None, max_postings: int | None = None,
                       doc_freq: Mapping[str, int] | None = None,
                       tag_words: Sequence[str] = ()) -> list[tuple[str, float]]:
        terms = [t.replace('"', '""') for t in dict.fromkeys(tokens) if t]
        if not terms and not tag_words:
            return []
        if len(terms) > 1:
            # terms in more than a quarter of all memories add little to BM25 but make every match expensive to
            # score; keep them only when nothing rarer is left
            active = self.count_active()
            if doc_freq is not None:
                df = dict(doc_freq)
            else:
                df = self.token_doc_freq(terms) if max_terms is None else self._rough_doc_freq(terms, active)
            common = max(50, active // 4)
            rare = [t for t in terms if df.get(t, 0) <= common]
            # a word no memory holds is "rare" too but finds nothing: it never stands for the whole query
            terms = rare if any(df.get(t, 0) for t in rare) else terms
            if max_terms is not None or max_postings is not None:
                terms = rarest_terms(terms, df, max_terms or len(terms), max_postings or KEYWORD_POSTING_BUDGET)
        match = " OR ".join([*(f'"{index_term(t)}"' for t in terms),
                             *('{tags entities} : "' + w.replace('"', '""') + '"' for w in tag_words)])
        try:
            if flt is None or (flt.kind == "memory" and not flt.category and not flt.source and not flt.sources
                               and not flt.created_from and not flt.created_to and not flt.timed_only):
                # the FTS table holds exactly the active memories: rank there, join only the winners
                return [(r[0], float(r[1])) for r in self.conn.execute(
                    "SELECT n.id, h.s FROM (SELECT rowid, -bm25(memory_fts, 1.0, 0.6, 0.6) AS s FROM memory_fts"
                    " WHERE memory_fts MATCH ? ORDER BY s DESC, rowid DESC LIMIT ?) h JOIN nodes n ON n.seq = h.rowid"
                    " ORDER BY h.s DESC, h.rowid DESC", (match, limit))]
            where, args = _where(flt)
            # bm25 is lower-is-better; weights favour body over tags and entities
            sql = (f"SELECT n.id, -bm25(memory_fts, 1.0, 0.6, 0.6) AS s FROM memory_fts JOIN nodes n"
                   f" ON n.seq = memory_fts.rowid WHERE memory_fts MATCH ? AND {where} ORDER BY s DESC, n.seq DESC LIMIT ?")
            return [(r[0], float(r[1])) for r in self.conn.execute(sql, [match, *args, limit])]
        except sqlite3.OperationalError as exc:  # a malformed MATCH must not surface as a traceback
            raise StoreError(f"keyword search failed: {exc}") from exc

    def holders_of_all(self, groups: Sequence[Sequence[str]], limit: int) -> list[str]:
        ands = [" AND ".join(f'"{index_term(t)}"' for t in terms) for group in groups
                if (terms := [t.replace('"', '""') for t in dict.fromkeys(group) if t])]
        if not ands:
            return []
        match = " OR ".join(f"({a})" for a in ands)
        try:  # (the FTS table holds exactly the active memories)
            return [r[0] for r in self.conn.execute(
                "SELECT n.id FROM (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?) h"
                " JOIN nodes n ON n.seq = h.rowid", (match, limit))]
        except sqlite3.OperationalError as exc:
            raise StoreError(f"keyword search failed: {exc}") from exc

    def _rough_doc_freq(self, terms: Sequence[str], active: int) -> dict[str, int]:
        """Document counts that may lag a little behind the store, for choosing which words of a long text to
        search by. Counting reads a term's whole posting list (~9 ms for a handful of common words at 100k
        memories), so counts are kept until the store has grown or shrunk by 1 % — never used for scores."""
        return self._rough_df.get(terms, active, self.token_doc_freq)

    def token_doc_freq(self, tokens: Sequence[str]) -> dict[str, int]:
        """Exact document counts. Counting reads a term's whole posting list (~1.5 ms a recall at 100k memories),
        so counts are kept until the store changes (any write, here or by another process)."""
        terms = list(dict.fromkeys(tokens))
        token = self.change_token()
        if token != self._exact_df_token or len(self._exact_df) > 100_000:
            self._exact_df, self._exact_df_token = {}, token
        return _counts_through(self._exact_df, terms, self._count_docs)

    def _count_docs(self, terms: Sequence[str]) -> dict[str, int]:
        out = dict.fromkeys(terms, 0)
        spelled = {index_term(t): t for t in terms}
        for term in [term for term in spelled if not _one_fts_word(term)]:
            # FTS5 splits it (at a vowel sign, an apostrophe): its vocabulary holds only the pieces, which a search
            # finds as a phrase — counted so, as PostgreSQL counts it
            out[spelled.pop(term)] = self.conn.execute(
                "SELECT count(*) FROM memory_fts WHERE memory_fts MATCH ?", ('"' + term.replace('"', '""') + '"',)
            ).fetchone()[0]
        for chunk in _chunks(list(spelled)):
            marks = ",".join("?" * len(chunk))
            for term, doc in self.conn.execute(
                    f"SELECT term, doc FROM memory_fts_vocab WHERE term IN ({marks})", list(chunk)):
                out[spelled[term]] = int(doc)
        return out
