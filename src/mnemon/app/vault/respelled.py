"""Claim edges an earlier version of `resolve` wrote under a relation name it spelt otherwise.

Before relation names kept their letters in any script (`predicate_name`), a claim "situé à" was the edge and belief
predicate `situ`, "wohnt in Köln" `wohnt_in_k_ln`. Resolving the same research again writes the claim under its name
today — and the earlier edge stayed active beside it, its belief current: one claim as two edges and two beliefs.
That edge is the same claim, not one the research dropped, so it is neither demoted to a candidate (a claim waiting
for evidence) nor withdrawn ("no longer states it"): it is retired, its event naming the edge that spells it now,
and its belief retracted with a reason saying so (`respelled_edges`, `respelled_assertions` in the reply; a dry run
lists them). An edge a person decided is left as they left it."""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from ...core.model import Edge
from ..runtime import Runtime

_OLD_RULE = re.compile(r"[^a-z0-9_]+")


def old_relation_name(text: str) -> str:
    """The relation name an earlier version spelt (ASCII letters and digits only; everything else one `_`)."""
    return _OLD_RULE.sub("_", text.strip().casefold()).strip("_")


def respelled_edges(rt: Runtime, claims: Iterable[tuple[str, str, str, str]], paths: Iterable[str]
                    ) -> list[tuple[Edge, str]]:
    """(earlier edge, relation today) for each claim (src, dst, relation today, predicate as written) of the run
    whose earlier spelling names another edge this pack wrote (`paths`: where it is, where it was), still live and
    no person's decision. Read only."""
    from .resolve import person_decisions

    wanted = {(src, dst, old): relation for src, dst, relation, text in claims
              if (old := old_relation_name(text)) and old != relation}
    if not wanted:
        return []
    stored: dict[tuple[str, str, str], Edge] = rt.store.vault.edges_by_keys(list(wanted))  # type: ignore[attr-defined]
    owned = set(paths)
    edges = [e for e in stored.values() if e.origin == "resolve" and e.source_path in owned
             and e.status in ("active", "candidate")]
    decided = person_decisions(rt.store, edges)
    return [(e, wanted[(e.src, e.dst, e.type)]) for e in edges if int(e.id or 0) not in decided]


def beliefs_of(rt: Runtime, edges: list[tuple[Edge, str]], paths: Iterable[str]) -> list[str]:
    """The ids of the not-retracted beliefs the earlier edges back."""
    try:
        from ..world.tables import world_of
    except ImportError:
        return []
    ids = {str(e.id) for e, _relation in edges}
    if not ids:
        return []
    rows = [row for path in dict.fromkeys(paths) for row in world_of(rt).assertions_in_scope(path)]
    return sorted({str(r["id"]) for r in rows if str(r.get("source_edge_id") or "") in ids
                   and r.get("status") != "retracted"})


def retire_respelled(rt: Runtime, rel: str, claims: Iterable[tuple[str, str, str, str]], paths: Iterable[str], *,
                     dry_run: bool) -> dict[str, Any]:
    """Retire the earlier edges of `respelled_edges` and retract their beliefs (inside the caller's transaction; a
    dry run writes nothing); the reply's keys."""
    paths = list(dict.fromkeys(paths))
    found = respelled_edges(rt, claims, paths)
    if not found:
        return {}
    beliefs = beliefs_of(rt, found, paths)
    out: dict[str, Any] = {"respelled_edges": [{"edge_id": int(e.id or 0), "relation": e.type, "now": relation}
                                               for e, relation in found]}
    if beliefs:
        out["respelled_assertions"] = beliefs
    if dry_run:
        return out
    now = rt.now_iso()
    for edge, relation in found:
        rt.store.set_edge_status(int(edge.id or 0), "retired", actor="resolve", when=now, previous=edge.status,
                                 reason=f"relation_respelled: {rel} states it as {relation}")
    if beliefs:
        from ..world.state import retract_assertion

        spelt = {str(e.id): relation for e, relation in found}
        rows = _rows(rt, beliefs)
        for belief in beliefs:
            now_spelt = spelt.get(str(rows.get(belief, {}).get("source_edge_id")), "")
            retract_assertion(rt, belief, f"respelled: {rel} states it as {now_spelt}", withdrawn_by=rel)
    return out


def _rows(rt: Runtime, ids: list[str]) -> dict[str, Mapping[str, Any]]:
    from ..world.tables import world_of

    return {i: row for i in ids if (row := world_of(rt).get_assertion(i)) is not None}
