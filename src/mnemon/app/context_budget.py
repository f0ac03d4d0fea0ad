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


def item_size(item: dict[str, Any]) -> int:
    return len(str(item.get("title") or "")) + len(str(item.get("text") or ""))


def pack(ranked: list[dict[str, Any]], budget: int, max_items: int,
          skipped: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """Greedy by score, a note's items after its first `PER_SOURCE_FIRST_PASS` at `SAME_SOURCE_FACTOR` of theirs (so
    one long note cannot fill the pack while other notes have items nearly as good). The items come back in
    `ranked`'s order (score, then id), not in the order they were taken: read top to bottom, a later-taken item
    above a better-scored one misstated the ranking."""
    chosen: list[dict[str, Any]] = []
    chosen_ids: set[str] = set()
    used = 0
    per_source: dict[str, int] = {}
    refused: dict[str, str] = {}
    waiting = list(ranked)

    def standing(n: int) -> float:
        src = str(waiting[n].get("source_path") or "")
        more = bool(src) and per_source.get(src, 0) >= PER_SOURCE_FIRST_PASS
        return float(waiting[n]["score"]) * (SAME_SOURCE_FACTOR if more else 1.0)

    while waiting:
        if len(chosen) >= max_items:
            refused.update((item["id"], "max_items") for item in waiting)
            break
        # the best standing, the earliest of a tie: `ranked`'s order (score, then id)
        item = waiting.pop(max(range(len(waiting)), key=lambda n: (standing(n), -n)))
        size = item_size(item)
        room = budget - used
        if size > room:
            text_room = room - len(str(item.get("title") or "")) - 1
            if item.get("item_type") == "memory" and text_room >= MIN_TRUNCATED_TEXT:
                item = {**item, **shortened(str(item["text"]), text_room, item), "truncated": True}
                size = item_size(item)
            else:
                refused[item["id"]] = "budget_limit"
                continue
        chosen.append(item)
        chosen_ids.add(item["id"])
        used += size
        src = str(item.get("source_path") or "")
        per_source[src] = per_source.get(src, 0) + 1
    position: dict[str, int] = {}
    for n, item in enumerate(ranked):
        position.setdefault(item["id"], n)
    chosen.sort(key=lambda item: position[item["id"]])  # (a truncated item is a copy: found by its id)
    for item in ranked:
        if item["id"] not in chosen_ids:
            skipped.append({"id": item["id"], "kind": item.get("kind"), "title": excerpt(str(item.get("title")), 80),
                            "score": item["score"], "truth_policy": item.get("truth_policy"),
                            "reason": refused.get(item["id"], "budget_limit")})
    return chosen, used


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
