"""`receipt`: the operation log as a privacy-reduced audit export (the real mnemon's `mnemon.memory.receipt.v1`).

Each of the newest oplog rows becomes an event holding its operation and time, and SHA-256 hashes in place of what
it was about: `insight_id_hash` of the node id (UTF-8), `detail_hash` of the detail `mnemon log` prints, written as
canonical JSON (keys sorted, no spaces, non-ASCII as UTF-8). No memory text, query, path or id is in clear, so the
receipt can be shared; a holder of an id or of a log entry can check that the receipt names it. Reading it writes
nothing (not even a row of its own in the log).
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from ..core.errors import InvalidInput
from .memory import MAX_LOG_LIMIT as MAX_LIMIT  # as `log --limit`
from .runtime import Runtime

SCHEMA = "mnemon.memory.receipt.v1"
EVENT_NAME = "mnemon.memory.operation.observed"
PRIVACY_NOTE = (
    "Memory text, recall queries, paths, node ids and operation details are left out: each event keeps its operation "
    "and time, and SHA-256 hashes of its node id (insight_id_hash: the id as UTF-8) and of its detail (detail_hash: "
    "the detail `mnemon log` prints, as JSON with sorted keys, no spaces, UTF-8). Whoever holds an id or a log entry "
    "can check that it is the one a hash names, and two receipts naming the same hash name the same thing. The hashes "
    "are not salted: a value that can be guessed (a short query, a vault note's path in its id) can be confirmed by "
    "whoever tries it. The receipt is not signed: it proves nothing about who made it or that the log was complete.")


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def detail_text(detail: Any) -> str:
    """The detail as the receipt hashes it: canonical JSON a holder of the log entry can write again."""
    return json.dumps(detail, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def check_limit(limit: Any) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise InvalidInput(f"--limit must be from 1 to {MAX_LIMIT}", limit=limit if isinstance(limit, int) else None)
    return limit


def receipt(rt: Runtime, *, limit: int = 20, store: str | None = None) -> dict[str, Any]:
    """The newest `limit` oplog rows, newest first, as hashed events. `store`: the named store the database is (None
    when the database was named by path: its path is not printed)."""
    limit = check_limit(limit)
    events = []
    for entry in rt.store.oplog(limit):
        event: dict[str, Any] = {"event_name": EVENT_NAME, "operation": entry.op, "created_at": entry.created_at}
        if entry.node_id:
            event["insight_id_hash"] = sha256_text(entry.node_id)
        present = entry.detail not in (None, {}, [], "")
        if present:
            event["detail_hash"] = sha256_text(detail_text(entry.detail))
        event["detail_present"] = present
        events.append(event)
    return {"schema": SCHEMA, "generated_at": rt.now_iso(), "store": store, "limit": limit, "count": len(events),
            "privacy": {"raw_detail_included": False, "hash_algorithm": "sha256", "note": PRIVACY_NOTE},
            "events": events}
