"""A NUL in a query was answered (`GET /api/recall?query=%00abc`, `mnemon recall $'\\0abc'` through a file) while
`remember` refuses one: a text PostgreSQL cannot hold, and no memory holds, is refused as the library refuses it
everywhere — `invalid_input`, "must not contain NUL characters" — by every read that takes a query or a prompt."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.interfaces.http.server import Api

LOCAL = {"host": "localhost"}
READS = ["recall?query={q}", "search?query={q}", "retrieve?prompt={q}",
         "surface?prompt={q}", "agent_preflight?prompt={q}", "find_nodes?query={q}"]


@pytest.mark.parametrize("read", READS)
def test_a_read_with_a_nul_in_its_query_is_refused(mem: Mnemon, read: str) -> None:
    mem.remember("The pilot starts in June")
    answer = Api(lambda: mem).handle("GET", "/api/" + read.format(q="%00abc"), LOCAL, b"")
    assert answer.status == 400, answer.body
    assert b"invalid_input" in answer.body and b"NUL" in answer.body


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # the store only read: shared is fine
@given(before=st.text(max_size=20), after=st.text(max_size=20))
def test_recall_and_search_refuse_a_nul_anywhere(mem: Mnemon, before: str, after: str) -> None:
    query = before + "\x00" + after
    for call in (mem.recall, mem.search, lambda q: mem.recall(q, basic=True)):
        with pytest.raises(InvalidInput, match="NUL"):
            call(query)


def test_the_cli_refuses_a_nul_in_a_query(cli_run) -> None:  # type: ignore[no-untyped-def]
    for command in ("recall", "search"):
        code, out = cli_run([command, "abc\x00def"])
        assert code != 0 and out["error"]["code"] == "invalid_input" and "NUL" in out["error"]["message"], out


def test_a_nul_in_a_hooks_prompt_still_recalls(cli_run, cli_raw) -> None:  # type: ignore[no-untyped-def]
    """A pasted log holding a NUL is not refused to the prompt hook, which asks the rest of it."""
    import json

    assert cli_run(["remember", "The deploy pipeline runs on the self-hosted runner named atlas"])[0] == 0
    code, out, _ = cli_raw(["hook", "claude-code", "prompt"],
                           input='{"prompt": "which runner does the deploy use? \\u0000 log"}')
    assert code == 0
    answer = json.loads(out)
    assert "systemMessage" not in answer, answer
    assert "runner named atlas" in answer["hookSpecificOutput"]["additionalContext"]
