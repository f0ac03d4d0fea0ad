"""A vault's bookkeeping tables in SQLite (and, through `PostgresVault`, PostgreSQL): its state values, one row per
ingested file, and the relationship ontology. Mixed into `SQLiteVault`, whose connection and writes it uses."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

_CHUNK = 500


def _chunks(seq: Sequence[Any], size: int = _CHUNK) -> Iterable[Sequence[Any]]:
    for i in range(0, len(seq), size):
        yield seq[i : i + size]


class VaultFile(NamedTuple):  # a named tuple: a re-ingest reads every file's row, 2,000 dataclasses cost 15 ms
    path: str
    content_hash: str
    mtime: float
    size: int
    note_id: str
    title: str
    aliases: tuple[str, ...]
    ingested_at: str
    observations: int = 0  # observation and task memories the file contributed
    # every link's lookup key (`NotePlan.link_keys`), as `put_files` writes it; `files()` leaves it out (a re-ingest
    # reads every file's row, and only a rename needs the keys: `link_keys_of`)
    link_keys: tuple[str, ...] = ()


class VaultFilesSQLite:
    conn: Any
    _write: Callable[..., Any]
    _write_many: Callable[..., None]

    # ── state and files ──────────────────────────────────────────────────────
    def get_state(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM vault_state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_state(self, key: str, value: str) -> None:
        self._write("INSERT INTO vault_state(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value))

    def files(self) -> dict[str, VaultFile]:
        # most notes have no aliases: skip the JSON parse for them (a re-ingest reads every row)
        return {r[0]: VaultFile(r[0], r[1], r[2], r[3], r[4], r[5],
                                tuple(json.loads(r[6])) if r[6] and r[6] != "[]" else (), r[7], r[8])
                for r in self.conn.execute("SELECT path, content_hash, mtime, size, note_id, title, aliases, ingested_at,"
                                           " observations FROM vault_files")}

    def link_keys_of(self, paths: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """path → its links' lookup keys (`VaultFile.link_keys`), for the ingested notes among `paths`."""
        out: dict[str, tuple[str, ...]] = {}
        for chunk in _chunks(list(paths)):
            out.update((r[0], tuple(r[1].split("\n")) if r[1] else ()) for r in self.conn.execute(
                f"SELECT path, link_keys FROM vault_files WHERE path IN ({','.join('?' * len(chunk))})", list(chunk)))
        return out

    def note_paths(self) -> list[str]:
        """Vault-relative paths of the ingested notes."""
        return [r[0] for r in self.conn.execute("SELECT path FROM vault_files")]

    def aliased_notes(self) -> list[tuple[str, tuple[str, ...]]]:
        """(title, aliases) of the ingested notes that have front-matter aliases (`core.recall.aliases`)."""
        return [(r[0], tuple(json.loads(r[1])))
                for r in self.conn.execute("SELECT title, aliases FROM vault_files WHERE aliases <> '[]'")]

    def put_files(self, rows: Sequence[VaultFile]) -> None:
        self._write_many(
            "INSERT INTO vault_files(path, content_hash, mtime, size, note_id, title, aliases, ingested_at, observations,"
            " link_keys) VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT(path) DO UPDATE SET content_hash=excluded.content_hash,"
            " mtime=excluded.mtime, size=excluded.size, note_id=excluded.note_id, title=excluded.title,"
            " aliases=excluded.aliases, ingested_at=excluded.ingested_at, observations=excluded.observations,"
            " link_keys=excluded.link_keys",
            [(f.path, f.content_hash, f.mtime, f.size, f.note_id, f.title, json.dumps(list(f.aliases), ensure_ascii=False),
              f.ingested_at, f.observations, "\n".join(f.link_keys)) for f in rows])

    def restamp_files(self, stamps: Sequence[tuple[str, float, int]]) -> None:
        """(path, mtime, size) of files whose bytes are the ones stored under another mtime or size (copied, touched,
        moved with the vault): the next run finds them unchanged without reading them."""
        self._write_many("UPDATE vault_files SET mtime = ?, size = ? WHERE path = ?",
                         [(mtime, size, path) for path, mtime, size in stamps])

    def delete_files(self, paths: Sequence[str]) -> None:
        for chunk in _chunks(list(paths)):
            self._write(f"DELETE FROM vault_files WHERE path IN ({','.join('?' * len(chunk))})", list(chunk))

    # ── ontology ─────────────────────────────────────────────────────────────
    def seed_relationship_types(self, rows: Sequence[dict[str, Any]]) -> None:
        self._write_many(
            "INSERT INTO relationship_types(name, category, inverse, requires_validation, graph, symmetric, transitive,"
            " domain, range, description) VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT(name) DO UPDATE SET"
            " category=excluded.category, inverse=excluded.inverse, requires_validation=excluded.requires_validation,"
            " graph=excluded.graph, symmetric=excluded.symmetric, transitive=excluded.transitive,"
            " domain=excluded.domain, range=excluded.range, description=excluded.description",
            [(r["name"], r["category"], r["inverse"], int(bool(r["requires_validation"])), r["graph"],
              int(bool(r["symmetric"])), int(bool(r["transitive"])), r["domain"], r["range"], r["description"])
             for r in rows])

    def relationship_type(self, name: str) -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT name, category, inverse, requires_validation, graph, symmetric, transitive, domain, range,"
            " description FROM relationship_types WHERE name = ?", (name,)).fetchone()
        if row is None:
            return None
        return {"name": row[0], "category": row[1], "inverse": row[2], "requires_validation": bool(row[3]),
                "graph": row[4], "symmetric": bool(row[5]), "transitive": bool(row[6]), "domain": row[7],
                "range": row[8], "description": row[9]}

    def relationship_type_count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM relationship_types").fetchone()[0])
