"""`mneme remember add|remove` take Mneme's options and nothing else.

Mneme documents `remember remove` as accepting only mneme:// sources: "That keeps vault-ingested notes and
user-authored Markdown outside the deletion path". The lines used to fall through to mnemon's `forget`, so
`mneme remember remove ID` soft-deleted a memory and `--days-threshold` aged the vault's edges; `remember add`
passed mnemon's `--cat`/`--tags` through to be ignored. Their `--help` described mnemon's `--payload`/`--source`.
"""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mnemon.interfaces.mneme_cli import Untranslatable, main, translate

PAYLOAD = {"source_path": "mneme://test/validation", "nodes": [{"ref": "t", "name": "Task"}],
           "observations": [{"node": "t", "kind": "fact", "text": "Validate retrieval before trusting output."}]}


@pytest.fixture
def mneme(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch):
    def run(args: list[Any], input: str | None = None) -> tuple[int, str]:
        capsys.readouterr()
        if input is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(input))
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return code, out
    return run


def _json(result: tuple[int, str]) -> tuple[int, Any]:
    return result[0], json.loads(result[1])


def test_remember_remove_never_forgets_a_memory_or_ages_the_vault(mneme, cli_run, tmp_path: Path,
                                                                   example_vault: Path) -> None:
    db = tmp_path / "m.sqlite"
    assert mneme(["ingest", "--vault", example_vault, "--db", db])[0] == 0
    code, added = cli_run(["--db", str(db), "remember", "The vendor prefers email"])
    assert code == 0
    memory = added["id"]
    _, before = cli_run(["--db", str(db), "status"])

    code, out = _json(mneme(["remember", "remove", "--db", db, memory]))
    assert code == 2 and out["error"]["code"] == "usage" and "--source-path" in out["error"]["message"]
    code, out = _json(mneme(["remember", "remove", "--db", db, "--days-threshold", "1"]))
    assert code == 2 and out["error"]["code"] == "usage"
    code, out = _json(mneme(["remember", "remove", "--db", db, "--source-path", "mneme://x", memory]))
    assert code == 2 and out["error"]["code"] == "usage"

    assert cli_run(["--db", str(db), "show", memory])[0] == 0  # still there
    _, after = cli_run(["--db", str(db), "status"])
    assert after["edges_by_status"] == before["edges_by_status"]  # no vault edge was demoted


def test_remember_add_refuses_options_mneme_does_not_have_and_writes_nothing(mneme, tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    file = tmp_path / "payload.json"
    file.write_text(json.dumps(PAYLOAD))
    for extra in (["--cat", "fact"], ["--tags", "a,b"], ["some text"], ["--source-path", "mneme://x"]):
        code, out = _json(mneme(["remember", "add", "--db", db, "--file", file, *extra]))
        assert code == 2 and out["error"]["code"] == "usage", extra
        assert out["error"]["message"].startswith("mneme remember add: ")
    assert not db.exists()
    code, out = _json(mneme(["remember", "add", "--db", db, "--file", file, "--json"]))
    assert code == 0 and out["ok"] and out["source_path"] == "mneme://test/validation"
    code, out = _json(mneme(["remember", "add", "--db", db], input=json.dumps(PAYLOAD)))  # stdin, as Mneme
    assert code == 0 and out["ok"]
    code, out = _json(mneme(["remember", "remove", f"--db={db}", "--source-path=mneme://test/validation",
                             "--dry-run"]))
    assert code == 0 and out["dry_run"] and out["removed"]["observations"] == 1


@pytest.mark.parametrize(("line", "shows", "hides"), [
    (["remember", "add", "--help"], ["Usage: mneme remember add", "--file", "--dry-run", "--db"],
     ["--payload", "CONTENT", "--cat"]),
    (["remember", "remove", "-h"], ["Usage: mneme remember remove", "--source-path", "--dry-run"],
     ["Usage: mneme forget", "--source TEXT", "NODE_ID", "--days-threshold"]),
    (["remember", "--help"], ["Usage: mneme remember", "add", "remove"], ["--payload"]),
])
def test_remember_help_states_mnemes_options(mneme, line: list[str], shows: list[str], hides: list[str]) -> None:
    code, out = mneme(line)
    assert code == 0
    for text in shows:
        assert text in out, text
    for text in hides:
        assert text not in out, text


_TOKENS = st.one_of(st.sampled_from(["--file", "--dry-run", "--source-path", "--source", "--payload", "--cat",
                                     "--days-threshold", "--json", "-", "mneme://a", "x.json", "abc", "7"]),
                    st.text(max_size=6))


@given(action=st.sampled_from(["add", "remove"]), tokens=st.lists(_TOKENS, max_size=5))
def test_a_remember_line_becomes_scoped_payload_work_or_a_usage_error(action: str, tokens: list[str]) -> None:
    if "--help" in tokens or "-h" in tokens:
        return
    try:
        argv = translate(["remember", action, *tokens])
    except Untranslatable:
        return
    if action == "add":
        assert argv[:2] == ["remember", "--payload"] and len(argv) in (3, 4)
    else:
        assert argv[:2] == ["forget", "--source"] and len(argv) in (3, 4)
    assert argv[3:] in ([], ["--dry-run"])
