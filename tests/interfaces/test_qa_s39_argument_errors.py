"""QA session 39, an agent's misspelt or missing MCP argument: the refusal names the argument for a machine
(`details.field`, as every other argument refusal does) and, for a misspelling, the argument it resembles.
`tools/call recall {"query": "x", "limt": 5}` answered "recall: unknown argument 'limt'; it takes query, limit, …"
without details, where `mnemon recall x --limt 5` says "Did you mean '--limit'?"; `recall {}` answered "missing
argument 'query'" without details either."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from mnemon.core.errors import InvalidInput
from mnemon.interfaces.operations import BY_NAME, OPERATIONS, check_args

from interfaces.test_mcp import _session, call


def _refusal(op: str, args: dict[str, object]) -> InvalidInput:
    with pytest.raises(InvalidInput) as info:
        check_args(BY_NAME[op], args)
    return info.value


def test_a_misspelt_argument_is_named_with_the_one_it_resembles() -> None:
    exc = _refusal("recall", {"query": "x", "limt": 5})
    assert "did you mean 'limit'?" in exc.message
    assert exc.details["field"] == "limt" and "limit" in exc.details["allowed"]
    exc = _refusal("remember", {"content": "x", "Importance": 4})
    assert "did you mean 'importance'?" in exc.message and exc.details["field"] == "Importance"
    # nothing alike: no guess, the list of what it takes
    exc = _refusal("status", {"zzz": 1})
    assert "did you mean" not in exc.message and exc.details == {"field": "zzz", "allowed": []}


def test_a_missing_argument_and_an_exclusive_pair_name_the_field() -> None:
    assert _refusal("recall", {}).details == {"field": "query"}
    assert _refusal("recall", {"query": "x", "brief": True, "verbose": True}).details["field"] == "verbose"


@given(st.sampled_from(OPERATIONS), st.text(min_size=1, max_size=12))
def test_every_unknown_argument_is_named_in_details(op: object, name: str) -> None:
    operation = BY_NAME[op.name]  # type: ignore[attr-defined]
    if name in operation.properties:
        return
    exc = _refusal(operation.name, {name: 1})
    assert exc.details["field"] == name and exc.details["allowed"] == list(operation.properties)


def test_over_mcp_the_refusal_carries_the_field(tmp_path: Path) -> None:
    out = _session(tmp_path, [call(1, "recall", {"query": "x", "limt": 5})])
    error = out[0]["result"]["structuredContent"]["error"]
    assert out[0]["result"]["isError"] is True
    assert error["details"]["field"] == "limt" and "did you mean 'limit'?" in error["message"]
