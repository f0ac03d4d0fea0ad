"""Choosing a context pack's items within its budget: greedy by score, a note's items past its first two ranked
lower, a memory that does not fit shortened to the part holding its matched terms."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.text import excerpt, marked_window_at

PER_SOURCE_FIRST_PASS = 2
# a note's items past its first two compete at this share of their score: a third item of the note a prompt is about
# (0.54) had waited for every item of other notes, and five link edges at 0.014 filled `max_items` before it
SAME_SOURCE_FACTOR = 0.5
MIN_TRUNCATED_TEXT = 80
# an item's private keys, never shown: the items it repeats (their ids → what its skipped entry says when the pack
# holds one), and a section's lines each of them is (`_without_lines_of`)
REPEATS, CUT_LINES = "_repeats", "_cut_lines"


def item_size(item: dict[str, Any]) -> int:
    return len(str(item.get("title") or "")) + len(str(item.get("text") or ""))


def pack(ranked: list[dict[str, Any]], budget: int, max_items: int,
         skipped: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """Greedy by score, a note's items after its first `PER_SOURCE_FIRST_PASS` at `SAME_SOURCE_FACTOR` of theirs (so
    one long note cannot fill the pack while other notes have items nearly as good). The items come back in
    `ranked`'s order (score, then id), not in the order they were taken: read top to bottom, a later-taken item
    above a better-scored one misstated the ranking.

    An item repeating others (`REPEATS`: their ids → what its skipped entry says when the pack holds one) waits until
    the pack has decided on them: it is skipped naming one the pack took — or, a section with prose of its own
    (`CUT_LINES`), taken without their lines — and competes as any item when the pack took none. Judged against every
    item ranked in, a repeat named an item itself left out for `max_items` or the budget: neither was in the pack."""
    chosen: list[dict[str, Any]] = []
    chosen_ids: set[str] = set()
    used = 0
    per_source: dict[str, int] = {}
    refused: dict[str, dict[str, Any]] = {}  # id → why it was left out: its reason, and the item a repeat names
    position: dict[str, int] = {}
    for n, item in enumerate(ranked):
        position.setdefault(item["id"], n)
    waiting = list(ranked)
    undecided = set(position)
    held: dict[str, list[dict[str, Any]]] = {}  # an undecided item → the repeats of it waiting for it
    covered: dict[str, str] = {}  # an item left out as a repeat → the item the pack took that it repeats

    def standing(n: int) -> tuple[float, int]:
        src = str(waiting[n].get("source_path") or "")
        more = bool(src) and per_source.get(src, 0) >= PER_SOURCE_FIRST_PASS
        # the best standing, the earliest of a tie: `ranked`'s order (score, then id)
        return float(waiting[n]["score"]) * (SAME_SOURCE_FACTOR if more else 1.0), -position[waiting[n]["id"]]

    def decided(item_id: str) -> None:
        undecided.discard(item_id)
        waiting.extend(held.pop(item_id, ()))

    while waiting or held:
        if not waiting:  # (items repeating one another: none waits any longer)
            waiting.extend(i for group in held.values() for i in group)
            held.clear()
            undecided.clear()
        if len(chosen) >= max_items:
            refused.update((item["id"], {"reason": "max_items"})
                           for item in [*waiting, *(i for group in held.values() for i in group)])
            break
        item = waiting.pop(max(range(len(waiting)), key=standing))
        originals: Mapping[str, Mapping[str, Any]] = item.get(REPEATS) or {}
        pending = next((o for o in originals if o in undecided and o != item["id"]), None)
        if pending is not None:
            held.setdefault(pending, []).append(item)
            continue
        taken = [o for o in originals if o in chosen_ids]
        if taken:
            cut = _without_lines_of(item, taken)
            if cut is None:
                refused[item["id"]] = dict(originals[taken[0]])
                covered[item["id"]] = taken[0]
                decided(item["id"])
                continue
            item = cut
        elif (via := next((o for o in originals if o in covered), None)) is not None:
            # it repeats an item left out as a repeat of one the pack took (a section's edge, the section's lines all
            # bullets the pack holds): it names the one the pack took, not the section it never saw
            refused[item["id"]] = {**originals[via], "duplicate_of": covered[via]}
            decided(item["id"])
            continue
        size = item_size(item)
        room = budget - used
        if size > room:
            text_room = room - len(str(item.get("title") or "")) - 1
            if item.get("item_type") == "memory" and text_room >= MIN_TRUNCATED_TEXT:
                item = {**item, **shortened(str(item["text"]), text_room, item), "truncated": True}
                size = item_size(item)
            else:
                refused[item["id"]] = {"reason": "budget_limit"}
                decided(item["id"])
                continue
        chosen.append({k: v for k, v in item.items() if k not in (REPEATS, CUT_LINES)})
        chosen_ids.add(item["id"])
        used += size
        src = str(item.get("source_path") or "")
        per_source[src] = per_source.get(src, 0) + 1
        decided(item["id"])
    chosen.sort(key=lambda item: position[item["id"]])  # (a truncated item is a copy: found by its id)
    for item in ranked:
        if item["id"] not in chosen_ids:
            why = refused.get(item["id"], {"reason": "budget_limit"})
            skipped.append({"id": item["id"], "kind": item.get("kind"), "title": excerpt(str(item.get("title")), 80),
                            "score": item["score"], "truth_policy": item.get("truth_policy"), **why})
    return chosen, used


def _without_lines_of(item: dict[str, Any], taken: list[str]) -> dict[str, Any] | None:
    """A section the pack holds some of the lines of as items of their own (`taken`), without those lines, or None
    when it says nothing else (a section of bullets alone: found by its heading, it gives way to its bullet)."""
    lines = item.get(CUT_LINES)
    if not lines:
        return None
    cut = {n for o in taken for n in lines.get(o, ())}
    rest = [(n, line) for n, line in enumerate(str(item["text"]).split("\n")) if n not in cut]
    while rest and not rest[-1][1].strip():
        rest.pop()
    while rest and not rest[0][1].strip():
        rest.pop(0)
    if not rest:
        return None
    shown = "\n".join(line for _n, line in rest)
    out = {**item, "text": shown, "omitted_repeats": [o for o in lines if o in taken]}
    line = item.get("text_line")
    out.pop("text_line", None)
    if isinstance(line, int) and rest[-1][0] - rest[0][0] == len(rest) - 1:
        out["text_line"] = line + rest[0][0]  # (where its text starts; lines left out between: no one line says)
    return out


def budget_needed(ranked: list[dict[str, Any]]) -> int:
    """The smallest budget with which `pack` takes one of `ranked`: an item whole, or a memory cut to its title and
    `MIN_TRUNCATED_TEXT` + 1 characters of text (the reason alone left the user to guess how much to ask for)."""
    return min(min(item_size(item), len(str(item.get("title") or "")) + 1 + MIN_TRUNCATED_TEXT)
               if item.get("item_type") == "memory" else item_size(item) for item in ranked)


def shortened(text: str, room: int, item: Mapping[str, Any]) -> dict[str, Any]:
    """The item's `text` in `room` + 1 characters, each cut marked "…": the part holding its matched terms, and
    its `text_line` moved to the line that part starts at."""
    shown, start = marked_window_at(text, room, frozenset(item.get("matched_terms") or ()))
    line, lines = item.get("text_line"), item.get("property_lines")
    moved = {"text_line": lines[text.count("\n", 0, start)] if isinstance(lines, list) else
             line + text.count("\n", 0, start)} if start and isinstance(line, int) else {}
    return {"text": shown, **moved}
