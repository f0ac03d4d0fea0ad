"""A log level is no entity: 'mnemon remember "ERROR: payment webhook timed out after 30 s"' stored the entity ERROR,
and so did "ERROR: disk full on the build runner": two unrelated failures linked because both quoted a log line, as
was every memory quoting pytest's "FAILED" or "PASSED"."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities


def test_memories_quoting_log_lines_are_not_linked_by_the_level(mem: Mnemon) -> None:
    webhook = mem.remember("ERROR: payment webhook timed out after 30 s")
    disk = mem.remember("ERROR: disk full on the build runner")
    assert mem.show(webhook["id"])["entities"] == []
    assert disk["edges_created"]["entity"] == 0


@pytest.mark.parametrize("text", [
    "WARN slow query", "INFO starting worker", "DEBUG cache miss", "TRACE span closed", "FATAL out of memory",
    "FAILED tests/test_api.py::test_login", "PASSED tests/test_api.py::test_logout", "the ERRORS were transient",
])
def test_log_levels_and_test_outcomes_are_no_entities(text: str) -> None:
    assert not {"WARN", "INFO", "DEBUG", "TRACE", "FATAL", "FAILED", "PASSED", "ERRORS"} & set(extract_entities(text))
    assert not {"WARN", "INFO", "DEBUG", "TRACE", "FATAL", "FAILED", "PASSED", "ERRORS"} & set(
        extract_entities(text, known=lambda words: set()))


def test_a_name_beside_a_log_level_stays() -> None:
    assert extract_entities("ERROR: ECONNREFUSED from the GKE ingress") == ["ECONNREFUSED", "GKE"]
