"""QA session 40: an open task (`- [ ]`) is of kind "blocked" by its box alone (Mneme's rule for the proactive
pass: `core.vault.observations.OPEN_TASK`), and the pack weighted it ×1.15 as an open loop whatever was asked:
`retrieve "who is Ada Quill"` (local embedder) put "Follow up with the supplier about the invoice…" first, above the
note's own "Lead engineer on Lighthouse…". A task is work to do, not a state the prompt asked about: it is weighted as
an open loop only when the prompt asks about open work — in the words that make a bullet a blocker ("blocked",
"waiting", "to do", …) or by naming tasks. A bullet its words make a blocker keeps its weight."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

TASK = "Follow up with the supplier about the invoice for the pilot batch"
BLOCKER = "Waiting on [[Bram Okafor]] for the vendor contract before the pilot"


@pytest.fixture
def vault_mem(mem: Mnemon, example_vault: Path) -> Mnemon:
    mem.ingest(str(example_vault))
    return mem


def _factors(mem: Mnemon, prompt: str) -> dict[str, float]:
    out = mem.retrieve(prompt, max_items=20, budget=20_000)
    return {i["text"]: i["score_factors"]["kind"] for i in out["items"] if i["text"] in (TASK, BLOCKER)}


def test_an_open_task_is_no_open_loop_for_a_question_about_a_person(vault_mem: Mnemon) -> None:
    assert _factors(vault_mem, "who is Ada Quill") == {TASK: 1.0, BLOCKER: 1.15}


@pytest.mark.parametrize("prompt", ["what tasks are open for Ada Quill", "what is Ada Quill waiting on",
                                    "what does Ada Quill still have to do", "is anything blocked for the pilot"])
def test_a_prompt_about_open_work_weighs_open_tasks(vault_mem: Mnemon, prompt: str) -> None:
    assert _factors(vault_mem, prompt).get(TASK) == 1.15
