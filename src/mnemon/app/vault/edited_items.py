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
weakened strength and status (its `weakened` event says `decision_carried` and the edge it came from), and the old
one is retired and kept as a validated one is (`VaultWriter.weakened_items` held it through the rebuild). A weakened
line gone with no successor is retired and kept too (`line_gone`, the status it had), taken up again weakened if its
line comes back: `explain-edge` of any of them still answers.

An edge a validation or weakening was carried from is marked with its successor (`carried_to`). Taken up again when
its line comes back, it is a parse of that line again (the decision lives on the successor) but keeps the mark, so
when its line goes once more it is retired again and kept with its history, not deleted as an undecided parse.
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
CARRIED_TO = "carried_to"  # metadata of an edge a validation or weakening was carried from: the edge it went to
LINE_GONE = "line_gone"  # metadata of a weakened edge retired with its line (no successor): the status it had
GONE = "not_in_note"
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def is_item(node_id: str) -> bool:
    """A task's or bullet's row: its edge's evidence is its whole line."""
    return node_id.startswith("vault:") and _ITEM.search(node_id) is not None


def _marks(metadata: str | None) -> dict[str, Any]:
    if not metadata or not any(f'"{key}"' in metadata for key in ("validated", CARRIED_TO, LINE_GONE)):
        return {}
    decided = json.loads(metadata)
    return decided if isinstance(decided, dict) else {}


def retired_decision(status: str, metadata: str | None) -> bool:
    """Whether an ingested edge (its stored metadata JSON) is a decided edge the ingest retired with its line — a
    validation or weakening carried to its line's edited successor, a weakened line gone: a rebuild keeps it while
    its line stays out of the note."""
    if status != "retired":
        return False
    marks = _marks(metadata)
    return marks.get("validated") is True or CARRIED_TO in marks or LINE_GONE in marks


def carried_from(status: str, metadata: str | None) -> bool:
    """Whether an ingested edge is one a decision was carried from, taken up again since (its line came back): when
    its line goes again it is retired again and kept (`VaultWriter.retake`), not deleted."""
    return status in ("active", "candidate") and CARRIED_TO in _marks(metadata)


def taken_up(found: tuple[Any, ...], row: tuple[Any, ...]) -> tuple[float, str, str]:
    """(strength, status, metadata JSON) of a kept retired edge (`retired_decision`) or one a decision was carried
    from (`found`, as `edge_values_from` gives it) that the re-parse plans again (`row`, as `write_edges` builds it):
    the parse of its line, keeping the mark of where its decision went; a weakened line gone and back keeps its
    weakening and the status it had."""
    marks = _marks(found[7])
    planned = json.loads(row[10]) if row[10] else {}
    if LINE_GONE in marks and CARRIED_TO not in marks:
        return min(float(found[2]), float(row[3])), str(marks[LINE_GONE]), row[10]
    if CARRIED_TO in marks or marks.get("validated") is True:  # (retired by a carry before the mark existed)
        return row[3], row[5], _COMPACT({**planned, CARRIED_TO: marks.get(CARRIED_TO)})
    return row[3], row[5], row[10]


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
    held, writer.held_weakened = writer.held_weakened, set()  # (the weakened edges still there: their lines went)
    for old_id, (new_id, status, line, weight) in sorted(pairs.items()):
        if claimed[new_id] != 1:
            continue  # two killed lines alike to one new line: which decision it inherits is not for us to guess
        old = killed[old_id]
        said = {"was": old.evidence, "now": line}
        if old_id in weakened:
            if weight <= old.weight or old_id not in held:
                continue  # (weaker already)
            to = "candidate" if "candidate" in (old.status, status) else status
            vault.update_edge_strength(new_id, old.weight, to, now)
            vault.log_edge_events([(new_id, "weakened", "ingest", {"reason": CARRIED, "from_edge": old_id, **said,
                                                                   "previous_strength": weight,
                                                                   "strength": old.weight, "status": to}, now)])
            store.set_edge_status(old_id, "retired", actor="ingest", reason=CARRIED, when=now, previous=old.status)
            held.discard(old_id)
            decision = "weakened"
        elif old.status == "killed":
            store.set_edge_status(new_id, "killed", actor="ingest", reason=CARRIED, when=now, previous=status)
            vault.update_edge_strength(new_id, 0.0, "killed", now)
            decision = "killed"
        elif not _validate(store, new_id, old, now):
            continue
        else:
            decision = "validated"
        if decision != "killed":  # (a kill's tombstone stays a tombstone: kept, and blocking its line, as it is)
            vault.mark_edges([old_id], CARRIED_TO, new_id)
        # decided on the line it is parsed from now: an edge this run took up again (a retired one whose line came
        # back) may still read as gone from its note
        back = [(new_id, "source_changed", "ingest", {"as_decided": True}, now)] \
            if source_now(store.edge_events(new_id)) is not None else []
        out = [(old_id, "source_gone", "ingest", {"reason": GONE}, now)] if decision == "weakened" else []
        vault.log_edge_events([(new_id, CARRIED, "ingest", {"from_edge": old_id, **said}, now),
                               (old_id, CARRIED, "ingest", {"to_edge": new_id, **said}, now), *back, *out])
        carried.append({"decision": decision, "from_edge": old_id, "to_edge": new_id, "relation": old.type,
                        "source_path": old.source_path, **said})
    _retire_weakened(writer, [killed[i] for i in sorted(held) if i in killed])
    return carried


def _retire_weakened(writer: Any, edges: list[Edge]) -> None:
    """Retire and keep the weakened edges whose lines left their note with no successor to carry the weakening to:
    as a killed or validated edge is kept when its line goes, `explain-edge` of it answers (`source_now`: not in
    the note), and its line put back takes it up weakened (`taken_up`)."""
    for edge in edges:
        writer.rt.store.set_edge_status(int(edge.id or 0), "retired", actor="ingest", reason=GONE, when=writer.now,
                                        previous=edge.status)
        writer.vault.mark_edges([int(edge.id or 0)], LINE_GONE, edge.status)
    writer.vault.log_edge_events([(int(e.id or 0), "source_gone", "ingest", {"reason": GONE}, writer.now)
                                  for e in edges])


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
