"""A note written without its subject ("Chose Qdrant as the vector database", README's first example) is its writer's
own statement: "We moved from Qdrant to pgvector for the vector database" retires it — a CONFLICT naming Qdrant —
where the diff answered UPDATE with no reason, since it looked for "we" among the first words."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mnemon.core.diff import diff_suggestion

CORRECTION = "We moved from Qdrant to pgvector for the vector database"


@pytest.mark.parametrize("old", ["Chose Qdrant as the vector database", "Decided on Qdrant for the vector database",
                                 "Picked Qdrant as the vector database", "Using Qdrant as the vector database"])
def test_a_first_persons_correction_retires_a_note_written_without_its_subject(old: str) -> None:
    verdict, matches = diff_suggestion(CORRECTION, [("a", old, None)])
    assert verdict == "CONFLICT" and 'retires "Qdrant"' in matches[0].reason


@pytest.mark.parametrize("old", ["Alice chose Qdrant as the vector database", "Speed of Qdrant is great",
                                 "Need Qdrant benchmarks before the review"])
def test_a_memory_with_a_subject_of_its_own_is_not_the_writers(old: str) -> None:
    assert diff_suggestion(CORRECTION, [("a", old, None)])[0] != "CONFLICT"


def test_the_readmes_first_example_through_remember(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, first = cli_run(["remember", "Chose Qdrant as the vector database", "--cat", "decision"])
    code, moved = cli_run(["remember", CORRECTION, "--cat", "decision"])
    assert moved["diff_suggestion"] == "CONFLICT" and moved["diff_matches"][0]["id"] == first["id"]
