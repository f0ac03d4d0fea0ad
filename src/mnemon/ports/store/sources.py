"""Whose rows are whose, as SQL conditions on `nodes.source`: spelled once, so a partial index and every query that
must use it say exactly the same thing (SQLite proves a partial index usable only from a matching term).

A vault-derived row (`vault:<path>`) lives as long as its line in the note: its `created_at` is when it was
ingested, not when anything happened, and neither auto-prune nor temporal proximity may treat it as the writer's.
A payload row (`mneme://…`) goes with `forget --source` of its scope.
"""
from __future__ import annotations


def not_vault(alias: str = "") -> str:
    """The condition "not derived from a vault note", on `alias.source` (bare `source` without an alias)."""
    column = f"{alias}.source" if alias else "source"
    return f"substr({column}, 1, 6) <> 'vault:'"


NOT_VAULT_ROW = not_vault()
# rows whose life the writer owns: the only rows an exact repeat is matched against
OWNED_SOURCE = f"{NOT_VAULT_ROW} AND substr(source, 1, 8) <> 'mneme://'"
