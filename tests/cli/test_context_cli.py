"""The context, thought and note commands through the real CLI entry point: one JSON document, error envelopes."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

Run = Callable[..., tuple[int, Any]]


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / "Projects").mkdir(parents=True)
    (root / "Projects" / "move.md").write_text("# Move\n\n## Tasks\n\n- Book the van\n", encoding="utf-8")
    return root


def test_retrieve_prints_a_context_pack(cli_run: Run) -> None:
    code, _ = cli_run(["remember", "The school confirmation arrives in March", "--cat", "fact"])
    assert code == 0
    code, out = cli_run(["retrieve", "--prompt", "when does the school confirmation arrive?", "--budget", "500",
                         "--max-items", "3", "--no-candidates", "--explain"])
    assert code == 0
    assert out["budget"] == 500 and out["used_budget"] <= 500 and out["include_candidates"] is False
    assert out["items"][0]["truth_policy"] == "active_evidence"
    assert out["explain"]["ranking"]


def test_retrieve_errors_are_json(cli_run: Run) -> None:
    code, out = cli_run(["retrieve", "--prompt", "x", "--max-items", "0"])
    assert code != 0 and out["ok"] is False and out["error"]["code"] == "invalid_input"
    code, out = cli_run(["retrieve", "--prompt", "school", "--as-of", "not-a-date"])
    assert code != 0 and out["error"]["code"] == "invalid_input"


def test_candidates_surface_and_thought(cli_run: Run, tmp_path: Path) -> None:
    assert cli_run(["candidates"]) == (0, {"count": 0, "candidates": []})
    code, out = cli_run(["debug-candidates", "--include-skipped"])
    assert code == 0 and out["empty_reason"] == "no_observations" and out["skipped"] == []
    code, out = cli_run(["surface"])
    assert code == 0 and out["prompt"] is None and out["count"] == 0
    code, out = cli_run(["surface", "--prompt", "anything"])
    assert code == 0 and set(out) == {"prompt", "count", "thoughts", "retrieval", "empty_reason"}
    code, out = cli_run(["thought", "--out", str(tmp_path / "cards")])
    assert code == 0 and out["empty_reason"] == "no_candidates"


@pytest.mark.parametrize("path", ["../escape.md", "/etc/passwd.md", "notes.txt"])
def test_note_escape_is_refused_with_json_error(cli_run: Run, vault: Path, path: str) -> None:
    code, out = cli_run(["note", "write", path, "--vault", str(vault), "--mode", "overwrite", "--content", "x"])
    assert code != 0 and out["ok"] is False and out["error"]["code"] == "path_refused"
    assert not (vault.parent / "escape.md").exists()


def test_note_symlink_escape_is_refused(cli_run: Run, vault: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (vault / "out").symlink_to(outside, target_is_directory=True)
    code, out = cli_run(["note", "add-bullet", "out/x.md", "--vault", str(vault), "--heading", "H", "--bullet", "b"])
    assert code != 0 and out["error"]["code"] == "path_refused"
    assert list(outside.iterdir()) == []


def test_note_commands_round_trip(cli_run: Run, vault: Path) -> None:
    v = ["--vault", str(vault)]
    code, out = cli_run(["note", "add-bullet", "Projects/move.md", *v, "--heading", "Tasks", "--bullet", "Call school",
                         "--dry-run"])
    assert code == 0 and out["dry_run"] and "+- Call school" in out["diff"]
    assert "Call school" not in (vault / "Projects/move.md").read_text(encoding="utf-8")
    code, out = cli_run(["note", "upsert-section", "Projects/move.md", *v, "--heading", "Status", "--content", "Ready"])
    assert code == 0 and out["backup"]
    code, out = cli_run(["note", "replace", "Projects/move.md", *v, "--find", "Ready", "--replace", "Done"])
    assert code == 0 and out["replacements"] == 1
    code, out = cli_run(["note", "read", "Projects/move.md", *v, "--heading", "Status"])
    assert code == 0 and out["content"].strip() == "Done"
    code, out = cli_run(["write", *v, "--path", "Inbox/new.md", "--mode", "create"], input="# New\n")
    assert code == 0 and out["created"] and (vault / "Inbox/new.md").read_text(encoding="utf-8") == "# New\n"


def test_note_vault_from_environment(cli_run: Run, vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMON_VAULT", str(vault))
    code, out = cli_run(["note", "read", "Projects/move.md"])
    assert code == 0 and out["content"].startswith("# Move")
    monkeypatch.delenv("MNEMON_VAULT")
    code, out = cli_run(["note", "read", "Projects/move.md"])
    assert code != 0 and out["error"]["code"] == "invalid_input"


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vault"
SUPPLIER_PROMPT = "what should I remember about supplier launch readiness?"


def test_suggested_commands_run_as_given_against_the_same_store_and_vault(cli_run: Run, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMON_EMBED_PROVIDER", "none")
    vault, db = tmp_path / "example", tmp_path / "surface.db"
    shutil.copytree(EXAMPLE, vault)
    assert cli_run(["--db", db, "ingest", "--vault", vault])[0] == 0
    code, out = cli_run(["--db", db, "surface", "--prompt", SUPPLIER_PROMPT, "--limit", "5"])
    assert code == 0 and out["count"] == 5
    # a section and one of its own bullets do not both take a slot, and no card comes back under another kind
    titles = [t["title"].split(": ", 1)[-1] for t in out["thoughts"]]
    assert len(set(titles)) == 5, titles
    ran = set()
    for card in out["thoughts"]:
        for action in card["suggested_actions"]:
            argv = action["command"]
            assert isinstance(argv, list) and argv[:3] == ["mnemon", "--db", str(db)]
            code, result = cli_run(argv[1:])  # pasted as given: the right store, the right vault, one argument each
            assert code == 0, (argv, result)
            ran.add(action["type"])
            if action["type"] == "inspect":
                assert result["id"] == card["surface"]["source_id"]
            elif action["type"] == "vault_append_bullet":
                assert argv[argv.index("--vault") + 1] == str(vault.resolve())
                assert action["bullet"] in (vault / action["note"]).read_text(encoding="utf-8")
                body = action["bullet"].removeprefix("Follow up: ")  # the text as the card reads it, whole words
                kept, whole = body.removesuffix("…").rstrip(), card["observations"][0]
                assert not body.startswith("- ") and whole.startswith(kept)
                assert len(kept) == len(whole) or not whole[len(kept)].isalnum()
    assert ran == {"inspect", "vault_append_bullet"}
