"""Whose rows are whose, as SQL conditions on `nodes.source`: spelled once, so a partial index and every query that
must use it say exactly the same thing (SQLite proves a partial index usable only from a matching term).

A vault-derived row (`vault:<path>`) lives as long as its line in the note: its `created_at` is when it was
ingested, not when anything happened, and neither auto-prune nor temporal proximity may treat it as the writer's.
A payload row (`mneme://…`) goes with `forget --source` of its scope.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def not_vault(alias: str = "") -> str:
    """The condition "not derived from a vault note", on `alias.source` (bare `source` without an alias)."""
    column = f"{alias}.source" if alias else "source"
    return f"substr({column}, 1, 6) <> 'vault:'"


NOT_VAULT_ROW = not_vault()
# rows whose life the writer owns: the only rows an exact repeat is matched against
OWNED_SOURCE = f"{NOT_VAULT_ROW} AND substr(source, 1, 8) <> 'mneme://'"
VAULT_PREFIX = "vault:"


def in_scope(column: str) -> str:
    """A payload scope's rows (`scope_args`): the scope itself or anything under it ("mneme://agent/x" owns
    "mneme://agent/x/notes#1"), compared exactly — not by LIKE, which SQLite matches blind to ASCII case (PostgreSQL
    does not): forgetting "mneme://agent" must not take "mneme://Agent/…" with it."""
    return f"({column} = ? OR substr({column}, 1, ?) = ?)"


def scope_args(scope: str) -> list[Any]:
    under = scope.rstrip("/") + "/"
    return [scope, len(under), under]


def source_is(value: str, alias: str = "") -> str:
    """`source = ?` for this value, spelled so SQLite can use the source index, which holds no vault rows (m058): a
    value that is no vault source carries the index's own condition (a partial index is proven usable only from a
    matching term). A vault source's rows are found another way (by their ids' range, or another index)."""
    column = f"{alias}.source" if alias else "source"
    return f"{column} = ?" if value.startswith(VAULT_PREFIX) else f"{column} = ? AND {not_vault(alias)}"


def source_in(values: Sequence[str], alias: str = "") -> str:
    """`source IN (?, …)` for these values, as `source_is` spells one."""
    column = f"{alias}.source" if alias else "source"
    cond = f"{column} IN ({','.join('?' * len(values))})"
    return cond if any(v.startswith(VAULT_PREFIX) for v in values) else f"{cond} AND {not_vault(alias)}"
