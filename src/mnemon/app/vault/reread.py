"""Notes the next ingest reads again though their bytes are the ones it read last.

`forget --undo` of a vault row marks its note: the row comes back only as its note is read (the note is the source
of truth, and the read writes the row's text, vector and edges as it does for a changed note), and an ingest finds an
unchanged note unchanged without reading it. The mark is one vault state value, spent by the ingest that reads the
note (or drops it: a note gone from the vault has nothing to bring back)."""
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

REREAD_STATE = "notes_to_reread"


def marked_for_reread(vault_store: Any) -> set[str]:
    raw = vault_store.get_state(REREAD_STATE)
    return set(json.loads(raw)) if raw else set()


def mark_for_reread(vault_store: Any, paths: Iterable[str]) -> None:
    _put(vault_store, marked_for_reread(vault_store) | set(paths))


def keep_unread(vault_store: Any, marked: set[str], left: Iterable[str]) -> None:
    """After an ingest that had `marked`: only the ones in `left` (not read, still ingested) stay marked."""
    if marked:
        _put(vault_store, marked & set(left))


def _put(vault_store: Any, paths: set[str]) -> None:
    vault_store.set_state(REREAD_STATE, json.dumps(sorted(paths), ensure_ascii=False) if paths else "")
