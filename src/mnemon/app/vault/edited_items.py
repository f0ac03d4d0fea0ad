"""A kill, a validation or a weakening that survives an edit of its line.

An item's identity is its text: `- [ ] Blocked on vendr contract` corrected to `vendor` is a new task, its
`has_blocked` edge a new active one, while the tombstone a person left on the old one stayed behind with a line no
longer in the note — the decision was lost to a typo fix. An ingest that re-parses a note
carries a kill onto the edge of the task or bullet that replaced its line when the two are nearly the same: the
same relation from the same note, the new item new in this run, its line alike to the killed one's (`SIMILAR`) with
the same numbers (a changed date or amount is another fact) and no negation added or taken away ('may not slip'
says the opposite of 'may slip'), and the only such pair either way. The new edge is killed by the ingest (its
`killed` event says `decision_carried`; a `decision_carried` event names the edge and line it came from), the old
one gets a `decision_carried` event naming the new edge, and the reply lists each (`decisions_carried`). Any other
edit is a new item, as before.

A validation is carried the same way, said the same way (`"decision": "validated"`): the new edge is validated by
the ingest with the reason the person gave (its `validated` event says `decision_carried`), and the old one, which
the rebuild kept active on a line the note no longer holds beside its successor, is retired (not killed: nobody said
it was wrong; its decision now lives on the new edge). The retired edge is kept through later rebuilds of its note
(`retired_decision`), as a killed one is, so `explain-edge` of it still says where its decision went; its line put
back takes it up again. A weakening too (`"weakened"`): the new edge takes the
weakened strength and status (its `weakened` event says `decision_carried` and the edge it came from); the old edge
went with its line (`VaultWriter.weakened_items` kept what it said).
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from difflib import SequenceMatcher
from typing import Any

from ...core.model import Edge
from ...core.vault import gate_edge
from .decided_sources import source_now

SIMILAR = 0.9  # SequenceMatcher ratio of the two lines as written: a typo or a word's spelling, not a new sentence
_NUMBER = re.compile(r"\d+")
_ITEM = re.compile(r":(?:task|observation):[0-9a-f]+$")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?")
_NEGATIONS = frozenset(("not", "no", "never", "none", "nothing", "nobody", "without", "cannot", "can't", "won't",
                        "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "unblocked", "nor"))
CARRIED = "decision_carried"


def is_item(node_id: str) -> bool:
    """A task's or bullet's row: its edge's evidence is its whole line."""
    return node_id.startswith("vault:") and _ITEM.search(node_id) is not None


def retired_decision(status: str, metadata: str | None) -> bool:
    """Whether an ingested edge (its stored metadata JSON) is a validated edge retired when its validation was carried
    to its line's edited successor: a rebuild keeps it while its line stays out of the note."""
    if status != "retired" or not metadata or '"validated"' not in metadata:
        return False
    decided = json.loads(metadata)
    return isinstance(decided, dict) and decided.get("validated") is True


def carry_kills_to_edited(writer: Any) -> list[dict[str, Any]]:
    """Carry each kill, validation or weakening of a containment edge whose item left its note in this run onto its
    edited successor."""
    decided = writer.decided
    # a task's or bullet's: its edge's evidence is its whole line (a section's is only its first: two sections
    # alike by that line may say anything else)
    gone = {key: edge_id for key, edge_id in decided.unseen.items() if key not in decided.written and is_item(key[1])}
    store, vault = writer.rt.store, writer.vault
    killed = {int(e.id or 0): e for e in store.get_edges(sorted(gone.values()))
              if e.status == "killed" or (e.status == "active" and e.metadata.get("validated"))} if gone else {}
    weakened = set(writer.weakened_items)  # (deleted by now: `drop_unreused` found them no other successor)
    killed.update(writer.weakened_items)
    writer.weakened_items = {}
    if not killed:
        return []
    fresh = set(writer.new_memory_ids)
    wanted = {(e.src, e.type) for e in killed.values()}
    successors: dict[tuple[str, str], list[tuple[int, str, str, str, float]]] = {}
    for (src, dst, relation), origin, values in vault.edge_values_from(sorted({s for s, _ in wanted}),
                                                                        types=sorted({r for _, r in wanted})):
        if origin == "ingest" and dst in fresh and values[1] in ("active", "candidate") and (src, relation) in wanted:
            successors.setdefault((src, relation), []).append((int(values[0]), dst, values[1], str(values[4] or ""),
                                                               float(values[2])))
    pairs: dict[int, tuple[int, str, str, float]] = {}  # old edge → (new edge, its status, its line, its strength)
    claimed: dict[int, int] = {}
    for old_id, old in killed.items():
        was = old.evidence or ""
        alike = [(new_id, status, line, weight) for new_id, _dst, status, line, weight
                 in successors.get((old.src, old.type), ())
                 if _NUMBER.findall(line) == _NUMBER.findall(was) and _alike(was, line)]
        if len(alike) == 1:
            pairs[old_id] = alike[0]
            claimed[alike[0][0]] = claimed.get(alike[0][0], 0) + 1
    carried: list[dict[str, Any]] = []
    now = writer.now
    for old_id, (new_id, status, line, weight) in sorted(pairs.items()):
        if claimed[new_id] != 1:
            continue  # two killed lines alike to one new line: which decision it inherits is not for us to guess
        old = killed[old_id]
        said = {"was": old.evidence, "now": line}
        if old_id in weakened:
            if weight <= old.weight:
                continue  # (weaker already)
            to = "candidate" if "candidate" in (old.status, status) else status
            vault.update_edge_strength(new_id, old.weight, to, now)
            vault.log_edge_events([(new_id, "weakened", "ingest", {"reason": CARRIED, "from_edge": old_id, **said,
                                                                   "previous_strength": weight,
                                                                   "strength": old.weight, "status": to}, now)])
            carried.append({"decision": "weakened", "from_edge": old_id, "to_edge": new_id, "relation": old.type,
                            "source_path": old.source_path, **said})
            continue
        if old.status == "killed":
            store.set_edge_status(new_id, "killed", actor="ingest", reason=CARRIED, when=now, previous=status)
            vault.update_edge_strength(new_id, 0.0, "killed", now)
        elif not _validate(store, new_id, old, now):
            continue
        # decided on the line it is parsed from now: an edge this run took up again (a retired one whose line came
        # back) may still read as gone from its note
        back = [(new_id, "source_changed", "ingest", {"as_decided": True}, now)] \
            if source_now(store.edge_events(new_id)) is not None else []
        vault.log_edge_events([(new_id, CARRIED, "ingest", {"from_edge": old_id, **said}, now),
                               (old_id, CARRIED, "ingest", {"to_edge": new_id, **said}, now), *back])
        carried.append({"decision": "killed" if old.status == "killed" else "validated", "from_edge": old_id,
                        "to_edge": new_id, "relation": old.type, "source_path": old.source_path, **said})
    return carried


def _validate(store: Any, new_id: int, old: Edge, now: str) -> bool:
    """Validate edge `new_id` as `old` was (its reason kept) and retire `old`; False, nothing written, when the gate
    would not let a person validate the new edge."""
    new = store.get_edge(new_id)
    if new is None:
        return False
    decision = gate_edge(new.type, min(1.0, max(0.0, new.confidence)), new.evidence or None, True, "user",
                         requested="active", existing=new.status)  # (as `validate-edge` asks it)
    if not decision.is_active:
        return False
    reason = str(old.metadata.get("validated_reason") or "")
    validated = replace(new, status=decision.status, updated_at=now,
                        metadata={**new.metadata, "validated": True, "validated_reason": reason})
    store.upsert_edge(validated, actor="ingest", event="validated", reason=CARRIED)
    store.set_edge_status(int(old.id or 0), "retired", actor="ingest", reason=CARRIED, when=now, previous=old.status)
    return True


def _alike(was: str, now: str) -> bool:
    if ({w.casefold() for w in _WORD.findall(was)} ^ {w.casefold() for w in _WORD.findall(now)}) & _NEGATIONS:
        return False
    matcher = SequenceMatcher(None, was, now, autojunk=False)
    return matcher.real_quick_ratio() >= SIMILAR and matcher.quick_ratio() >= SIMILAR and matcher.ratio() >= SIMILAR
