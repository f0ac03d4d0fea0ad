"""A withdrawn belief another source still states (`withdrawals`): the value stays in force as that source's own row.

Two scopes (or packs) stating one value share one row: the first source's, the others named on it
(`metadata.corroborated_by`). A re-run of the first that no longer states it retracted that row whole, and the value
was gone though another source still stated it. As `forget --source` leaves it (`world.state._heirs`), the earliest
other source's claim becomes a row of its own, re-chained with its (subject, predicate); a source that itself no
longer states a value is first taken off the rows it corroborates, so it is never made its heir."""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from typing import Any

from ..runtime import Runtime

HEIR = "heir_of"  # the audit detail of an heir's "asserted" event: the withdrawn row it carries on


def uncorroborate(rt: Runtime, paths: Collection[str], kept: Collection[tuple[str, str]]) -> None:
    """Take `paths`' claims off the current rows they corroborate whose value (pair, object) is not in `kept`."""
    from ...core.world import Assertion
    from ...core.world.assertions import corroborations, with_corroborations
    from ..world.common import put_assertion
    from ..world.tables import audit, world_of

    for raw in world_of(rt).assertions(status="current"):
        named = (raw.get("metadata") or {}).get("corroborated_by")
        if not isinstance(named, list) or not any(isinstance(e, dict) and e.get("source_path") in paths for e in named):
            continue  # (most rows: read, not parsed)
        row = Assertion.from_row(raw)
        listed = corroborations(row)
        left = [e for e in listed if e.get("source_path") not in paths or (row.pair_key, row.object_key) in kept]
        if len(left) != len(listed):
            put_assertion(rt, with_corroborations(row, left))
            audit(rt, "uncorroborated", "assertion", row.id, {"reason": f"withdrawn: {', '.join(paths)}"})


def heir_of(rt: Runtime, assertion_id: str, source_path: str, *, dry_run: bool = False) -> dict[str, Any] | None:
    """After `assertion_id` was withdrawn by `source_path`: its value as the earliest other source's own row, stored
    and re-chained (inside the caller's transaction; a dry run, before the withdrawal, writes nothing); that row,
    or None when no other source states it."""
    from ...core.world import Assertion
    from ...core.world.assertions import corroborations, from_corroboration, rechain, with_corroborations
    from ...core.world.policies import group_policy
    from ...core.world.values import norm_keys
    from ..world.common import load_assertions, now_of, put_assertion
    from ..world.tables import audit, world_of

    world = world_of(rt)
    raw = world.get_assertion(assertion_id)
    if raw is None:
        return None
    row = Assertion.from_row(raw)
    left = sorted((e for e in corroborations(row) if e.get("source_path") != source_path
                   and world.get_assertion(str(e.get("id"))) is None), key=lambda e: str(e.get("created_at")))
    if not left:
        return None
    now = now_of(rt)
    heir = with_corroborations(from_corroboration(row, left[0], now), left[1:])
    if dry_run:
        return {"id": heir.id, "source_path": heir.source_path, "heir_of": row.id}
    pair = [r for r in load_assertions(rt, subject_norm=norm_keys(heir.subject), predicate=heir.predicate)
            if r.pair_key == heir.pair_key]
    before = {r.id: r for r in pair}
    chain = rechain([*pair, heir], group_policy(heir.predicate, [r.metadata for r in (*pair, heir)
                                                                 if r.status != "retracted"]))
    for new in chain:
        if new.id == heir.id:
            put_assertion(rt, new)
            audit(rt, "asserted", "assertion", new.id, {"reason": f"withdrawn {row.id}", HEIR: row.id,
                                                        "status": new.status})
        elif new != before[new.id]:
            put_assertion(rt, replace(new, updated_at=now))
            audit(rt, new.status if new.status != "current" else "relinked", "assertion", new.id,
                  {"reason": f"withdrawn {row.id}", "superseded_by_id": new.superseded_by_id})
    return {"id": heir.id, "source_path": heir.source_path, "heir_of": row.id}
