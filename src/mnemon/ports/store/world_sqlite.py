"""World-model tables on SQLite: state assertions, predictions, sense events, actions, aliases and their audit.

Rows go in and come out as the plain dicts the pure core produces (`to_row()`) and reads (`from_row()`); the store
adds only the columns it filters on. Nothing here decides anything: gates, transitions and supersession live in
`mnemon.core.world`. These tables are durable — vault rebuilds never touch them; only `forget_scope` (an explicit
scoped forget) deletes from them.

Writes go through the owning `SQLiteStore` (`_write`, `transaction()`), so they share its lock, its read-only guard
and its nestable transactions. `mnemon export` reads every table a page at a time (`export_page`), and its restore
writes rows once, through the same column builders as the services' writes (`restore_values`, `insert_restored`).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...core.model import Edge
from ...core.world.values import KEY_MAX_BYTES, PREDICATE_MAX_BYTES, SUBJECT_MAX_BYTES, check_key
from .coded_edges_sqlite import STORED_FACTS, codes_edges
from .contained_sqlite import CONTAINED_FACTS
from .sources import in_scope, scope_args

if TYPE_CHECKING:  # the store imports this module lazily; a runtime import back would be a cycle
    from .sqlite import SQLiteStore

_TABLES = ("world_state_assertions", "world_predictions", "sense_events", "world_actions", "entity_aliases",
           "world_events")


# Migration m060. Subjects, predicates and alias keys are NFC-normalised when written (`values.norm_name`); a row
# written before that keeps the spelling it was typed in, so "José" typed composed and decomposed can be two subjects,
# each with a value of its own in force. Merging them needs the world model's chain rules, which SQL has not got:
# the step only marks a store that holds world rows, and the world layer rewrites them the first time a writable
# process uses the world tables (`app/world/keys.py`, through `nfc_keys_pending` / `finish_nfc_keys`). The mark is
# an audit entry, so the upgrade is recorded where every world write is.
_NFC_KEYS = "nfc_keys"


def _nfc_keys_marked(now_sql: str) -> str:
    return ("INSERT INTO world_events(event, target, target_id, detail, created_at)"
            f" SELECT 'upgrade_pending', 'store', '{_NFC_KEYS}', '{{}}', {now_sql}"
            " WHERE EXISTS (SELECT 1 FROM world_state_assertions) OR EXISTS (SELECT 1 FROM entity_aliases);")


WORLD_NFC_KEYS_MIGRATION = ("m060_world_nfc_keys", _nfc_keys_marked("strftime('%Y-%m-%dT%H:%M:%S+00:00', 'now')"))
WORLD_NFC_KEYS_MIGRATION_POSTGRES = (
    WORLD_NFC_KEYS_MIGRATION[0],
    _nfc_keys_marked("""to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')"""))
# Migration m065. A predicate is spelt as a relation name (`assertions.normalise_predicate`: "located-in" is
# located_in, as `resolve` writes it); a row `state assert` wrote before kept its punctuation, a predicate of its own.
# So is a subject or named object given as one wikilink ("[[Acme]]" is Acme, as a resolve claim's is). The store
# is marked again, and the same upgrade respells its rows and re-chains what the two spellings had split.
WORLD_PREDICATE_NAMES_MIGRATION = ("m065_world_predicate_names", WORLD_NFC_KEYS_MIGRATION[1])
WORLD_PREDICATE_NAMES_MIGRATION_POSTGRES = ("m065_world_predicate_names", WORLD_NFC_KEYS_MIGRATION_POSTGRES[1])


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


# fields of a sense event that `sense_events` keeps in columns of their own: its `data` leaves them out, and an empty
# `text` (every vault note's event: its text is read from the note), and a read puts them back. A row written whole
# (before) reads the same: the columns hold the same values.
_SENSE_COLUMNS = ("id", "sense_type", "source_id", "origin", "observed_at")
_SENSE_SELECT = "data, " + ", ".join(_SENSE_COLUMNS)


def _sense_data(row: Mapping[str, Any]) -> str:
    return _dump({key: value for key, value in row.items()
                  if key not in _SENSE_COLUMNS and not (key == "text" and not value)})


def _sense_row(found: Sequence[Any]) -> dict[str, Any]:
    """A sense event row from `_SENSE_SELECT`'s columns."""
    row = json.loads(found[0])
    row.update(zip(_SENSE_COLUMNS, found[1:]))
    row.setdefault("text", "")
    return row


# byte limits of the world columns an index holds (others: KEY_MAX_BYTES); None: a column of its own no index holds
_LIMITS: dict[str, int | None] = {"subject_norm": SUBJECT_MAX_BYTES, "alias_norm": SUBJECT_MAX_BYTES,
                                  "canonical_norm": SUBJECT_MAX_BYTES, "predicate": PREDICATE_MAX_BYTES,
                                  "source_id": None, "source_edge_id": None, "source_action_id": None}


def _keys(what: str, **columns: Any) -> None:
    """Refuse (`InvalidInput`) a row whose indexed text columns one of the backends cannot store: NUL, or longer than
    a PostgreSQL b-tree entry allows. The one check every world write passes, so SQLite and PostgreSQL answer alike
    (the payload parsers check most of these first, with the payload's field names)."""
    for column, value in columns.items():
        if isinstance(value, str):
            check_key(value, column, what, _LIMITS.get(column, KEY_MAX_BYTES))


# Each table's row as the columns it is written to: one place for a service's upsert (`put_*`) and a restore's
# insert-once (`restore_values` / `insert_restored`), so a restored row is stored exactly as the service stores it.
# Each builder refuses (`_keys`) what one of the backends cannot store.
_INSERTS = {
    "assertions": "world_state_assertions(id, subject_norm, predicate, status, state_type, source_path,"
                  " source_edge_id, valid_until, data, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
    "predictions": "world_predictions(id, status, sense_type, check_after, expires_at, subject_assertion_id,"
                   " source_action_id, source_path, data, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
    "sense_events": "sense_events(id, sense_type, source_id, origin, observed_at, source_path, data, recorded_at)"
                    " VALUES (?,?,?,?,?,?,?,?)",
    "actions": "world_actions(id, actor, status, source_path, data, created_at, recorded_at) VALUES (?,?,?,?,?,?,?)",
    "aliases": "entity_aliases(alias_norm, alias_name, canonical_name, canonical_norm, source, confidence,"
               " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?)",
    "events": "world_events(event, target, target_id, detail, created_at) VALUES (?,?,?,?,?)",
}


def _assertion_values(row: Mapping[str, Any], subject_norm: str) -> tuple[Any, ...]:
    _keys("assertion", id=row["id"], subject_norm=subject_norm, predicate=row["predicate"],
          source_path=row.get("source_path"), source_edge_id=row.get("source_edge_id"))
    return (row["id"], subject_norm, row["predicate"], row["status"], row.get("state_type") or "belief",
            row.get("source_path") or "", row.get("source_edge_id"), row.get("valid_until"), _dump(row),
            row["created_at"], row.get("updated_at") or row["created_at"])


def _prediction_values(row: Mapping[str, Any], source_path: str) -> tuple[Any, ...]:
    match = row.get("match_json") or {}
    _keys("prediction", id=row["id"], subject_assertion_id=row.get("subject_assertion_id"),
          source_action_id=row.get("source_action_id"), source_path=source_path)
    created = row.get("created_at") or row.get("updated_at") or ""
    return (row["id"], row["status"], match.get("sense_type", ""), row["check_after"], row["expires_at"],
            row.get("subject_assertion_id"), row.get("source_action_id"), source_path, _dump(row), created,
            row.get("updated_at") or created)


def _sense_values(row: Mapping[str, Any], source_path: str, recorded_at: str) -> tuple[Any, ...]:
    _keys("sense event", id=row["id"], source_id=row.get("source_id"), source_path=source_path)
    return (row["id"], row["sense_type"], row.get("source_id") or "", row.get("origin") or "external",
            row["observed_at"], source_path, _sense_data(row), recorded_at)


def _action_values(row: Mapping[str, Any], recorded_at: str) -> tuple[Any, ...]:
    _keys("action", id=row["id"], actor=row.get("actor"), status=row.get("status"),
          source_path=row.get("source_path"))
    return (row["id"], row.get("actor") or "agent", row.get("status") or "recorded", row.get("source_path") or "",
            _dump(row), row["created_at"], recorded_at)


def _alias_values(row: Mapping[str, Any], when: str) -> tuple[Any, ...]:
    _keys("alias", alias_norm=row["alias_norm"], canonical_norm=row["canonical_norm"])
    return (row["alias_norm"], row["alias_name"], row["canonical_name"], row["canonical_norm"],
            row.get("source") or "manual", float(row.get("confidence", 1.0)), row.get("created_at") or when, when)


def _event_values(entry: tuple[str, str, str, Mapping[str, Any], str]) -> tuple[Any, ...]:
    """(event, target, target id, detail, created_at) as the audit row stores it."""
    event, target, target_id, detail, when = entry
    _keys("world event", event=event, target=target, target_id=target_id)
    return (event, target, target_id, _dump(dict(detail)), when)


_VALUES: dict[str, Any] = {"assertions": _assertion_values, "predictions": _prediction_values,
                           "sense_events": _sense_values, "actions": _action_values, "aliases": _alias_values,
                           "events": _event_values}
# what `mnemon export` reads of each table, a page at a time in key order: its key column and the rest of the row
# (a restore needs the columns a row leaves out: a sense event's source path and when it was recorded, an action's
# `recorded_at`); the audit leaves out the store's own bookkeeping (the NFC-keys marker: `_NFC_KEYS`)
_EXPORTS = {
    "aliases": ("alias_norm", "alias_name, canonical_name, canonical_norm, source, confidence, created_at,"
                " updated_at", "entity_aliases", ""),
    "assertions": ("id", "data", "world_state_assertions", ""),
    "sense_events": ("id", f"{_SENSE_SELECT}, source_path, recorded_at", "sense_events", ""),
    "actions": ("id", "data, recorded_at", "world_actions", ""),
    "predictions": ("id", "data", "world_predictions", ""),
    "events": ("id", "event, target, target_id, detail, created_at", "world_events", "target <> 'store'"),
}
_ALIAS_COLUMNS = ("alias_name", "canonical_name", "canonical_norm", "source", "confidence", "created_at",
                  "updated_at")


def _exported(kind: str, key: Any, found: Sequence[Any]) -> dict[str, Any]:
    if kind == "aliases":
        return {"alias_norm": key, **dict(zip(_ALIAS_COLUMNS, found))}
    if kind == "sense_events":
        return {**_sense_row(found[:-2]), "source_path": found[-2], "recorded_at": found[-1]}
    if kind == "actions":
        return {**json.loads(found[0]), "recorded_at": found[1]}
    if kind == "events":
        return {"event": found[0], "target": found[1], "target_id": found[2], "detail": json.loads(found[3]),
                "created_at": found[4]}
    return dict(json.loads(found[0]))


def _one_of(column: str, value: str | Sequence[str], clauses: list[str], args: list[Any]) -> None:
    """`column = ?` for one value, `column IN (…)` for several (a key and its legacy spelling: `norm_keys`)."""
    values = [value] if isinstance(value, str) else list(value)
    clauses.append(f"{column} = ?" if len(values) == 1 else f"{column} IN ({','.join('?' * len(values))})")
    args.extend(values)


def _like_literal(text: str) -> str:
    """`text` for a LIKE pattern with ESCAPE '\\': its own wildcards and backslashes match only themselves."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


class SQLiteWorld:
    """The world-model tables of one `SQLiteStore` (reach it as `store.world`)."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store
        self._ready: bool | None = None
        self._nfc_pending: bool | None = None

    @property
    def conn(self) -> Any:
        return self.store.conn

    def ready(self) -> bool:
        """False on a read-only snapshot of a database older than the world tables: reads then return nothing
        instead of failing (listing state must never require a migration)."""
        if self._ready is None:
            found = {r[0] for r in self.conn.execute(
                f"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ({','.join('?' * len(_TABLES))})",
                _TABLES)}
            self._ready = found == set(_TABLES)
        return self._ready

    def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[dict[str, Any]]:
        if not self.ready():
            return []
        return [json.loads(r[0]) for r in self.conn.execute(sql, list(args))]

    # ── assertions ───────────────────────────────────────────────────────────
    def put_assertion(self, row: Mapping[str, Any], subject_norm: str) -> None:
        self.store._write(f"INSERT INTO {_INSERTS['assertions']} ON CONFLICT(id) DO UPDATE SET"
                          " subject_norm=excluded.subject_norm, predicate=excluded.predicate, status=excluded.status,"
                          " state_type=excluded.state_type, source_path=excluded.source_path,"
                          " source_edge_id=excluded.source_edge_id, valid_until=excluded.valid_until,"
                          " data=excluded.data, updated_at=excluded.updated_at",
                          _assertion_values(row, subject_norm))

    def assertion_keys(self) -> dict[str, tuple[str, str]]:
        """id → (subject key, predicate) as stored: the columns a row is found by."""
        if not self.ready():
            return {}
        return {r[0]: (r[1], r[2]) for r in self.conn.execute(
            "SELECT id, subject_norm, predicate FROM world_state_assertions")}

    def get_assertion(self, assertion_id: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT data FROM world_state_assertions WHERE id = ?", (assertion_id,))
        return rows[0] if rows else None

    def assertions(self, *, status: str | None = None, subject_norm: str | Sequence[str] | None = None,
                   predicate: str | None = None, state_type: str | None = None,
                   subject_norm_contains: str | Sequence[str] | None = None) -> list[dict[str, Any]]:
        """`subject_norm_contains`: a substring of the normalised subject (`state list --subject`, as Mneme's
        `LIKE '%subject%'`); callers normalise it as the column is, so the match ignores case on both backends.
        Either subject filter may be several spellings of one key (`norm_keys`): a row matches any of them."""
        clauses: list[str] = []
        args: list[Any] = []
        for column, value in (("status", status), ("subject_norm", subject_norm), ("predicate", predicate),
                              ("state_type", state_type)):
            if value is not None:
                _one_of(column, value, clauses, args)
        if subject_norm_contains:
            spellings = [subject_norm_contains] if isinstance(subject_norm_contains, str) else subject_norm_contains
            clauses.append("(" + " OR ".join(["subject_norm LIKE ? ESCAPE '\\'"] * len(spellings)) + ")")
            args.extend(f"%{_like_literal(text)}%" for text in spellings)
        where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
        return self._rows(f"SELECT data FROM world_state_assertions{where} ORDER BY subject_norm, predicate,"
                          " created_at, id", args)

    # ── predictions ──────────────────────────────────────────────────────────
    def put_prediction(self, row: Mapping[str, Any], source_path: str = "") -> None:
        self.store._write(f"INSERT INTO {_INSERTS['predictions']} ON CONFLICT(id) DO UPDATE SET"
                          " status=excluded.status, sense_type=excluded.sense_type, check_after=excluded.check_after,"
                          " expires_at=excluded.expires_at, subject_assertion_id=excluded.subject_assertion_id,"
                          " source_action_id=excluded.source_action_id, source_path=excluded.source_path,"
                          " data=excluded.data, updated_at=excluded.updated_at",
                          _prediction_values(row, source_path))

    def get_prediction(self, prediction_id: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT data FROM world_predictions WHERE id = ?", (prediction_id,))
        return rows[0] if rows else None

    def predictions(self, *, status: str | None = None, subject_assertion_id: str | None = None
                    ) -> list[dict[str, Any]]:
        clauses, args = [], []
        if status is not None:
            clauses.append("status = ?")
            args.append(status)
        if subject_assertion_id is not None:
            clauses.append("subject_assertion_id = ?")
            args.append(subject_assertion_id)
        where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
        return self._rows(f"SELECT data FROM world_predictions{where} ORDER BY check_after, id", args)

    # ── sense events ─────────────────────────────────────────────────────────
    def put_sense_event(self, row: Mapping[str, Any], recorded_at: str, source_path: str = "") -> bool:
        """Insert once: the same event fed twice keeps its first row (and its first `recorded_at`)."""
        return bool(self.put_sense_events([(row, source_path)], recorded_at))

    def put_sense_events(self, rows: Sequence[tuple[Mapping[str, Any], str]], recorded_at: str) -> list[str]:
        """(event row, source path) pairs in one statement, each inserted once as `put_sense_event` does; the ids
        this call inserted, in order (an ingest of 2,000 notes records 2,000 events)."""
        from .text_index_sqlite import _chunks

        ids = list(dict.fromkeys(row["id"] for row, _path in rows))
        stored: set[str] = set()
        for chunk in _chunks(ids):
            stored.update(r[0] for r in self.conn.execute(
                f"SELECT id FROM sense_events WHERE id IN ({','.join('?' * len(chunk))})", list(chunk)))
        values = [_sense_values(row, source_path, recorded_at) for row, source_path in rows]
        fresh: dict[str, tuple[Any, ...]] = {}
        for row_values in values:
            if row_values[0] not in stored and row_values[0] not in fresh:
                fresh[row_values[0]] = row_values
        self.store._write_many(f"INSERT OR IGNORE INTO {_INSERTS['sense_events']}", list(fresh.values()))
        return list(fresh)

    def sense_events_by_id(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The stored event rows among `ids`, by id (an id none has is absent)."""
        from .text_index_sqlite import _chunks

        if not self.ready():
            return {}
        wanted = list(dict.fromkeys(ids))
        for event_id in wanted:  # PostgreSQL cannot even compare a NUL: refused first, as a write would be
            _keys("sense event", id=event_id)
        out: dict[str, dict[str, Any]] = {}
        for chunk in _chunks(wanted):
            for found in self.conn.execute(
                    f"SELECT {_SENSE_SELECT} FROM sense_events WHERE id IN ({','.join('?' * len(chunk))})",
                    list(chunk)):
                row = _sense_row(found)
                out[row["id"]] = row
        return out

    def sense_events(self, *, sense_types: Iterable[str] | None = None,
                     source_paths: Iterable[str] | None = None) -> list[tuple[dict[str, Any], str]]:
        """(event row, recorded_at) pairs, oldest observation first; `source_paths` (exact) reads the events of
        those sources alone (a vault note's events have its path)."""
        if not self.ready():
            return []
        clauses: list[str] = []
        args: list[Any] = []
        for column, values in (("sense_type", sense_types), ("source_path", source_paths)):
            if values is None:
                continue
            wanted = sorted(set(values))
            if not wanted:
                return []
            clauses.append(f"{column} IN ({','.join('?' * len(wanted))})")
            args.extend(wanted)
        where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
        sql = f"SELECT {_SENSE_SELECT}, recorded_at FROM sense_events{where} ORDER BY observed_at, id"
        return [(_sense_row(r[:-1]), r[-1]) for r in self.conn.execute(sql, args)]

    def set_sense_event_texts(self, texts: Mapping[str, str]) -> int:
        """Give stored events (id → text) their `text`; every other field stays as inserted. How many rows changed.
        Only for a vault note's event stored without its text, whose note is about to change (`note_text.py`)."""
        from .text_index_sqlite import _chunks

        rows: list[tuple[Any, ...]] = []
        for chunk in _chunks(list(texts)):
            for found in self.conn.execute(
                    f"SELECT {_SENSE_SELECT} FROM sense_events WHERE id IN ({','.join('?' * len(chunk))})",
                    list(chunk)):
                row = _sense_row(found)
                rows.append((_sense_data({**row, "text": texts[row["id"]]}), row["id"]))
        if rows:
            self.store._write_many("UPDATE sense_events SET data = ? WHERE id = ?", rows)
        return len(rows)

    def sense_event_count(self) -> int:
        if not self.ready():
            return 0
        return int(self.conn.execute("SELECT COUNT(*) FROM sense_events").fetchone()[0])

    # ── actions ──────────────────────────────────────────────────────────────
    def put_action(self, row: Mapping[str, Any], recorded_at: str) -> None:
        self.store._write(f"INSERT INTO {_INSERTS['actions']} ON CONFLICT(id) DO UPDATE SET actor=excluded.actor,"
                          " status=excluded.status, source_path=excluded.source_path, data=excluded.data",
                          _action_values(row, recorded_at))

    def get_action(self, action_id: str) -> dict[str, Any] | None:
        rows = self._rows("SELECT data FROM world_actions WHERE id = ?", (action_id,))
        return rows[0] if rows else None

    def actions(self) -> list[dict[str, Any]]:
        return self._rows("SELECT data FROM world_actions ORDER BY created_at, id")

    # ── aliases ──────────────────────────────────────────────────────────────
    def put_alias(self, row: Mapping[str, Any], when: str) -> None:
        self.store._write(f"INSERT INTO {_INSERTS['aliases']} ON CONFLICT(alias_norm) DO UPDATE SET"
                          " alias_name=excluded.alias_name, canonical_name=excluded.canonical_name,"
                          " canonical_norm=excluded.canonical_norm, source=excluded.source,"
                          " confidence=excluded.confidence, updated_at=excluded.updated_at",
                          _alias_values(row, when))

    def aliases(self, *, canonical_norm: str | Sequence[str] | None = None) -> list[dict[str, Any]]:
        if not self.ready():
            return []
        sql = ("SELECT alias_norm, alias_name, canonical_name, canonical_norm, source, confidence, created_at,"
               " updated_at FROM entity_aliases")
        args: list[Any] = []
        if canonical_norm is not None:
            clauses: list[str] = []
            _one_of("canonical_norm", canonical_norm, clauses, args)
            sql += " WHERE " + clauses[0]
        cols = ("alias_norm", "alias_name", "canonical_name", "canonical_norm", "source", "confidence", "created_at",
                "updated_at")
        return [dict(zip(cols, r)) for r in self.conn.execute(sql + " ORDER BY canonical_norm, alias_norm", args)]

    def delete_aliases(self, alias_norms: Sequence[str]) -> None:
        """Only for rows re-keyed under another spelling (`app/world/keys.py`): nothing else deletes an alias."""
        self.store._write_many("DELETE FROM entity_aliases WHERE alias_norm = ?", [(key,) for key in alias_norms])

    # ── audit ────────────────────────────────────────────────────────────────
    def log_event(self, event: str, target: str, target_id: str, detail: Mapping[str, Any], when: str) -> None:
        self.log_events([(event, target, target_id, detail)], when)

    def log_events(self, entries: Sequence[tuple[str, str, str, Mapping[str, Any]]], when: str) -> None:
        """(event, target, target id, detail) entries, in one statement."""
        self.store._write_many(f"INSERT INTO {_INSERTS['events']}",
                               [_event_values((*entry, when)) for entry in entries])

    def events(self, target: str, target_id: str) -> list[dict[str, Any]]:
        if not self.ready():
            return []
        return [{"id": r[0], "event": r[1], "detail": json.loads(r[2]), "created_at": r[3]}
                for r in self.conn.execute("SELECT id, event, detail, created_at FROM world_events"
                                           " WHERE target = ? AND target_id = ? ORDER BY id", (target, target_id))]

    # ── the NFC-keys upgrade (m060, above) ───────────────────────────────────
    def nfc_keys_pending(self, *, fresh: bool = False) -> bool:
        """Whether m060 marked this store and its rows were not rewritten yet (the latest audit entry of the upgrade
        is the marker). Read once per process unless `fresh`: the world layer asks on every use of the tables."""
        if self._nfc_pending is None or fresh:
            found = self.conn.execute(
                "SELECT event FROM world_events WHERE target = 'store' AND target_id = ? ORDER BY id DESC LIMIT 1",
                (_NFC_KEYS,)).fetchone() if self.ready() else None
            self._nfc_pending = found is not None and found[0] == "upgrade_pending"
        return self._nfc_pending

    def finish_nfc_keys(self, detail: Mapping[str, Any], when: str) -> None:
        self.log_event("upgraded", "store", _NFC_KEYS, detail, when)
        self._nfc_pending = False

    # ── graph evidence the world model reads (radar, contract, backfill) ─────
    def edges_with_relations(self, relations: Iterable[str], statuses: Sequence[str]) -> list[Edge]:
        from .sqlite import _EDGE_COLS, _edge

        wanted = sorted(set(relations))
        if not wanted or not statuses:
            return []
        sql = (f"SELECT {_EDGE_COLS} FROM edges WHERE type IN ({','.join('?' * len(wanted))})"
               f" AND status IN ({','.join('?' * len(statuses))}) ORDER BY id")
        return [_edge(r) for r in self.conn.execute(sql, [*wanted, *statuses])]

    def active_edge_facts(self, relations: Sequence[str] | None = None) -> list[tuple[int, str, str, dict[str, Any]]]:
        """(id, relation, origin, metadata) of the active edges (of `relations` only, when given): what the
        contract's validation rule needs."""
        where, args = "status = 'active'", []
        if relations is not None:
            if not relations:
                return []
            where += f" AND type IN ({','.join('?' * len(relations))})"
            args = list(relations)
        # rows and coded rows (coded_edges_sqlite.py), in one id order
        tables = [STORED_FACTS if codes_edges(self.store) else "edge_rows"]
        if getattr(self.store, "derives_edges", False):
            tables.insert(0, f"({CONTAINED_FACTS})")  # derived edges (contained_sqlite.py): ids below every row's
        return [(r[0], r[1], r[2], json.loads(r[3]) if r[3] and r[3] != "{}" else {})
                for table in tables
                for r in self.conn.execute(f"SELECT id, type, origin, metadata FROM {table} WHERE {where}"
                                           " ORDER BY id", args)]

    def active_edge_relations(self) -> dict[str, int]:
        """How many active edges each relation has (the store keeps these counts: no edge row is read)."""
        return {r[0]: int(r[1]) for r in self.conn.execute(
            "SELECT type, n FROM edge_counts WHERE status = 'active' AND n > 0")}

    # ── backup: `mnemon export` and its restore (`app/backup_world.py`) ──────
    def export_page(self, kind: str, after: Any, limit: int) -> list[tuple[Any, dict[str, Any]]]:
        """Up to `limit` (key, row) pairs of one table (`_EXPORTS`), in key order after `after` (None: from the
        start): keyset pages, so an export of any size reads one page at a time and no cursor stays open."""
        if not self.ready():
            return []
        key, columns, table, condition = _EXPORTS[kind]
        clauses = [c for c in (condition, f"{key} > ?" if after is not None else "") if c]
        where = (" WHERE " + " AND ".join(clauses)) if clauses else ""
        args = ([after] if after is not None else []) + [limit]
        return [(r[0], _exported(kind, r[0], r[1:])) for r in self.conn.execute(
            f"SELECT {key}, {columns} FROM {table}{where} ORDER BY {key} LIMIT ?", args)]

    def held_keys(self, kind: str, keys: Sequence[str]) -> set[str]:
        """The keys among `keys` a row of the table has (an id; an alias's key)."""
        from .text_index_sqlite import _chunks

        key, _columns, table, _condition = _EXPORTS[kind]
        held: set[str] = set()
        for chunk in _chunks(list(dict.fromkeys(keys))):
            held.update(r[0] for r in self.conn.execute(
                f"SELECT {key} FROM {table} WHERE {key} IN ({','.join('?' * len(chunk))})", list(chunk)))
        return held

    @staticmethod
    def restore_values(kind: str, row: Any, *extra: Any) -> tuple[Any, ...]:
        """A restored row as the columns `put_<kind>` would write (the same arguments), or `InvalidInput` for one
        a backend cannot store; `insert_restored` takes a list of them."""
        return tuple(_VALUES[kind](row, *extra))

    def insert_restored(self, kind: str, values: Sequence[tuple[Any, ...]]) -> None:
        """Rows from `restore_values`, inserted once: a key the table already has keeps its row (a restore never
        replaces what the store holds). The audit has no key: every entry given is appended."""
        verb = "INSERT INTO" if kind == "events" else "INSERT OR IGNORE INTO"
        self.store._write_many(f"{verb} {_INSERTS[kind]}", list(values))

    def last_event_id(self) -> int:
        """The newest audit entry's id (0: none)."""
        if not self.ready():
            return 0
        return int(self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM world_events").fetchone()[0])

    def held_events(self, values: Sequence[tuple[Any, ...]], up_to: int) -> dict[tuple[Any, ...], int]:
        """How many times the audit holds each of `values` (`restore_values("events", …)`) among its entries with
        an id up to `up_to` (those before a restore began)."""
        from .text_index_sqlite import _chunks

        wanted = set(values)
        by_target: dict[str, set[str]] = {}
        for v in wanted:
            by_target.setdefault(v[1], set()).add(v[2])
        found: dict[tuple[Any, ...], int] = {}
        for target, ids in sorted(by_target.items()):
            for chunk in _chunks(sorted(ids)):  # (by target first: the audit's index is (target, target_id))
                for r in self.conn.execute(
                        "SELECT event, target, target_id, detail, created_at FROM world_events WHERE target = ?"
                        f" AND target_id IN ({','.join('?' * len(chunk))}) AND id <= ?", [target, *chunk, up_to]):
                    entry = tuple(r)
                    if entry in wanted:
                        found[entry] = found.get(entry, 0) + 1
        return found

    # ── the one deleting path: explicit scoped forget ────────────────────────
    def assertions_in_scope(self, scope: str) -> list[dict[str, Any]]:
        """The assertion rows `forget_scope(scope)` deletes: the world layer re-chains what they superseded first."""
        clause, args = in_scope("source_path"), scope_args(scope)
        return self._rows(f"SELECT data FROM world_state_assertions WHERE {clause} ORDER BY id", args)

    def forget_scope(self, scope: str, when: str, *, dry_run: bool = False) -> dict[str, int]:
        """Delete every world row under `scope` (and predictions about deleted assertions); audit each count. A dry
        run counts the same rows and changes nothing."""
        if not self.ready():
            return {"assertions": 0, "predictions": 0, "sense_events": 0, "actions": 0}
        clause, args = in_scope("source_path"), scope_args(scope)
        doomed = [r[0] for r in self.conn.execute(f"SELECT id FROM world_state_assertions WHERE {clause}", args)]
        if dry_run:
            about = f" OR subject_assertion_id IN ({','.join('?' * len(doomed))})" if doomed else ""

            def count(table: str, extra: str = "", more: Sequence[str] = ()) -> int:
                return int(self.conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {clause}{extra}",
                                             [*args, *more]).fetchone()[0])
            return {"assertions": len(doomed), "predictions": count("world_predictions", about, doomed),
                    "sense_events": count("sense_events"), "actions": count("world_actions")}
        counts = {"assertions": 0, "predictions": 0, "sense_events": 0, "actions": 0}
        if doomed:
            marks = ",".join("?" * len(doomed))
            counts["predictions"] += self.store._write(
                f"DELETE FROM world_predictions WHERE subject_assertion_id IN ({marks})", doomed).rowcount
        counts["assertions"] = self.store._write(f"DELETE FROM world_state_assertions WHERE {clause}", args).rowcount
        counts["predictions"] += self.store._write(f"DELETE FROM world_predictions WHERE {clause}", args).rowcount
        counts["sense_events"] = self.store._write(f"DELETE FROM sense_events WHERE {clause}", args).rowcount
        counts["actions"] = self.store._write(f"DELETE FROM world_actions WHERE {clause}", args).rowcount
        self.log_event("forget_scope", "scope", scope, {**counts, "assertion_ids": doomed}, when)
        return counts
