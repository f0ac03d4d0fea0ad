"""QA round (session 38): `mnemon forget --undo ID [ID ...]` on the command line: one JSON document, all or nothing,
usage errors for what does not go together."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]


def _forgotten(cli_run: Run, text: str) -> str:
    code, out = cli_run(["remember", text])
    assert code == 0
    assert cli_run(["forget", out["id"]])[0] == 0
    return str(out["id"])


def test_several_ids_come_back_in_one_document(cli_run: Run) -> None:
    a, b = _forgotten(cli_run, "the well pump was replaced"), _forgotten(cli_run, "the septic tank is emptied yearly")
    code, plan = cli_run(["forget", "--undo", a, b, "--dry-run"])
    assert code == 0 and plan["status"] == "would_revive" and [r["id"] for r in plan["revived"]] == [a, b]
    assert cli_run(["show", a])[1]["error"]["code"] == "not_found"
    code, out = cli_run(["forget", "--undo", a, b])
    assert code == 0 and [r["id"] for r in out["revived"]] == [a, b]
    assert all(cli_run(["show", i])[0] == 0 for i in (a, b))


def test_one_bad_id_refuses_them_all_with_a_stable_code(cli_run: Run) -> None:
    a = _forgotten(cli_run, "the chimney was swept in March")
    code, out = cli_run(["forget", "--undo", a, "not-an-id"])
    assert code == 1 and out["ok"] is False and out["error"]["code"] == "not_found"
    assert [r["reason"] for r in out["error"]["details"]["refused"]] == ["unknown"]
    assert cli_run(["show", a])[1]["error"]["code"] == "not_found"  # nothing half-done


def test_the_not_found_of_a_forgotten_memory_names_the_undo(cli_run: Run) -> None:
    a = _forgotten(cli_run, "the fuse box is in the cellar")
    out = cli_run(["show", a])[1]
    assert f"mnemon forget --undo {a}" in out["error"]["message"]


@pytest.mark.parametrize("args", [["--undo"], ["--undo", "--source", "mneme://a/b", "x"],
                                  ["--undo", "x", "--days-threshold", "3"], ["a", "b"]])
def test_what_does_not_go_together_is_a_usage_error(cli_raw: Callable[..., tuple[int, str, str]],
                                                    args: list[str]) -> None:
    code, out, err = cli_raw(["forget", *args])
    assert code == 2 and "Traceback" not in err
