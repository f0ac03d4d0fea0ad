"""Canonical subjects: `alias add|merge|ls`. Adding an alias affects future writes; merging also rewrites stored
assertions and recomputes current/superseded pointers per predicate cardinality (memberships stay plural)."""
from __future__ import annotations

from typing import Any

from ...core.errors import InvalidInput
from ...core.surface import step
from ...core.world import add_alias, merge_plan
from ...core.world.values import norm_keys
from ..runtime import Runtime
from .common import audit, load_aliases, load_assertions, now_of, put_assertion, world_of


def _alias_dict(row: Any) -> dict[str, Any]:
    return {"alias": row.alias, "canonical": row.canonical, "source": row.source, "confidence": row.confidence}


def alias_add(rt: Runtime, alias: str, canonical: str, *, source: str = "manual",
              confidence: float = 1.0) -> dict[str, Any]:
    if not isinstance(source, str) or not source.strip():
        raise InvalidInput("--source must be a non-empty string")
    existing = load_aliases(rt)
    rows = add_alias(alias, canonical, existing, now_of(rt), source.strip(), confidence)
    # an alias already naming another subject is re-pointed: said in the reply and the audit, where the old
    # subject was otherwise gone without a word
    previous = next((a.canonical for a in existing
                     if a.alias_norm == rows[0].alias_norm and a.canonical_norm != rows[0].canonical_norm), None)
    with rt.store.transaction():
        for row in rows:
            world_of(rt).put_alias(row.to_row(), rt.now_iso())
        audit(rt, "alias", "alias", rows[0].alias_norm,
              {"canonical": rows[0].canonical, **({"previous_canonical": previous} if previous else {})})
    out: dict[str, Any] = {**_alias_dict(rows[0]), "repointed": [_alias_dict(r) for r in rows[1:]],
                           "previous_canonical": previous}
    # an alias names the subject of future writes only: beliefs already stored under it stay apart, and the next
    # write under the canonical name would put a second value in force beside them (the radar compares subjects)
    stored = [a for a in load_assertions(rt, subject_norm=norm_keys(rows[0].alias)) if a.status == "current"]
    if stored:
        out["stored_under_alias"] = len(stored)
        out["hint"] = (f"{len(stored)} current belief(s) are stored under {rows[0].alias!r} and stay apart from "
                       f"{rows[0].canonical!r}: " + step(f"`mnemon alias merge {_quoted(rows[0].alias)} "
                                                         f"{_quoted(rows[0].canonical)}` rewrites them under it",
                                                         "merging the alias (no tool does) rewrites them under it")
                       + ", one value in force per predicate")
    return out


def _quoted(name: str) -> str:
    return f'"{name}"' if any(c.isspace() for c in name) else name


def alias_merge(rt: Runtime, from_subject: str, into_subject: str, *, dry_run: bool = False) -> dict[str, Any]:
    plan = merge_plan(from_subject, into_subject, load_assertions(rt), now_of(rt), load_aliases(rt))
    out = plan.to_dict(dry_run)
    if not dry_run:
        with rt.store.transaction():
            for row in plan.alias_upserts:
                world_of(rt).put_alias(row.to_row(), rt.now_iso())
            for assertion in plan.rewrites:
                put_assertion(rt, assertion)
                audit(rt, "merged", "assertion", assertion.id,
                      {"from": from_subject, "into": plan.canonical, "status": assertion.status})
    return out


def alias_ls(rt: Runtime, *, canonical: str | None = None) -> dict[str, Any]:
    rows = world_of(rt).aliases(canonical_norm=norm_keys(canonical) if canonical else None)
    aliases = [{"alias": r["alias_name"], "canonical": r["canonical_name"], "source": r["source"],
                "confidence": r["confidence"]} for r in rows]
    return {"count": len(aliases), "aliases": aliases}
