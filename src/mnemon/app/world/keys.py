"""World rows keyed before keys were NFC, rewritten once: the rest of migration m060 (`ports/store/world_sqlite.py`);
and of m065, which marks the store again for rows whose predicate was written before predicates were spelt as
relation names ("located-in" is located_in): the same rewrite respells them (`aliases.respelled`).

The step marks a store that held world rows when it was upgraded; the first writable process to use the world tables
afterwards (`tables.world_of`) rewrites them here, under one write lock, and records that it did in the audit. Rows
are re-keyed and pairs two spellings had split are re-chained by the core's own rules (`aliases.respell_plan`);
nothing is deleted. A store opened `--readonly` before that reads its rows as they are (lookups still ask for a
decomposed key too: `values.norm_keys`).
"""
from __future__ import annotations

from typing import Any

from ...core.errors import InvalidInput
from ...core.world.aliases import respell_plan
from ...core.world.assertions import Assertion
from ...core.world.values import iso, norm_name
from ..runtime import Runtime
from .common import now_of


def upgrade_world_keys(rt: Runtime, world: Any) -> None:
    """Rewrite every world row keyed before keys were NFC, if this store still needs it (another process may have
    done it since this one looked: asked again under the lock)."""
    now = now_of(rt)
    when = iso(now)
    with rt.store.transaction():
        if not world.nfc_keys_pending(fresh=True):
            return
        keys = world.assertion_keys()
        rows: list[Assertion] = []
        unreadable: list[str] = []
        for raw in world.assertions():
            try:
                rows.append(Assertion.from_row(raw))
            except InvalidInput:
                unreadable.append(str(raw.get("id")))  # left as stored: no rule can place a row it cannot read
        plan = respell_plan(rows, keys, world.aliases(), now)
        for row in plan.assertions:
            world.put_assertion(row.to_row(), norm_name(row.subject))
        world.log_events([("respelled", "assertion", row.id,
                           {"reason": "nfc_keys", "status": row.status, "superseded_by_id": row.superseded_by_id,
                            "key_before": list(keys.get(row.id, ()))}) for row in plan.assertions], when)
        world.delete_aliases(plan.alias_keys_gone)
        for alias in plan.aliases:
            world.put_alias(alias, when)
        world.finish_nfc_keys({
            "assertions_rewritten": len(plan.assertions),
            "merged_pairs": [list(pair) for pair in plan.merged_pairs],
            "aliases_rewritten": len(plan.aliases),
            "aliases_displaced": list(plan.aliases_displaced),
            "unreadable_assertions": unreadable,
        }, when)
