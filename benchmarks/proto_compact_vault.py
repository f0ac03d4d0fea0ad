"""Design measurement, not the product: would a *compact vault store* meet cold ingest ≤ 1.5 s and database ≤ 10 MB?

Builds, from the same generated vault as `bench_vault.py`, a throw-away SQLite file laid out as docs/benchmarks.md
("Vault ingestion and `retrieve`") proposes, and measures it next to one real `mnemon` ingest of the same vault:

* `notes`: one row per note, its text zlib-compressed once, plus `items`, a packed array of 10-byte records (kind,
  column, first line, line count, static proactive score) — one per section / bullet / task the real ingest writes
  as a memory — so a hit is cut out of the note without parsing it again; `best` = the note's best bullet score;
* `item_fts`: a contentless FTS5 index over exactly the text the real ingest indexes (`core.keywords.keyword_text`,
  same tokenizer settings), rowid = seq << 12 | item number;
* `links`: note→note wikilinks/Markdown links resolved by the real `LinkIndex`, with the key each was resolved by
  (`link_keys`; an unresolved link points at -key id): a rename finds the notes to relink from it;
* `mentions`: note → date / email / tag (the reverse lookups graph walks need; the structural edges are not stored);
* `bullet_scores`: option (a) of the proactive pass — every bullet's score in an index (option (b) walks `notes.best`);
* `state`: the link index, compressed (a one-note re-ingest resolves its links with it, as the real ingest does).

Everything here is derived with mnemon's real parser, keyword recipe and scorer; nothing under src/ is changed.

    PYTHONPATH=src python benchmarks/proto_compact_vault.py [--notes 2000] [--repeat 2]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import resource
import shutil
import sqlite3
import statistics
import struct
import sys
import tempfile
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "src")]

from bench_vault import _open, make_vault  # noqa: E402
from mnemon.app.vault.ingest import ingest_vault, walk_vault  # noqa: E402
from mnemon.app.vault.plan import _observed_lines, importance_of, normalised_text  # noqa: E402
from mnemon.core.keywords import SKIP_KEY, keyword_text  # noqa: E402
from mnemon.core.text import token_text  # noqa: E402
from mnemon.core.vault import LinkIndex, NoteIdentity, parse_note, placeholder_key  # noqa: E402
from mnemon.core.vault.observations import DEFAULT_HINTS  # noqa: E402
from mnemon.core.vault.parser import _LIST_ITEM, _split_lines  # noqa: E402
from mnemon.core.vault.proactive import static_score, stemmed_hints  # noqa: E402

ITEM = struct.Struct("<BBHHf")  # kind, column of a bullet's text, first line (1-based), line count, static score
SECTION, OBSERVATION, TASK = 0, 1, 2
ITEM_BITS = 12  # FTS rowid = seq << 12 | item number: up to 4,095 items a note
BATCH = 100
PROMPTS = ("battery supplier overdue", "vendor invoice waiting approval", "harbour tide survey schedule")
HINTS = tuple(h.strip().lower() for h in DEFAULT_HINTS if h.strip())
SCHEMA = """
CREATE TABLE notes(seq INTEGER PRIMARY KEY, path TEXT UNIQUE, content_hash BLOB, mtime REAL, title TEXT,
                   aliases TEXT, body BLOB, items BLOB, best REAL);
CREATE INDEX notes_best ON notes(best);
CREATE VIRTUAL TABLE item_fts USING fts5(body, content = '', tokenize = 'unicode61 remove_diacritics 0');
CREATE TABLE links(src INTEGER, dst INTEGER, kind INTEGER, line INTEGER, key INTEGER,
                   PRIMARY KEY(src, dst, kind)) WITHOUT ROWID;
CREATE TABLE link_keys(id INTEGER PRIMARY KEY, key TEXT UNIQUE);
CREATE TABLE terms(id INTEGER PRIMARY KEY, key TEXT UNIQUE);
CREATE TABLE mentions(term INTEGER, seq INTEGER, PRIMARY KEY(term, seq)) WITHOUT ROWID;
CREATE TABLE bullet_scores(score REAL, item INTEGER, PRIMARY KEY(score, item)) WITHOUT ROWID;
CREATE TABLE state(key TEXT PRIMARY KEY, value BLOB);
"""
# What the layout cannot derive: per-edge decisions (killed tombstones, validated/weakened edges, agents' edges,
# their events), keyed by the stable text ids a re-parse recomputes. Empty after a cold ingest; measured per row.
EDGE_STATE = """CREATE TABLE edge_state(src TEXT, dst TEXT, relation TEXT, status TEXT, strength REAL,
    metadata TEXT, updated_at TEXT, PRIMARY KEY(src, dst, relation)) WITHOUT ROWID"""


# ── worker side: one note → the compact rows ─────────────────────────────────────────────────────────────────────
def note_rows(parsed, lines: list[str], hint_tokens: tuple[str, ...]) -> tuple[list[tuple], list[str]]:
    """(item records, their FTS bodies): the memories `app.vault.plan` would write for this note, same dedup."""
    source = f"vault:{parsed.rel_path}"
    seen: set[tuple[str, str]] = set()  # the real ids hash (kind, normalised text): one memory per distinct text
    items: list[tuple] = []
    fts: list[str] = []
    observed = {obs.line for obs in parsed.observations}
    for section in parsed.sections:
        body = section.body.strip()
        key = ("section", normalised_text(body))
        if not body or key in seen:
            continue
        seen.add(key)
        title = " > ".join([parsed.title, *[h for h in section.heading_path if h != parsed.title]])
        skip = _observed_lines(section, body, observed)
        first = section.line_end - body.count("\n")
        items.append((SECTION, 0, first, section.line_end - first + 1, 0.0))
        fts.append(keyword_text(title, body, source, {SKIP_KEY: skip} if skip else None))
    for obs in parsed.observations:
        kind = "task" if obs.source == "task" else "observation"
        key = (kind, normalised_text(obs.text))
        if key in seen:
            continue
        seen.add(key)
        score = static_score(obs.kind or "fact", float(obs.score or importance_of(obs.score)), obs.text,
                             hint_tokens, parsed.note_type, source)
        marker = _LIST_ITEM.match("\n" + lines[obs.line - 1])  # where the parser took the bullet's text from
        column = min(marker.start(5) - 1, 255) if marker else 0
        items.append((TASK if kind == "task" else OBSERVATION, column, obs.line, 1, score))
        fts.append(keyword_text(parsed.title, obs.text, source, None))
    return items, fts


def plan_compact(rel: str, data: bytes, mtime: float, level: int) -> tuple:
    """One note's row values, and the CPU seconds of its three phases (parse, derive rows, compress)."""
    started = time.process_time()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    parsed = parse_note(rel, text, hints=HINTS)
    lines = _split_lines(text)  # what line numbers count: BOM dropped, CR/CRLF folded
    parsed_at = time.process_time()
    items, fts = note_rows(parsed, lines, stemmed_hints(HINTS))
    links = {}
    for link in parsed.wikilinks:
        if not link.is_attachment:
            links.setdefault((placeholder_key(link.target), int(link.is_embed)), link.line)
    for mlink in parsed.markdown_links:
        links.setdefault((placeholder_key(mlink.target), 0), mlink.line)
    mentions = sorted({f"d:{d.iso}" for d in parsed.dates if d.iso} | {f"e:{e.address}" for e in parsed.emails}
                      | {f"t:{t.name}" for t in parsed.tags})
    packed = b"".join(ITEM.pack(*item) for item in items)
    best = max((item[4] for item in items if item[0] != SECTION), default=None)
    derived_at = time.process_time()
    body = zlib.compress("\n".join(lines).encode("utf-8"), level)
    done = time.process_time()
    return (rel, hashlib.sha256(data).digest(), mtime, parsed.title, parsed.aliases, body, packed, best, fts,
            [(key, kind, line) for (key, kind), line in links.items()], mentions,
            (parsed_at - started, derived_at - parsed_at, done - derived_at))


def plan_batch(batch: list[tuple[str, bytes, float]], level: int) -> list[tuple]:
    return [plan_compact(rel, data, mtime, level) for rel, data, mtime in batch]


# ── writer side ──────────────────────────────────────────────────────────────────────────────────────────────────
def cpu_s() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    for pragma in ("busy_timeout = 60000", "foreign_keys = ON", "journal_mode = WAL", "synchronous = NORMAL"):
        conn.execute(f"PRAGMA {pragma}")  # the real store's `_open`
    return conn


def id_of(conn: sqlite3.Connection, table: str, key: str, cache: dict[str, int] | None = None) -> int:
    cache = {} if cache is None else cache
    if key not in cache:
        row = conn.execute(f"SELECT id FROM {table} WHERE key = ?", (key,)).fetchone()
        cache[key] = row[0] if row else conn.execute(f"INSERT INTO {table}(key) VALUES (?)", (key,)).lastrowid
    return cache[key]


def write_note(conn: sqlite3.Connection, seq: int, plan: tuple, terms: dict[str, int] | None = None) -> None:
    rel, digest, mtime, title, aliases, body, packed, best, fts, _links, mentions, _phases = plan
    conn.execute("INSERT INTO notes VALUES (?,?,?,?,?,?,?,?,?)",
                 (seq, rel, digest, mtime, title, json.dumps(aliases) if aliases else None, body, packed, best))
    conn.executemany("INSERT INTO item_fts(rowid, body) VALUES (?,?)",
                     [(seq << ITEM_BITS | i, text) for i, text in enumerate(fts)])
    conn.executemany("INSERT OR IGNORE INTO mentions VALUES (?,?)", [(id_of(conn, "terms", m, terms), seq) for m in mentions])


def write_links(conn: sqlite3.Connection, index: LinkIndex, seqs: dict[str, int], seq: int, links: list,
                keys: dict[str, int] | None = None) -> None:
    rows = []
    for key, kind, line in links:
        path, key_id = index.resolve_key(key), id_of(conn, "link_keys", key, keys)
        dst = seqs[path] if path is not None else -key_id
        if dst != seq:  # a note linking to itself: no edge, as in the real ingest
            rows.append((seq, dst, kind, line, key_id))
    conn.executemany("INSERT OR IGNORE INTO links VALUES (?,?,?,?,?)", rows)


def scores_of(seq: int, packed: bytes) -> list[tuple[float, int]]:
    return [(rec[4], seq << ITEM_BITS | i) for i, rec in enumerate(ITEM.iter_unpack(packed)) if rec[0] != SECTION]


def save_index(conn: sqlite3.Connection, index: LinkIndex) -> None:
    blob = zlib.compress(json.dumps({t: dict(m) for t, m in index.tiers.items()}, separators=(",", ":")).encode())
    conn.execute("INSERT OR REPLACE INTO state VALUES ('link_index', ?)", (blob,))


def build(vault: Path, db: Path, level: int, workers: int = 2) -> dict:
    """Cold ingest into a new file: 2 forked workers parse and derive, this process writes in one transaction."""
    load, wall, cpu, own = os.getloadavg()[0], time.perf_counter(), cpu_s(), time.process_time()
    _root, entries, _skipped = walk_vault(vault)
    items = [(e.rel, Path(e.absolute).read_bytes(), e.mtime) for e in entries]
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    futures = [pool.submit(plan_batch, items[i:i + BATCH], level) for i in range(0, len(items), BATCH)]
    conn = connect(db)
    conn.executescript(SCHEMA)
    conn.execute("BEGIN IMMEDIATE")
    plans: list[tuple] = []
    terms: dict[str, int] = {}
    waited = 0.0
    for future in futures:
        t = time.perf_counter()
        batch = future.result()
        waited += time.perf_counter() - t
        for plan in batch:
            plans.append(plan)
            write_note(conn, len(plans), plan, terms)
    pool.shutdown()  # reaps the workers: their CPU time is now in RUSAGE_CHILDREN
    tail = time.perf_counter()
    seqs = {plan[0]: seq for seq, plan in enumerate(plans, 1)}
    index = LinkIndex.build(NoteIdentity(p[0], p[3], p[4]) for p in plans)
    keys: dict[str, int] = {}
    for seq, plan in enumerate(plans, 1):
        write_links(conn, index, seqs, seq, plan[9], keys)
    conn.execute("CREATE INDEX links_dst ON links(dst, src)")
    save_index(conn, index)
    split = time.perf_counter()  # option (a) of the proactive pass, timed on its own
    conn.executemany("INSERT INTO bullet_scores VALUES (?,?)",
                     [row for seq, plan in enumerate(plans, 1) for row in scores_of(seq, plan[6])])
    scores_s = time.perf_counter() - split
    split = time.perf_counter()
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    commit_s = time.perf_counter() - split
    end = time.perf_counter()
    wall, tail, cpu, own = end - wall, end - tail, cpu_s() - cpu, time.process_time() - own
    conn.close()
    phases = [sum(p[11][i] for p in plans) for i in range(3)]
    return {"wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "load_1m": round(load, 2),
            "worker_cpu_s": {"parse": round(phases[0], 3), "derive_rows": round(phases[1], 3),
                             "compress": round(phases[2], 3)},
            "writer_cpu_s": round(own, 3), "writer_waited_for_workers_s": round(waited, 3),
            "writer_tail_after_last_batch_s": round(tail, 3), "bullet_scores_insert_s": round(scores_s, 3),
            "commit_checkpoint_s": round(commit_s, 3), "db_bytes": file_size(db),
            "body_bytes": sum(len(p[5]) for p in plans), "text_bytes": sum(len(d) for _r, d, _m in items)}


def file_size(db: Path) -> int:
    return sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))


def table_sizes(conn: sqlite3.Connection, top: int = 40) -> dict[str, int]:
    rows = conn.execute("SELECT name, SUM(pgsize) s FROM dbstat GROUP BY name ORDER BY s DESC LIMIT ?", (top,))
    return {name: size for name, size in rows}


# ── reads ────────────────────────────────────────────────────────────────────────────────────────────────────────
def cut(lines: list[str], record: tuple) -> str:
    kind, column, first, count, _score = record
    if kind == SECTION:
        return "\n".join(lines[first - 1:first - 1 + count]).strip()
    return " ".join(lines[first - 1][column:].split())


def hydrate(conn: sqlite3.Connection, rowids: list[int], reparse: bool = False) -> dict[int, str]:
    """rowid → item text: each hit note decompressed once; its spans cut from the packed records (or, to compare,
    found again by parsing the note)."""
    by_note: dict[int, list[int]] = {}
    for rowid in rowids:
        by_note.setdefault(rowid >> ITEM_BITS, []).append(rowid & ((1 << ITEM_BITS) - 1))
    out: dict[int, str] = {}
    marks = ",".join("?" * len(by_note))
    for seq, path, body, packed in conn.execute(f"SELECT seq, path, body, items FROM notes WHERE seq IN ({marks})",
                                                list(by_note)):
        lines = zlib.decompress(body).decode("utf-8").split("\n")
        records = (note_rows(parse_note(path, "\n".join(lines), hints=HINTS), lines, stemmed_hints(HINTS))[0]
                   if reparse else list(ITEM.iter_unpack(packed)))
        for number in by_note[seq]:
            out[seq << ITEM_BITS | number] = cut(lines, records[number])
    return out


def keyword_hits(conn: sqlite3.Connection, prompt: str, limit: int = 20, table: str = "item_fts") -> list[int]:
    """Top rowids by BM25 for every token of the prompt (the real `keyword_search` without its posting budget)."""
    match = " OR ".join(f'"{t}"' for t in dict.fromkeys(token_text(prompt).split()))
    return [r[0] for r in conn.execute(f"SELECT rowid FROM {table} WHERE {table} MATCH ?"
                                       f" ORDER BY bm25({table}), rowid DESC LIMIT ?", (match, limit))]


def best_bullets_packed(conn: sqlite3.Connection, limit: int = 5) -> list[tuple[float, int]]:
    """Option (b): notes best-first by `best`; stop once no unread note can beat the `limit`-th bullet found."""
    found: list[tuple[float, int]] = []
    for seq, best, packed in conn.execute("SELECT seq, best, items FROM notes WHERE best IS NOT NULL"
                                          " ORDER BY best DESC"):
        if len(found) >= limit and found[limit - 1][0] >= best:
            break
        found = sorted(found + scores_of(seq, packed), reverse=True)[:limit]
    return found


def best_bullets_table(conn: sqlite3.Connection, limit: int = 5) -> list[tuple[float, int]]:
    return [(r[0], r[1]) for r in conn.execute("SELECT score, item FROM bullet_scores ORDER BY score DESC, item DESC"
                                               " LIMIT ?", (limit,))]


def reingest(conn: sqlite3.Connection, vault: Path, rel: str) -> None:
    """One changed note: the old FTS rows are deleted with the text recomputed from the stored body (FTS5 'delete'
    needs the exact tokens; SQLite 3.40 has no contentless_delete), then the new rows go in."""
    path = vault / rel
    data = path.read_bytes()
    digest = hashlib.sha256(data).digest()
    seq, old_hash, old_body = conn.execute("SELECT seq, content_hash, body FROM notes WHERE path = ?",
                                           (rel,)).fetchone()
    if digest == old_hash:
        return
    plan = plan_compact(rel, data, path.stat().st_mtime, 6)
    old = plan_compact(rel, zlib.decompress(old_body), 0.0, 1)  # the old FTS bodies: a pure function of the text
    tiers = json.loads(zlib.decompress(conn.execute("SELECT value FROM state WHERE key = 'link_index'").fetchone()[0]))
    index = LinkIndex(tiers={t: {k: tuple(v) for k, v in m.items()} for t, m in tiers.items()})
    seqs = dict(conn.execute("SELECT path, seq FROM notes"))
    conn.execute("BEGIN IMMEDIATE")
    conn.executemany("INSERT INTO item_fts(item_fts, rowid, body) VALUES ('delete', ?, ?)",
                     [(seq << ITEM_BITS | i, text) for i, text in enumerate(old[8])])
    for table, column in (("notes", "seq"), ("links", "src"), ("mentions", "seq")):
        conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (seq,))
    conn.execute("DELETE FROM bullet_scores WHERE item BETWEEN ? AND ?",
                 (seq << ITEM_BITS, ((seq + 1) << ITEM_BITS) - 1))
    write_note(conn, seq, plan)
    write_links(conn, index, seqs, seq, plan[9])
    conn.executemany("INSERT INTO bullet_scores VALUES (?,?)", scores_of(seq, plan[6]))
    conn.execute("COMMIT")  # a changed title or alias would also re-resolve the links naming it (not measured)


def median_ms(fn, runs: int = 20) -> float:
    def once() -> float:
        t = time.perf_counter()
        fn()
        return time.perf_counter() - t
    return round(statistics.median(once() for _ in range(runs)) * 1000, 2)


def reads(db: Path, vault: Path, notes: int) -> dict:
    conn = connect(db)
    out: dict = {"keyword_prompts": {}}
    for prompt in PROMPTS:
        hits = keyword_hits(conn, prompt)
        out["keyword_prompts"][prompt] = {
            "hits": len(hits), "distinct_notes": len({h >> ITEM_BITS for h in hits}),
            "fts_top20_ms": median_ms(lambda: keyword_hits(conn, prompt)),
            "fts_plus_hydrate_packed_ms": median_ms(lambda: hydrate(conn, keyword_hits(conn, prompt))),
            "fts_plus_hydrate_reparse_ms": median_ms(lambda: hydrate(conn, keyword_hits(conn, prompt), True))}
    assert best_bullets_packed(conn) == best_bullets_table(conn)
    out["proactive_best5_packed_notes_best_ms"] = median_ms(lambda: hydrate(conn, [i for _s, i in
                                                                                  best_bullets_packed(conn)]))
    out["proactive_best5_bullet_scores_table_ms"] = median_ms(lambda: hydrate(conn, [i for _s, i in
                                                                                    best_bullets_table(conn)]))
    targets = sorted(p.relative_to(vault).as_posix() for p in vault.rglob("*.md"))
    times = []
    for r in range(20):
        target = vault / targets[r * 7 % notes]
        target.write_text(target.read_text(encoding="utf-8") + f"\n- [ ] Follow up on change {r}\n", encoding="utf-8")
        t = time.perf_counter()
        reingest(conn, vault, targets[r * 7 % notes])
        times.append(time.perf_counter() - t)
    out["reingest_one_changed_ms"] = round(statistics.median(times) * 1000, 2)
    try:  # on a contentless table this checks the index's own structure (there is no content to compare with)
        conn.execute("INSERT INTO item_fts(item_fts) VALUES ('integrity-check')")
        out["fts_integrity_after_reingests"] = "ok"
    except sqlite3.DatabaseError as exc:
        out["fts_integrity_after_reingests"] = str(exc)
    conn.close()
    return out


def check_fidelity(db: Path) -> dict:
    """Every stored record cut from the stored text must equal what a parse of that text gives; and the FTS index
    must hold as many (term, document) pairs as the real one."""
    conn = connect(db)
    mismatches = items = 0
    for path, body, packed in conn.execute("SELECT path, body, items FROM notes"):
        lines = zlib.decompress(body).decode("utf-8").split("\n")
        parsed = parse_note(path, "\n".join(lines), hints=HINTS)
        expected = [s.body.strip() for s in parsed.sections if s.body.strip()] + [o.text for o in parsed.observations]
        got = [cut(lines, rec) for rec in ITEM.iter_unpack(packed)]
        items += len(got)
        mismatches += sum(1 for text in got if text not in expected)
    conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, item_fts, 'row')")
    terms, pairs = conn.execute("SELECT COUNT(*), SUM(doc) FROM temp.v").fetchone()
    conn.close()
    return {"items_checked": items, "span_mismatches": mismatches, "fts_terms": terms, "fts_term_doc_pairs": pairs}


def edge_state_row_bytes(rows: int = 2000) -> float:
    conn = sqlite3.connect(":memory:")
    conn.execute(EDGE_STATE)
    conn.executemany("INSERT INTO edge_state VALUES (?,?,?,?,?,?,?)", [
        (f"note:Projects/battery-supplier-{i}.md", f"vault:Projects/battery-supplier-{i}.md:observation:"
         f"{hashlib.sha1(str(i).encode()).hexdigest()[:16]}", "has_blocker", "killed", 0.0,
         '{"killed_by":"user","reason":"wrong"}', "2026-05-01T10:00:00Z") for i in range(rows)])
    return round(conn.execute("SELECT SUM(pgsize) FROM dbstat").fetchone()[0] / rows, 1)


def real_ingest(vault: Path, work: Path) -> dict:
    """The product's ingest of the same vault (provider none), for the side-by-side counts and sizes."""
    db = work / "real" / "mnemon.db"
    mem = _open(db, "none")
    load, t, cpu = os.getloadavg()[0], time.perf_counter(), cpu_s()
    out = ingest_vault(mem.rt, vault)
    wall, cpu = time.perf_counter() - t, cpu_s() - cpu
    conn = mem.rt.store.conn
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    by_table = dict(conn.execute("SELECT m.tbl_name, SUM(d.pgsize) FROM dbstat d JOIN sqlite_master m"
                                 " ON m.name = d.name GROUP BY m.tbl_name"))
    vocab = conn.execute("SELECT COUNT(*), SUM(doc) FROM memory_fts_vocab").fetchone()
    fts_ms = {p: median_ms(lambda: keyword_hits(conn, p, table="memory_fts")) for p in PROMPTS}
    result = {"wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "load_1m": round(load, 2), "db_bytes": file_size(db),
              "notes": out["notes_total"], "nodes": out["nodes"], "edges": out["edges"],
              "observations": out["observations"],
              "nodes_by_kind": dict(conn.execute("SELECT kind, COUNT(*) FROM nodes GROUP BY kind ORDER BY 2 DESC")),
              "edges_by_type": dict(conn.execute("SELECT type, COUNT(*) FROM edge_rows GROUP BY type ORDER BY 2 DESC")),
              "fts_terms": vocab[0], "fts_term_doc_pairs": vocab[1], "same_fts_top20_query_ms": fts_ms,
              "world_model_bytes": sum(v for k, v in by_table.items() if k.startswith(("sense_", "world_"))),
              "bytes_by_table_with_its_indexes": dict(sorted(by_table.items(), key=lambda kv: -kv[1])[:14])}
    mem.close()
    return result


def real_text_ratio() -> dict:
    """Compressibility of real prose: this repository's own Markdown, one zlib stream per file as in `notes`."""
    files = [p for p in HERE.parent.rglob("*.md") if not {".venv", "build", "node_modules"} & set(p.parts)]
    raw = [p.read_bytes() for p in files]
    return {"files": len(files), "bytes": sum(map(len, raw)),
            **{f"ratio_level{lv}": round(sum(map(len, raw)) / sum(len(zlib.compress(d, lv)) for d in raw), 2)
               for lv in (1, 6)}}


def counts_of(conn: sqlite3.Connection) -> dict:
    one = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
    return {"notes": one("SELECT COUNT(*) FROM notes"),
            "items_fts_rows": one("SELECT SUM(LENGTH(items)) FROM notes") // ITEM.size,
            "bullets_scored": one("SELECT COUNT(*) FROM bullet_scores"), "links": one("SELECT COUNT(*) FROM links"),
            "links_unresolved": one("SELECT COUNT(*) FROM links WHERE dst < 0"),
            "mention_rows": one("SELECT COUNT(*) FROM mentions"), "mention_terms": one("SELECT COUNT(*) FROM terms"),
            "items_blob_bytes": one("SELECT SUM(LENGTH(items)) FROM notes")}


def run(notes: int, repeat: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="mnemon-proto-compact-"))
    try:
        vault = work / "vault"
        vault_bytes = make_vault(vault, notes)
        load_start = round(os.getloadavg()[0], 2)
        builds: dict[int, list[dict]] = {6: [], 1: []}
        for r in range(repeat):  # interleaved, so both levels see the same load
            for level, runs in builds.items():
                (work / f"l{level}r{r}").mkdir()
                runs.append(build(vault, work / f"l{level}r{r}" / "p.db", level))
        db = work / "l6r0" / "p.db"
        conn = connect(db)
        sizes, cold_counts = table_sizes(conn), counts_of(conn)
        free_bytes = conn.execute("SELECT SUM(unused) FROM dbstat").fetchone()[0]
        conn.close()
        latencies = reads(db, vault, notes)  # re-ingests 20 changed notes; the real ingest below sees them changed
        conn = connect(db)
        after_counts = counts_of(conn)
        conn.close()
        real = real_ingest(vault, work)
        level6, level1 = builds[6][0], builds[1][0]
        return {
            "benchmark": "proto_compact_vault", "notes": notes, "vault_bytes": vault_bytes,
            "cpu_count": os.cpu_count(), "sqlite": sqlite3.sqlite_version,
            "load_average_1m_start_end": [load_start, round(os.getloadavg()[0], 2)],
            "cold_build": {f"zlib_level{lv}": runs for lv, runs in builds.items()},
            "compression": {"text_bytes": level6["text_bytes"], "level6_bytes": level6["body_bytes"],
                            "level1_bytes": level1["body_bytes"],
                            "ratio_level6": round(level6["text_bytes"] / level6["body_bytes"], 2),
                            "ratio_level1": round(level1["text_bytes"] / level1["body_bytes"], 2),
                            "real_prose_sample": real_text_ratio()},
            "db_bytes_level6": level6["db_bytes"], "db_bytes_level1": level1["db_bytes"],
            "table_bytes_level6": sizes, "unused_bytes_in_pages_level6": free_bytes,
            "db_bytes_level6_without_bullet_scores": level6["db_bytes"] - sizes.get("bullet_scores", 0),
            "fts_total_bytes": sum(v for k, v in sizes.items() if k.startswith("item_fts")),
            "counts_cold": cold_counts, "counts_after_20_reingests": after_counts,
            "fidelity_after_reingests": check_fidelity(db), "reads": latencies,
            "edge_state_bytes_per_row": edge_state_row_bytes(),
            "real_ingest_after_the_same_20_changes": real,
        }
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=2, help="cold builds per compression level")
    args = parser.parse_args()
    print(json.dumps(run(args.notes, args.repeat), indent=2))


if __name__ == "__main__":
    main()
