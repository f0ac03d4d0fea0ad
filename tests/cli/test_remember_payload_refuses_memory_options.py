"""`remember --payload` refuses the options of a single memory instead of dropping them.

A payload carries its own fields, so `--cat`, `--tags`, `--imp`, `--entities`, `--entity-mode`, `--source`,
`--created-at`, `--no-diff` and a positional CONTENT never reached it: `remember --payload F --cat x` stored the
payload and said nothing about the category. Now such a line is a `usage` error naming the options, and nothing is
read or written."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

PAYLOAD = {"source_path": "mneme://cli/options", "nodes": [{"ref": "t", "name": "Task"}],
           "observations": [{"node": "t", "kind": "fact", "text": "Validate retrieval before trusting output."}]}

# each memory option with a value it would accept, and the name the error states
MEMORY_OPTIONS: list[tuple[list[str], str]] = [
    (["--cat", "decision"], "--cat"), (["--imp", "4"], "--imp"), (["--tags", "a,b"], "--tags"),
    (["--entities", "Qdrant"], "--entities"), (["--entity-mode", "merge"], "--entity-mode"),
    (["--source", "agent"], "--source"), (["--created-at", "2024-01-02T00:00:00Z"], "--created-at"),
    (["--no-diff"], "--no-diff"), (["some", "content"], "CONTENT"),
]


def _payload_file(tmp_path: Path) -> Path:
    file = tmp_path / "payload.json"
    file.write_text(json.dumps(PAYLOAD), encoding="utf-8")
    return file


def _nothing_written(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, status = cli_run(["status"])
    assert code == 0 and status["total_insights"] == 0, status
    code, log = cli_run(["log", "--limit", "50"])
    assert code == 0 and not [e for e in log["entries"] if e["op"] != "status"], log


@pytest.mark.parametrize(("args", "named"), MEMORY_OPTIONS, ids=[n for _, n in MEMORY_OPTIONS])
@pytest.mark.parametrize("dry_run", [False, True])
def test_a_memory_option_beside_payload_is_a_usage_error_naming_it_and_writes_nothing(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path, args: list[str], named: str, dry_run: bool) -> None:
    code, out = cli_run(["remember", "--payload", str(_payload_file(tmp_path)), *args,
                         *(["--dry-run"] if dry_run else [])])
    assert code == 2 and out["ok"] is False and out["error"]["code"] == "usage", out
    assert named in out["error"]["message"] and "--payload" in out["error"]["message"]
    _nothing_written(cli_run)


def test_every_stray_option_is_named_at_once(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    code, out = cli_run(["remember", "--payload", str(_payload_file(tmp_path)), "--cat", "x", "--tags", "a",
                         "--no-diff", "words"])
    assert code == 2 and out["error"]["code"] == "usage"
    for named in ("CONTENT", "--cat", "--tags", "--no-diff"):
        assert named in out["error"]["message"], out
    assert "--imp" not in out["error"]["message"]  # only what was given
    _nothing_written(cli_run)


def test_the_option_is_refused_before_stdin_is_read(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run(["remember", "--payload", "-", "--cat", "fact"], input="{not json")
    assert code == 2 and out["error"]["code"] == "usage" and "--cat" in out["error"]["message"]


def test_payload_alone_and_plain_remember_with_options_still_work(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    code, out = cli_run(["remember", "--payload", str(_payload_file(tmp_path)), "--dry-run"])
    assert code == 0 and out["dry_run"] is True
    code, out = cli_run(["remember", "--payload", str(_payload_file(tmp_path))])
    assert code == 0 and out["ok"] is not False
    code, out = cli_run(["remember", "We chose Qdrant", "--cat", "decision", "--tags", "db", "--imp", "4"])
    assert code == 0 and out["action"] == "added"
    code, shown = cli_run(["show", out["id"]])
    assert code == 0 and (shown["category"], shown["importance"], shown["tags"]) == ("decision", 4, ["db"])


# (the shared home is safe across examples: a refused line writes nothing, and the check below says so)
@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chosen=st.lists(st.sampled_from(MEMORY_OPTIONS), min_size=1, max_size=4, unique_by=lambda o: o[1]))
def test_any_mix_of_memory_options_with_payload_is_refused_naming_each(
        cli_run: Callable[..., tuple[int, Any]], tmp_path_factory: pytest.TempPathFactory,
        chosen: list[tuple[list[str], str]]) -> None:
    file = _payload_file(tmp_path_factory.mktemp("p"))
    args = [a for opt, _ in chosen for a in opt]
    code, out = cli_run(["remember", "--payload", str(file), *args])
    assert code == 2 and out["error"]["code"] == "usage"
    assert all(named in out["error"]["message"] for _, named in chosen), (args, out)
    _nothing_written(cli_run)
