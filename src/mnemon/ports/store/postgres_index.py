"""PostgreSQL backend, part 2: the entity index, keyword search and vectors (mixed into `PostgresStore`).

Keywords: each active memory has one tsvector whose lexemes are the words SQLite's FTS5 index holds (`fts_words`:
our tokenizer's tokens for the body, tags and entities as written, each split as FTS5's unicode61 splits it; body at
weight A, tags and entities at weight B — SQLite's bm25 column weights 1.0 / 0.6 / 0.6), written as a tsvector
literal so no PostgreSQL parser or dictionary re-splits them. A search ranks each matching memory by
Σ idf(term) · ts_rank(term): BM25's inverse document frequency over ts_rank's saturating term frequency, so a rare
word outweighs a common one as it does with FTS5's bm25 (the same memories, not the same scores). Ties fall to the
newer memory, as on SQLite.
"""
from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...core.errors import StoreError
from ...core import keywords
from ...core.keywords import index_term, keyword_fingerprint, keyword_text_of, keyword_words
from ...core.model import Memory
from ...core.text import rarest_terms
from .sqlite import _NODE_COLS, KEYWORD_POSTING_BUDGET, _node

if TYPE_CHECKING:
    import numpy as np

from .base import MemoryFilter
from .sources import not_vault
from .vectors_sqlite import dominant_width, refuse_other_width

_NODE_COLS_N = ", ".join("n." + c.strip() for c in _NODE_COLS.split(","))
_MAX_LEXEME_BYTES = 2046  # PostgreSQL refuses longer lexemes; a longer token is indexed and searched by its prefix
_MAX_POSITION = 16383  # larger positions are stored as 16383 by PostgreSQL anyway
_MAX_POSITIONS_PER_LEXEME = 256
_RANK_WEIGHTS = "{0.1, 0.2, 0.6, 1.0}"  # ts_rank weights for D, C, B, A
_ASCII_WORD = re.compile("[a-z0-9]+")
# how `tsvector_literal` spells a document: a new spelling (or a new `keyword_fingerprint`: tokenizer, stemmer)
# makes the next writable open rebuild every document, as SQLite rebuilds its FTS index
_DOC_RECIPE = "pg-doc/2 unicode61 words"
_REBUILD_ROWS = 2000


def _lexeme(term: str) -> str:
    """A quoted tsvector/tsquery lexeme: any text, quotes and backslashes included, is taken literally."""
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def folded(expr: str, server_version: int) -> str:
    """SQL folding the text `expr` as `sqlite.fold_case` does: lower() under "pg_c_utf8" (Unicode's simple mapping,
    whatever the database's locale; the same as Python's for every character Python's Unicode tables know) from
    PostgreSQL 17 — before it, the database's own lower() — then ς read as σ."""
    collate = ' COLLATE "pg_c_utf8"' if server_version >= 170000 else ""
    return f"replace(lower({expr}{collate}), 'ς', 'σ')"


def _idf(total: int, holders: int) -> float:
    """FTS5's bm25 idf: a word more than half the memories hold weighs (almost) nothing, as on SQLite — with
    Lucene's always-positive variant it still ordered the keyword hits of a common word, and recall with them.
    A replay's counts (`retrieve --as-of`) hold the rows forgotten since, which today's total does not: more holders
    than memories weigh as all of them do (the logarithm of a negative number failed the whole retrieve)."""
    holders = min(holders, total)
    return max(1e-6, math.log((total - holders + 0.5) / (holders + 0.5)))


def recipe_number() -> int:
    """The rank of the keyword documents this mnemon writes: `keywords/N` (the tokenizer's recipe) and `pg-doc/M`
    (their spelling) as N·1000 + M. A writable open rebuilds documents of a lower rank only: two versions on one
    schema, each rebuilding whatever the other wrote, re-tokenised every memory on every command of either."""
    def number(recipe: str) -> int:
        return int(recipe.split("/", 1)[1].split()[0])
    return number(keywords.KEYWORD_RECIPE) * 1000 + number(_DOC_RECIPE)


def refuse_a_newer_recipe(path: str, stored: int | None) -> None:
    """Documents of a newer mnemon's recipe: one written by this older mnemon would hold tokens the newer one's
    searches do not make, and nothing would rebuild it (the recorded recipe is the newer one's)."""
    mine = recipe_number()
    if stored is not None and int(stored) > mine:
        raise StoreError(f"the keyword index of {path} was rebuilt by a newer mnemon (keyword recipe {int(stored)}, "
                         f"this one writes {mine}): writing with this older one would leave memories its searches "
                         "miss; upgrade mnemon (or open it --readonly)",
                         path=path, keyword_recipe={"store": int(stored), "this_mnemon": mine})


def _fingerprint_number() -> int:
    digest = hashlib.blake2b(f"{keyword_fingerprint()}|{_DOC_RECIPE}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)  # meta.value is a BIGINT


def _usable(term: str) -> bool:
    return bool(fts_words(index_term(term)))


_WORD_CATEGORIES = ("L", "N", "M")  # and "Co": the characters unicode61 keeps inside a word (the rest separate words)


def _fold(ch: str) -> str:
    folded_ch = ch.casefold()
    if len(folded_ch) == 1:
        return folded_ch
    lower = ch.lower()
    return lower if len(lower) == 1 else ch  # unicode61 maps one character to one ("ß" stays, "İ" stays)


def _fold_word(word: str) -> str:
    whole = word.casefold()  # no character folds to nothing: the same length means one for one, as `_fold`
    return whole if len(whole) == len(word) else "".join(map(_fold, word))


def fts_words(text: str) -> list[str]:
    """The words SQLite's FTS5 tokenizer (`unicode61 remove_diacritics 0`) makes of `text`: runs of letters, digits,
    marks and private-use characters, each character folded on its own. SQLite splits every column so — our tokens
    too (an apostrophe inside one separates two words) and tags and entities as written, unstemmed — and a search
    must find what SQLite's finds. (SQLite's Unicode tables are older: a few rare characters split differently.)"""
    if text.isascii():  # the common case (vault ingestion indexes megabytes): runs of letters and digits
        return _ASCII_WORD.findall(text.lower())
    words: list[str] = []
    for piece in text.split():
        if piece.isalnum():  # letters and digits only (a CJK bigram, an accented word): one word
            words.append(_fold_word(piece))
            continue
        word: list[str] = []
        for ch in piece:
            category = unicodedata.category(ch)
            if category[0] in _WORD_CATEGORIES or category == "Co":
                word.append(_fold(ch))
            elif word:
                words.append("".join(word))
                word = []
        if word:
            words.append("".join(word))
    return words


def _query(term: str) -> str:
    """The tsquery of one query token: its word, or the phrase of its words as FTS5 reads a quoted term."""
    return _phrase([_lexeme(_indexed(w)) for w in fts_words(index_term(term))])


def _phrase(lexemes: Sequence[str]) -> str:
    return lexemes[0] if len(lexemes) == 1 else "(" + " <-> ".join(lexemes) + ")"


def _tag_query(word: str) -> str:
    """The tsquery of a word as a tag or an entity holds it (weight B, unstemmed), as FTS5 reads
    `{tags entities} : "word"`; "" when it holds no word."""
    words = [_lexeme(_indexed(w)) + ":B" for w in fts_words(word)]
    return _phrase(words) if words else ""


def _indexed(term: str) -> str:
    """The lexeme that stands for `term`: the term, or — over PostgreSQL's lexeme limit — its start and a digest of
    it, in the index and in a query alike, so a search finds every token SQLite's index holds (such a token was once
    left out of the index here) and two long tokens that differ only at their ends stay two words."""
    if len(term) * 4 <= _MAX_LEXEME_BYTES:  # (no character takes more than 4 bytes)
        return term
    encoded = term.encode("utf-8")
    if len(encoded) <= _MAX_LEXEME_BYTES:
        return term
    digest = hashlib.blake2b(encoded, digest_size=8).hexdigest()
    return encoded[:_MAX_LEXEME_BYTES - len(digest) - 1].decode("utf-8", "ignore") + "#" + digest


def tsvector_literal(body: str, tags: Sequence[str], entities: Sequence[str]) -> str:
    """The keyword document of a memory: `body` is already tokenizer output (space-separated); the body, the tags
    and the entities are split into words as SQLite's FTS5 splits its three columns (`fts_words`). A position is
    left out between the three, so a phrase never spans two of them (it cannot span FTS5 columns)."""
    positions: dict[str, list[str]] = {}
    pos = 0
    for weight, text in (("A", body), ("B", keyword_words(tags)), ("B", keyword_words(entities))):
        for word in fts_words(text):
            pos += 1
            slots = positions.setdefault(_indexed(word), [])
            if len(slots) < _MAX_POSITIONS_PER_LEXEME:
                slots.append(f"{min(pos, _MAX_POSITION)}{weight}")
        pos += 1
    return " ".join(f"{_lexeme(word)}:{','.join(slots)}" for word, slots in positions.items())


def memory_where(flt: MemoryFilter | None, alias: str = "n") -> tuple[str, list[Any]]:
    """SQL conditions of a MemoryFilter (no filter = active memories), as in the SQLite backend."""
    clauses = [f"{alias}.deleted_at IS NULL"]
    args: list[Any] = []
    if flt is None:
        clauses.append(f"{alias}.kind = 'memory'")
        return " AND ".join(clauses), args
    for condition, value in (("kind = %s", flt.kind), ("category = %s", flt.category), ("source = %s", flt.source),
                             # a period (main's MemoryFilter has these fields; read so the merge needs no change)
                             ("created_at >= %s", getattr(flt, "created_from", None)),
                             ("created_at <= %s", getattr(flt, "created_to", None))):
        if value:
            clauses.append(f"{alias}.{condition}")
            args.append(value)
    if flt.timed_only:
        clauses.append(not_vault(alias))
    if flt.sources:
        clauses.append(f"{alias}.source = ANY(%s)")
        args.append(list(flt.sources))
    return " AND ".join(clauses), args


class IndexTables:
    """Entities, keywords and vectors of a `PostgresStore` (which provides `_rows`, `_value`, `_write` …)."""

    conn: Any
    _rows: Any
    _value: Any
    _write: Any
    _write_many: Any
    _bump_vector_generation: Any
    count_active: Any
    transaction: Any

    # ── keyword documents ───────────────────────────────────────────────────
    def _check_keyword_fingerprint(self) -> None:
        """Rebuild every keyword document when they were written under another recipe: query tokens are made by the
        running code, so documents of an older tokenizer or spelling would silently stop matching (documents of the
        first recipe held apostrophe words whole and stemmed tags and entities). `meta` holds numbers: a digest."""
        wanted = _fingerprint_number()
        if self._value("SELECT value FROM meta WHERE key = 'keyword_fingerprint'") == wanted:
            return
        # writers queue (advisory lock): one process rebuilds, the next sees it done; an older mnemon than the one
        # that rebuilt is refused there (`refuse_a_newer_recipe`) instead of rebuilding them back
        with self.transaction():
            if self._value("SELECT value FROM meta WHERE key = 'keyword_fingerprint'") == wanted:
                return
            self._write("DELETE FROM memory_fts")
            after = 0
            while rows := self._rows(f"SELECT {_NODE_COLS}, seq FROM nodes WHERE seq > %s AND kind = 'memory'"
                                     f" AND deleted_at IS NULL ORDER BY seq LIMIT %s", (after, _REBUILD_ROWS)):
                self._write_many("INSERT INTO memory_fts(node_seq, doc) VALUES (%s, %s::tsvector)",
                                 [(r[-1], tsvector_literal(keyword_text_of(n), n.tags, n.entities))
                                  for r in rows for n in (_node(r),)])
                after = rows[-1][-1]
            self._write("INSERT INTO meta(key, value) VALUES ('keyword_fingerprint', %s), ('keyword_recipe', %s)"
                        " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (wanted, recipe_number()))

    # ── entities ─────────────────────────────────────────────────────────────
    def index_entities(self, node_id: str, entities: Sequence[str], created_at: str) -> None:
        seq = self._value("SELECT seq FROM nodes WHERE id = %s", (node_id,))
        self._write("DELETE FROM node_entities WHERE node_seq = %s", (seq,))
        self._insert_entities([(e, seq, created_at) for e in dict.fromkeys(entities)])

    def index_entities_of_new(self, rows: Sequence[tuple[str, Sequence[str], str]]) -> None:
        """(node id, entities, created_at) of nodes inserted in this transaction: the bulk form of `index_entities`."""
        seqs = dict(self._rows("SELECT id, seq FROM nodes WHERE id = ANY(%s)", ([r[0] for r in rows if r[1]],)))
        self._insert_entities([(e, seqs[node_id], created) for node_id, entities, created in rows if entities
                               for e in dict.fromkeys(entities)])

    def _insert_entities(self, rows: list[tuple[str, int, str]]) -> None:
        if rows:
            self._write("INSERT INTO node_entities(entity, node_seq, created_at)"
                        " SELECT * FROM unnest(%s::text[], %s::bigint[], %s::text[]) ON CONFLICT DO NOTHING",
                        ([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]))

    def entity_holders(self, entity: str, limit: int, exclude: Iterable[str] = (), *,
                       until: str | None = None, after: str | None = None) -> list[str]:
        excluded = set(exclude)
        window = " AND e.created_at <= %s" if until else ""
        order = "DESC"
        if after:
            window, order = window + " AND e.created_at > %s", "ASC"
        rows = self._rows(
            "SELECT n.id FROM node_entities e JOIN nodes n ON n.seq = e.node_seq"
            f" WHERE e.entity = %s{window} AND n.deleted_at IS NULL"
            f" ORDER BY e.created_at {order}, e.node_seq {order} LIMIT %s",
            (entity, *([until] if until else []), *([after] if after else []), limit + len(excluded)))
        return [r[0] for r in rows if r[0] not in excluded][:limit]

    def known_entities(self, candidates: set[str]) -> set[str]:
        return {r[0] for r in self._rows("SELECT DISTINCT entity FROM node_entities WHERE entity = ANY(%s)",
                                         (sorted(candidates),))}

    def name_heads(self) -> None:
        return None  # (reading them is a scan: a single write asks every run)

    def entity_name_heads(self) -> set[str]:
        return {r[0] for r in self._rows("SELECT DISTINCT split_part(entity, ' ', 1) FROM node_entities"
                                         " WHERE position(' ' in entity) > 0")}

    def memories_with_entities(self, entities: Sequence[str], limit: int,
                               flt: MemoryFilter | None = None) -> list[tuple[str, int]]:
        if not entities:
            return []
        where, args = memory_where(flt)
        return [(r[0], int(r[1])) for r in self._rows(
            "SELECT n.id, COUNT(*) AS c, MAX(n.created_at) AS t FROM node_entities e JOIN nodes n ON n.seq = e.node_seq"
            f" WHERE e.entity = ANY(%s) AND {where} GROUP BY n.id ORDER BY c DESC, t DESC, n.id LIMIT %s",
            [list(entities), *args, limit])]

    def top_entities(self, limit: int) -> list[tuple[str, int]]:
        return [(r[0], int(r[1])) for r in self._rows(
            "SELECT e.entity, COUNT(*) c FROM node_entities e JOIN nodes n ON n.seq = e.node_seq"
            " WHERE n.deleted_at IS NULL GROUP BY e.entity ORDER BY c DESC, e.entity LIMIT %s", (limit,))]

    # ── keywords ─────────────────────────────────────────────────────────────
    def keyword_search(self, tokens: Sequence[str], limit: int, flt: MemoryFilter | None = None, *,
                       max_terms: int | None = None, max_postings: int | None = None,
                       doc_freq: Mapping[str, int] | None = None,
                       tag_words: Sequence[str] = ()) -> list[tuple[str, float]]:
        terms = [t for t in dict.fromkeys(tokens) if _usable(t)]
        tag_queries = [q for q in dict.fromkeys(map(_tag_query, tag_words)) if q]
        if not terms and not tag_queries:
            return []
        df = {t: int(doc_freq.get(t, 0)) for t in terms} if doc_freq is not None else self.token_doc_freq(terms)
        total = self.count_active()
        if len(terms) > 1:
            # as on SQLite: terms in more than a quarter of all memories add little; keep them only when nothing
            # rarer is left, and bound a long text's terms by their postings
            common = max(50, total // 4)
            rare = [t for t in terms if df[t] <= common]
            terms = rare if any(df[t] for t in rare) else terms  # a word no memory holds finds nothing
            if max_terms is not None or max_postings is not None:
                terms = rarest_terms(terms, df, max_terms or len(terms), max_postings or KEYWORD_POSTING_BUDGET)
        # a word as a tag holds it, ranked as a term of its own (FTS5's bm25 reads it as one more phrase)
        queries = [(_query(t), df[t]) for t in terms if df[t] > 0]
        queries += [(q, c) for q, c in zip(tag_queries, self._doc_counts(tag_queries)) if c > 0]
        if not queries:
            return []
        n = max(total, 1)
        score = " + ".join(["%s * ts_rank(%s::float4[], f.doc, %s::tsquery, 1)"] * len(queries))
        score_args: list[Any] = []
        for query, holders in queries:
            score_args += [_idf(n, holders), _RANK_WEIGHTS, query]
        where, args = memory_where(flt)
        try:
            return [(r[0], float(r[1])) for r in self._rows(
                f"SELECT n.id, {score} AS s FROM memory_fts f JOIN nodes n ON n.seq = f.node_seq"
                f" WHERE f.doc @@ %s::tsquery AND {where} ORDER BY s DESC, n.seq DESC LIMIT %s",
                [*score_args, " | ".join(q for q, _ in queries), *args, limit])]
        except Exception as exc:  # a term PostgreSQL still refuses must not surface as a traceback
            raise StoreError(f"keyword search failed: {exc}") from exc

    def holders_of_all(self, groups: Sequence[Sequence[str]], limit: int) -> list[str]:
        ands = [" & ".join(_query(t) for t in terms) for group in groups
                if (terms := [t for t in dict.fromkeys(group) if _usable(t)])]
        if not ands:
            return []
        where, args = memory_where(None)
        try:
            return [r[0] for r in self._rows(
                f"SELECT n.id FROM memory_fts f JOIN nodes n ON n.seq = f.node_seq WHERE f.doc @@ %s::tsquery"
                f" AND {where} LIMIT %s", [" | ".join(f"({a})" for a in ands), *args, limit])]
        except Exception as exc:  # a term PostgreSQL still refuses must not surface as a traceback
            raise StoreError(f"keyword search failed: {exc}") from exc

    def token_doc_freq(self, tokens: Sequence[str]) -> dict[str, int]:
        terms = list(dict.fromkeys(tokens))
        out = dict.fromkeys(terms, 0)
        usable = [t for t in terms if _usable(t)]
        out.update(zip(usable, self._doc_counts([_query(t) for t in usable])))
        return out

    def _doc_counts(self, queries: Sequence[str]) -> list[int]:
        """How many memories match each tsquery, in order."""
        if not queries:
            return []
        rows = self._rows(
            "SELECT u.i, (SELECT COUNT(*) FROM memory_fts WHERE doc @@ u.q) FROM unnest(%s::text[]::tsquery[])"
            " WITH ORDINALITY AS u(q, i)", (list(queries),))
        counts = [0] * len(queries)
        for i, count in rows:
            counts[int(i) - 1] = int(count)
        return counts

    def like_search(self, text: str, limit: int) -> list[Memory]:
        # both sides folded as SQLite folds them (not ILIKE, whose folding follows the database's locale)
        pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        version = self.conn.info.server_version
        return [_node(r) for r in self._rows(
            f"SELECT {_NODE_COLS} FROM nodes WHERE deleted_at IS NULL AND kind = 'memory'"
            f" AND {folded('content', version)} LIKE {folded('%s::text', version)} ESCAPE '\\'"
            " ORDER BY importance DESC, created_at DESC, id LIMIT %s", (pattern, limit))]

    # ── vectors ──────────────────────────────────────────────────────────────
    def put_vector(self, node_id: str, provider: str, vector: np.ndarray, digest: str, when: str) -> None:
        import numpy as np

        vec = np.ascontiguousarray(vector, dtype=np.float32)
        refuse_other_width(self, provider, int(vec.shape[0]), self.vector_width)
        self._write(
            "INSERT INTO vectors(node_seq, provider, dim, content_hash, vec, created_at)"
            " SELECT seq, %s, %s, %s, %s, %s FROM nodes WHERE id = %s ON CONFLICT (node_seq, provider) DO UPDATE SET"
            " dim = excluded.dim, content_hash = excluded.content_hash, vec = excluded.vec,"
            " created_at = excluded.created_at",  # this provider's vector of the node: another provider's stays
            (provider, int(vec.shape[0]), digest, vec, when, node_id))
        self._bump_vector_generation()

    def load_vectors(self, provider: str) -> tuple[list[str], np.ndarray]:
        import numpy as np

        with self.conn.cursor(binary=True) as cur:  # binary: float4 bytes, no text parsing per element
            rows = cur.execute(
                "SELECT n.id, v.vec, v.dim FROM vectors v JOIN nodes n ON n.seq = v.node_seq WHERE v.provider = %s"
                " AND n.deleted_at IS NULL AND v.content_hash = n.content_hash ORDER BY n.seq", (provider,)).fetchall()
        if not rows:
            return [], np.zeros((0, 0), dtype=np.float32)
        if any(r[2] != rows[0][2] for r in rows):
            dim = dominant_width([r[2] for r in rows])
            rows = [r for r in rows if r[2] == dim]
        return [r[0] for r in rows], np.stack([r[1].to_numpy() for r in rows]).astype(np.float32, copy=False)

    def vector_width(self, provider: str) -> int | None:
        """The width of this provider's stored vectors (None: it has none)."""
        value = self._value("SELECT dim FROM vectors WHERE provider = %s LIMIT 1", (provider,))
        return None if value is None else int(value)

    def vector_generation(self) -> int:
        return int(self._value("SELECT value FROM meta WHERE key = 'vector_generation'"))

    def renew_vector_generation(self) -> None:
        self._bump_vector_generation()

    def vector_state(self) -> None:
        """No copy of a server's vectors is saved beside anything: every process reads them from the server."""
        return None

    def vector_coverage(self, provider: str) -> tuple[int, int]:
        embedded = self._value(
            "SELECT COUNT(*) FROM vectors v JOIN nodes n ON n.seq = v.node_seq WHERE v.provider = %s"
            " AND n.deleted_at IS NULL AND n.kind = 'memory' AND v.content_hash = n.content_hash", (provider,))
        return int(embedded), self.count_active()

    def vector_providers(self) -> dict[str, int]:
        return {r[0]: int(r[1]) for r in self._rows(
            "SELECT v.provider, COUNT(*) FROM vectors v JOIN nodes n ON n.seq = v.node_seq"
            " WHERE n.deleted_at IS NULL GROUP BY v.provider ORDER BY v.provider")}

    def nodes_missing_vectors(self, provider: str) -> list[Memory]:
        return [_node(r) for r in self._rows(
            f"SELECT {_NODE_COLS_N} FROM nodes n LEFT JOIN vectors v ON v.node_seq = n.seq"
            " AND v.provider = %s AND v.content_hash = n.content_hash"
            " WHERE n.deleted_at IS NULL AND n.kind = 'memory' AND v.node_seq IS NULL ORDER BY n.seq", (provider,))]
