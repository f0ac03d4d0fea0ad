"""The context, thought and note commands through the real CLI entry point: one JSON document, error envelopes."""
from __future__ import annotations

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


def test_a_prompt_piped_in_loses_its_line_end(cli_run: Run) -> None:
    """`echo supplier | mnemon retrieve` answered for the prompt "supplier\\n"."""
    assert cli_run(["remember", "The supplier is late"])[0] == 0
    for args in (["retrieve"], ["retrieve", "--prompt", "-"]):
        code, out = cli_run(args, input="supplier\n")
        assert code == 0 and out["prompt"] == "supplier" and out["items"], out


@pytest.mark.parametrize("instant", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
def test_an_as_of_its_offset_pushes_past_the_calendar_is_invalid_input(cli_run: Run, instant: str) -> None:
    """Year 1 at +01:00 is year 0 in UTC: it was an OverflowError, answered as `internal`."""
    assert cli_run(["remember", "Mira lives in Lisbon"])[0] == 0
    for command in (["retrieve", "--prompt", "mira"], ["agent", "preflight", "--prompt", "mira"], ["state", "list"]):
        code, out = cli_run([*command, "--as-of", instant])
        assert code != 0 and out["error"]["code"] == "invalid_input", (command, out)


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


def test_surface_with_an_out_directory_writes_the_cards_there(cli_run: Run, vault: Path, tmp_path: Path) -> None:
    """`surface --out DIR` without `--render` wrote nothing, without a word."""
    assert cli_run(["ingest", "--vault", str(vault)])[0] == 0
    code, out = cli_run(["surface", "--prompt", "book the van", "--out", str(tmp_path / "cards")])
    assert code == 0 and out["count"] >= 1
    assert {Path(t["card"]["svg"]).parent for t in out["thoughts"]} == {tmp_path / "cards"}
    assert all(Path(t["card"]["svg"]).is_file() for t in out["thoughts"])


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


SUPPLIER_PROMPT = "what should I remember about supplier launch readiness?"


def test_suggested_commands_run_as_given_against_the_same_store_and_vault(cli_run: Run, tmp_path: Path,
                                                                           example_vault: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MNEMON_EMBED_PROVIDER", "none")
    db = tmp_path / "surface.db"
    assert cli_run(["--db", db, "ingest", "--vault", example_vault])[0] == 0
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
                assert argv[argv.index("--vault") + 1] == str(example_vault.resolve())
                assert action["bullet"] in (example_vault / action["note"]).read_text(encoding="utf-8")
                body = action["bullet"].removeprefix("Follow up: ")  # the text as the card reads it, whole words
                kept, whole = body.removesuffix("…").rstrip(), card["observations"][0]
                assert not body.startswith("- ") and whole.startswith(kept)
                assert len(kept) == len(whole) or not whole[len(kept)].isalnum()
    assert ran == {"inspect", "vault_append_bullet"}


# ── note list|search|search-content|daily|move|delete|status ───────────────────────────────────────────────────
def _linked(vault: Path) -> None:
    (vault / "Inbox").mkdir()
    (vault / "Inbox/links.md").write_text("See [[move|the move]] and [tasks](../Projects/move.md#tasks).\n"
                                          "`[[move]]` stays\n", encoding="utf-8")


def _files(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


def test_note_list_search_and_status(cli_run: Run, vault: Path) -> None:
    _linked(vault)
    v = ["--vault", str(vault)]
    code, out = cli_run(["note", "list", *v])
    assert code == 0 and out["count"] == 2 and [n["path"] for n in out["notes"]] == ["Inbox/links.md",
                                                                                     "Projects/move.md"]
    code, out = cli_run(["note", "list", "Projects", *v, "--pattern", "m*", "--sort", "modified"])
    assert code == 0 and out["notes"][0]["title"] == "Move" and out["folder"] == "Projects"
    code, out = cli_run(["note", "search", "mov", *v])
    assert code == 0 and out["count"] == 1 and out["matches"][0]["path"] == "Projects/move.md"
    code, out = cli_run(["note", "search-content", "book THE", *v, "--context", "0"])
    assert code == 0 and out["matches"] == [{"path": "Projects/move.md", "line": 5, "text": "- Book the van",
                                             "before": [], "after": []}]
    code, out = cli_run(["note", "status", *v])
    assert code == 0 and out["notes"] == 2 and out["links"] == {"count": 2, "broken": 0}


def test_note_move_and_delete_through_the_cli(cli_run: Run, vault: Path) -> None:
    _linked(vault)
    v = ["--vault", str(vault)]
    before = _files(vault)
    code, out = cli_run(["note", "move", "Projects/move.md", "--to", "Archive/relocation.md", *v, "--dry-run"])
    assert code == 0 and out["dry_run"] and out["links_rewritten"] == 2
    assert "+See [[relocation|the move]] and [tasks](../Archive/relocation.md#tasks)." in \
        out["rewritten"]["files"][0]["diff"]
    assert _files(vault) == before
    code, out = cli_run(["note", "move", "Projects/move.md", "--to", "Inbox/links.md", *v])
    assert code != 0 and out["error"]["code"] == "conflict"
    code, out = cli_run(["note", "move", "Projects/move.md", "--to", "Archive/relocation.md", *v])
    assert code == 0 and out["moved"] and out["backup"]
    assert (vault / "Inbox/links.md").read_text(encoding="utf-8") == (
        "See [[relocation|the move]] and [tasks](../Archive/relocation.md#tasks).\n"
        "`[[move]]` stays\n")
    code, out = cli_run(["note", "delete", "Archive/relocation.md", *v])
    assert code != 0 and out["error"]["code"] == "conflict"
    assert out["error"]["details"]["linked_from"]["notes"][0]["path"] == "Inbox/links.md"
    before = _files(vault)
    code, out = cli_run(["note", "delete", "Archive/relocation.md", *v, "--force", "--dry-run"])
    assert code == 0 and not out["deleted"] and _files(vault) == before
    code, out = cli_run(["note", "delete", "Archive/relocation.md", *v, "--force"])
    assert code == 0 and out["deleted"] and not (vault / "Archive/relocation.md").exists()
    code, out = cli_run(["note", "delete", "Archive/relocation.md", *v])
    assert code != 0 and out["error"]["code"] == "not_found"


def test_note_daily_through_the_cli(cli_run: Run, vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    v = ["--vault", str(vault)]
    code, out = cli_run(["note", "daily", "append", *v, "--date", "2026-03-01", "--heading", "Log", "--content", "- a"])
    assert code == 0 and out["path"] == "Daily/2026-03-01.md" and out["created"]
    code, out = cli_run(["note", "daily", "append", *v, "--date", "2026-03-01", "--heading", "Log"], input="- b\n")
    assert code == 0 and out["backup"]
    code, out = cli_run(["note", "daily", *v, "--date", "2026-03-01"])
    assert code == 0 and out["action"] == "read" and out["content"] == "## Log\n\n- a\n- b\n"
    monkeypatch.setenv("MNEMON_DAILY_PATTERN", "Journal/YYYY-MM-DD")
    code, out = cli_run(["note", "daily", *v, "--date", "2026-03-01", "--content", "x", "--dry-run"])
    assert code == 0 and out["path"] == "Journal/2026-03-01.md" and not (vault / "Journal").exists()
    code, out = cli_run(["note", "daily", "read", *v, "--date", "March 1st"])
    assert code != 0 and out["error"]["code"] == "invalid_input"


@pytest.mark.parametrize("line", [
    ["note", "list", "../"], ["note", "list", "/etc"], ["note", "search", "x", "--folder", "/etc"],
    ["note", "search-content", "x", "--folder", ".."],
    ["note", "daily", "append", "--content", "x", "--pattern", "../YYYY-MM-DD"],
    ["note", "daily", "append", "--content", "x", "--pattern", "/tmp/YYYY-MM-DD"],
    ["note", "move", "Projects/move.md", "--to", "../escape.md"],
    ["note", "move", "Projects/move.md", "--to", "/tmp/escape.md"],
    ["note", "move", "../escape.md", "--to", "Projects/x.md"], ["note", "delete", "/etc/passwd.md"],
    ["note", "delete", "Projects/../../escape.md", "--force"],
])
def test_note_extras_refuse_paths_outside_the_vault(cli_run: Run, vault: Path, line: list[str]) -> None:
    (vault.parent / "escape.md").write_text("outside", encoding="utf-8")
    before = _files(vault.parent)
    code, out = cli_run([*line, "--vault", str(vault)])
    assert code != 0 and out["ok"] is False and out["error"]["code"] == "path_refused"
    assert _files(vault.parent) == before


def test_note_extras_refuse_symlinks_out_of_the_vault(cli_run: Run, vault: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("secret", encoding="utf-8")
    (vault / "out").symlink_to(outside, target_is_directory=True)
    v = ["--vault", str(vault)]
    for line in (["note", "list", "out"], ["note", "move", "Projects/move.md", "--to", "out/x.md"],
                 ["note", "move", "out/secret.md", "--to", "Projects/x.md"], ["note", "delete", "out/secret.md"],
                 ["note", "daily", "append", "--content", "x", "--pattern", "out/YYYY-MM-DD"]):
        code, out = cli_run([*line, *v])
        assert code != 0 and out["error"]["code"] == "path_refused", line
    assert sorted(p.name for p in outside.iterdir()) == ["secret.md"]


def test_an_out_that_is_a_file_is_invalid_input_before_any_work(cli_run: Run, tmp_path: Path,
                                                                example_vault: Path) -> None:
    afile = tmp_path / "afile"
    afile.write_text("mine\n", encoding="utf-8")
    for line in (["thought", "--out", afile], ["surface", "--render", "--out", afile],
                 ["surface", "--prompt", "battery", "--render", "--out", afile / "cards"],
                 ["run-once", "--vault", example_vault, "--out", afile]):
        code, out = cli_run(line)
        assert code == 1 and out["error"]["code"] == "invalid_input", line
        assert "--out must be a directory" in out["error"]["message"]
    assert afile.read_text(encoding="utf-8") == "mine\n"
    code, status = cli_run(["status"])
    assert code == 0 and status["nodes_by_kind"] == {}  # run-once refused before it ingested anything
