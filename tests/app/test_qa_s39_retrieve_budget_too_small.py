"""QA round (session 39): a pack whose budget no item fits says so, with the budget the smallest item needs.

`mnemon retrieve --prompt "what is late with the battery supplier" --budget 1` answered `items: []` with
`empty_reason: "all_candidates_skipped"`, the words of a pack whose every candidate was left out for reasons of its
own: nothing told the user that 26 items matched and that raising the budget was all it took. It now answers
`budget_too_small` and `budget_needed`: the smallest budget with which the pack takes an item (a memory's text is
cut to fit from its title and 81 characters on)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mnemon.app.context_budget import MIN_TRUNCATED_TEXT
from mnemon.app.memory import Mnemon

PROMPT = "what is late with the battery supplier"


def test_a_budget_no_item_fits_names_the_budget_needed(example_vault_mem: Mnemon) -> None:
    pack = example_vault_mem.retrieve(PROMPT, budget=1)
    assert pack["items"] == [] and pack["empty_reason"] == "budget_too_small", pack["empty_reason"]
    needed = pack["budget_needed"]
    assert isinstance(needed, int) and needed > 1
    assert example_vault_mem.retrieve(PROMPT, budget=needed - 1)["items"] == []
    taken = example_vault_mem.retrieve(PROMPT, budget=needed)
    assert taken["items"] and taken["empty_reason"] is None and "budget_needed" not in taken
    [item] = taken["items"]
    size = len(item["title"]) + len(item["text"])
    assert size <= needed and (size == needed or item.get("truncated")), item


def test_a_long_memory_needs_only_its_title_and_a_cut_text(make_mem: Callable[..., Mnemon]) -> None:
    mem = make_mem("hash")
    mem.remember("The battery supplier is late: " + "the cells are held at customs for a missing form. " * 20)
    pack = mem.retrieve("battery supplier late", budget=10)
    assert pack["empty_reason"] == "budget_too_small"
    title = len(str(mem.retrieve("battery supplier late")["items"][0]["title"]))
    assert pack["budget_needed"] == title + 1 + MIN_TRUNCATED_TEXT
    assert mem.retrieve("battery supplier late", budget=pack["budget_needed"])["items"][0]["truncated"] is True


def test_the_other_empty_reasons_carry_no_budget_needed(example_vault_mem: Mnemon) -> None:
    pack = example_vault_mem.retrieve("zzqx unmatched words", budget=1)
    assert pack["empty_reason"] == "no_matching_memories" and "budget_needed" not in pack


def test_the_cli_says_it(cli_run: Callable[..., tuple[int, Any]]) -> None:
    assert cli_run(["remember", "The battery supplier is late with the May shipment"])[0] == 0
    code, out = cli_run(["retrieve", "--prompt", PROMPT, "--budget", "1"])
    assert code == 0 and out["empty_reason"] == "budget_too_small" and out["budget_needed"] > 1, out
