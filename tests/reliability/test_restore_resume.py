"""Restores a user can finish and trust: one stopped after its commit (killed while embedding the memories that came
without vectors) is finished by running the same import again; what it cannot restore, or what later writes will
take from it (a store left over its cap), is said in its reply."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]


def _restored_without_some_vectors(cli_run: Run, tmp_path: Path) -> tuple[Path, Path]:
    src, dst, backup = tmp_path / "src.db", tmp_path / "dst.db", tmp_path / "backup.json"
    for n in range(6):
        assert cli_run(["--db", src, "remember", f"Alice visited Lisbon on trip {n}"])[0] == 0
    assert cli_run(["--db", src, "export", "--no-vectors", "--out", backup])[0] == 0
    code, out = cli_run(["--db", dst, "import", backup])
    assert code == 0 and out["imported"] == 6 and out["embedded"] == 6
    # the process killed half way through embedding: the restore is committed, four vectors never written
    con = sqlite3.connect(dst)
    with con:
        con.execute("DELETE FROM vectors WHERE node_seq IN (SELECT node_seq FROM vectors ORDER BY node_seq LIMIT 4)")
    con.close()
    return dst, backup


def test_importing_the_backup_again_embeds_what_the_stopped_restore_left(cli_run: Run, tmp_path: Path) -> None:
    dst, backup = _restored_without_some_vectors(cli_run, tmp_path)
    assert cli_run(["--db", dst, "status"])[1]["embedding"]["embedded"] == 2
    code, out = cli_run(["--db", dst, "import", backup])
    assert code == 0 and out["imported"] == 0 and out["skipped"] == 6
    assert out["embedded"] == 4
    status = cli_run(["--db", dst, "status"])[1]["embedding"]
    assert status["embedded"] == status["total"] == 6


def test_importing_a_complete_restore_again_embeds_nothing_and_warns_of_nothing(cli_run: Run, tmp_path: Path) -> None:
    dst, backup = _restored_without_some_vectors(cli_run, tmp_path)
    assert cli_run(["--db", dst, "import", backup])[1]["embedded"] == 4
    code, out = cli_run(["--db", dst, "import", backup])
    assert code == 0 and out["embedded"] == 0 and not out.get("warnings")


def test_with_embedding_off_a_repeated_import_claims_no_restored_memories(cli_run: Run, tmp_path: Path) -> None:
    dst, backup = _restored_without_some_vectors(cli_run, tmp_path)
    code, out = cli_run(["--db", dst, "--embed", "none", "import", backup])
    assert code == 0 and out["imported"] == 0 and out["embedded"] == 0
    assert not any("restored memories" in w for w in out.get("warnings", []))  # it restored none


def _with(backup: Path, out: Path, first: dict[str, Any], last: dict[str, Any]) -> Path:
    import json

    doc = json.loads(backup.read_text(encoding="utf-8"))
    out.write_text(json.dumps({**first, **doc, **last}), encoding="utf-8")
    return out


def test_a_member_this_mnemon_does_not_restore_is_named_not_dropped_in_silence(cli_run: Run, tmp_path: Path) -> None:
    """An export made by a newer mnemon (or edited) with a member this one does not know: its rows were left out
    without a word, and the reply read as a complete restore."""
    src, backup = tmp_path / "src.db", tmp_path / "backup.json"
    assert cli_run(["--db", src, "remember", "Alice visited Lisbon"])[0] == 0
    assert cli_run(["--db", src, "export", "--out", backup])[0] == 0
    rows = [{"id": "r1", "value": "kept only in this member"}]
    for name, first, last in (("after.json", {}, {"world_budgets": rows}),
                              ("before.json", {"kind": "mnemon-export", "world_budgets": rows}, {})):
        code, out = cli_run(["--db", tmp_path / f"{name}.db", "import", _with(backup, tmp_path / name, first, last)])
        assert code == 0 and out["imported"] == 1
        assert any("world_budgets" in w for w in out.get("warnings", [])), out.get("warnings")


def test_a_complete_export_restores_without_warnings(cli_run: Run, tmp_path: Path) -> None:
    src, backup = tmp_path / "src.db", tmp_path / "backup.json"
    assert cli_run(["--db", src, "remember", "Alice visited Lisbon"])[0] == 0
    assert cli_run(["--db", src, "export", "--out", backup])[0] == 0
    code, out = cli_run(["--db", tmp_path / "dst.db", "import", backup])
    assert code == 0 and out["imported"] == 1 and not out.get("warnings")


def _backup_of(cli_run: Run, tmp_path: Path, n: int) -> Path:
    src, backup = tmp_path / "src.db", tmp_path / "backup.json"
    for k in range(n):
        assert cli_run(["--db", src, "remember", f"Alice visited city number {k} on her trip"])[0] == 0
    assert cli_run(["--db", src, "export", "--out", backup])[0] == 0
    return backup


def test_a_restore_that_leaves_the_store_over_its_cap_says_later_writes_will_prune(
        cli_run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Restored on a machine with a smaller cap (the default 1,000, where the backup's store had more), every write
    after the grace period soft-deleted some restored memories, and nothing at the restore said so."""
    backup = _backup_of(cli_run, tmp_path, 5)
    monkeypatch.setenv("MNEMON_MAX_INSIGHTS", "3")
    code, out = cli_run(["--db", tmp_path / "dst.db", "import", backup])
    assert code == 0 and out["imported"] == 5
    assert any("MNEMON_MAX_INSIGHTS" in w and "5" in w and "3" in w for w in out.get("warnings", [])), out
    monkeypatch.setenv("MNEMON_MAX_INSIGHTS", "5")
    code, out = cli_run(["--db", tmp_path / "dst2.db", "import", backup])
    assert code == 0 and out["imported"] == 5 and not out.get("warnings")
