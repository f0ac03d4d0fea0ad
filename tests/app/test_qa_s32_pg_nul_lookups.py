"""A NUL in what a command looks something up by (an id, a subject, a source, an op) finds nothing on both backends.
SQLite compared it and found no row; PostgreSQL refused the parameter itself ("text fields cannot contain NUL"), so
`show`, `forget`, `link`, `graph --focus`, `state explain`, `state list --subject`, `alias ls --canonical`,
`log --op`, `recall --source` … printed an `internal` error instead of `not_found` or an empty list."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput, NotFound

NUL_ID = "a\x00b"

NOT_FOUND: dict[str, Callable[[Mnemon, str], Any]] = {
    "show": lambda m, known: m.show(NUL_ID),
    "related": lambda m, known: m.related(NUL_ID),
    "forget": lambda m, known: m.forget(NUL_ID),
    "link to": lambda m, known: m.link(known, NUL_ID),
    "link from": lambda m, known: m.link(NUL_ID, known),
    "graph focus": lambda m, known: m.graph(focus=NUL_ID),
    "gc keep": lambda m, known: m.gc(keep=NUL_ID),
    "state explain": lambda m, known: m.state_explain(NUL_ID),
    "state retract": lambda m, known: m.state_retract(NUL_ID, reason="wrong"),
    "predict check": lambda m, known: m.predict_check(prediction_id=NUL_ID),
}
EMPTY: dict[str, tuple[Callable[[Mnemon], Any], str]] = {
    "state list subject": (lambda m: m.state_list(subject=NUL_ID), "assertions"),
    "state list predicate": (lambda m: m.state_list(predicate=NUL_ID), "assertions"),
    "alias ls canonical": (lambda m: m.alias_ls(canonical=NUL_ID), "aliases"),
    "recall source": (lambda m: m.recall("apples", source=NUL_ID), "results"),
}


@pytest.fixture
def mem_with_a_memory(make_mem: Callable[..., Mnemon]) -> tuple[Mnemon, str]:
    mem = make_mem()
    return mem, str(mem.remember("Alice grows apples in the orchard", source="agent")["id"])


@pytest.mark.parametrize("command", sorted(NOT_FOUND))
def test_a_lookup_by_a_nul_id_is_not_found(mem_with_a_memory: tuple[Mnemon, str], command: str) -> None:
    mem, known = mem_with_a_memory
    with pytest.raises(NotFound):
        NOT_FOUND[command](mem, known)
    assert mem.show(known)["content"] == "Alice grows apples in the orchard"  # the store goes on answering


@pytest.mark.parametrize("command", sorted(EMPTY))
def test_a_filter_holding_a_nul_matches_nothing(mem_with_a_memory: tuple[Mnemon, str], command: str) -> None:
    mem, _ = mem_with_a_memory
    call, member = EMPTY[command]
    assert call(mem)[member] == []


def test_a_log_op_holding_a_nul_is_an_unknown_op_on_both(mem_with_a_memory: tuple[Mnemon, str]) -> None:
    mem, _ = mem_with_a_memory
    with pytest.raises(InvalidInput, match="unknown operation"):  # (no op is spelt so: not the backend's refusal)
        mem.log(op=NUL_ID)


def test_the_cli_says_not_found(mem_with_a_memory: tuple[Mnemon, str],
                                cli_run: Callable[..., tuple[int, Any]]) -> None:
    mem, _ = mem_with_a_memory
    code, out = cli_run(["--db", mem.rt.store.path, "show", NUL_ID])
    assert code != 0 and out["error"]["code"] == "not_found"
