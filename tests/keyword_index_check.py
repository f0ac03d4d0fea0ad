"""A check shared by the keyword-index tests: the SQLite store's contentless FTS index holds exactly what the rows'
recomputed keyword text would give a fresh index."""
from __future__ import annotations

import sqlite3
from collections import defaultdict
from typing import Any

from mnemon.core.keywords import keyword_text, keyword_words
from mnemon.ports.store.sqlite import SQLiteStore
from mnemon.ports.store.vault_texts_sqlite import metadata_of, text_of, title_of


def _indexed_rows(conn: sqlite3.Connection) -> dict[int, tuple[Any, ...]]:
    return {r[0]: r[1:] for r in conn.execute(
        f"SELECT seq, {title_of('nodes')}, {text_of('nodes')}, source, {metadata_of('nodes')}, tags, entities"
        " FROM nodes"
        " WHERE kind = 'memory' AND deleted_at IS NULL")}


def assert_index_matches_rows(store: SQLiteStore) -> None:
    """The index holds exactly what a fresh index of the undeleted memories' recomputed values holds — every term with
    the same document and occurrence counts, every body token finding the same rows. A removal that handed FTS5
    other tokens than it had indexed would leave postings or counts behind."""
    conn = store.conn
    conn.execute("INSERT INTO memory_fts(memory_fts) VALUES ('integrity-check')")
    conn.execute("DROP TABLE IF EXISTS temp.ref")
    conn.execute("CREATE VIRTUAL TABLE temp.ref USING fts5(body, tags, entities, tokenize = 'unicode61 remove_diacritics 0')")
    conn.execute("DROP TABLE IF EXISTS temp.ref_vocab")
    conn.execute("CREATE VIRTUAL TABLE temp.ref_vocab USING fts5vocab(temp, ref, 'row')")
    expected: dict[str, set[int]] = defaultdict(set)
    for seq, (title, content, source, metadata, tags, entities) in _indexed_rows(conn).items():
        body = keyword_text(title, content, source, metadata)
        conn.execute("INSERT INTO temp.ref(rowid, body, tags, entities) VALUES (?,?,?,?)",
                     (seq, body, keyword_words(tags), keyword_words(entities)))
        for token in body.split():
            expected[token].add(seq)
    actual_vocab = conn.execute("SELECT term, doc, cnt FROM memory_fts_vocab ORDER BY term").fetchall()
    assert actual_vocab == conn.execute("SELECT term, doc, cnt FROM temp.ref_vocab ORDER BY term").fetchall()
    for token in set(expected) | {r[0] for r in actual_vocab}:
        found = {r[0] for r in conn.execute("SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?",
                                            (f'body : "{token}"',))}
        assert found == expected.get(token, set()), token
    assert not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'memory_fts_content'").fetchone()
