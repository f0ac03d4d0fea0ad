"""Ingesting another folder than the one a store was ingested from (app/vault/ingest.py): another vault, which would
remove the store's notes, is refused with nothing changed unless asked for; the same vault moved, checked out
elsewhere, appended to or replaced on purpose goes ahead."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mnemon.core.errors import Conflict


def _vault(root: Path, notes: dict[str, str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in notes.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def two(tmp_path: Path) -> tuple[Path, Path]:
    a = _vault(tmp_path / "a", {"alpha.md": "# Alpha\n\n- Risk: the vendor may slip\n",
                                "gamma.md": "# Gamma\n\nsee [[Alpha]]\n"})
    b = _vault(tmp_path / "b", {"beta.md": "# Beta\n\n- blocked by the permit\n"})
    return a, b


def _notes(mem) -> set[str]:  # type: ignore[no-untyped-def]
    return set(mem.rt.store.vault.files())


def test_another_vault_is_refused_and_nothing_changes(mem, two) -> None:
    a, b = two
    mem.ingest(str(a))
    with pytest.raises(Conflict) as refused:
        mem.ingest(str(b))
    assert refused.value.details["would_remove"] == 2 and refused.value.details["kept"] == 0
    assert "--replace" in str(refused.value) and "--append" in str(refused.value)
    assert _notes(mem) == {"alpha.md", "gamma.md"}
    assert mem.recall("vendor may slip")["results"]
    with pytest.raises(Conflict):
        mem.ingest(str(b), mode="update")


def test_asked_for_it_goes_ahead(mem, two) -> None:
    a, b = two
    mem.ingest(str(a))
    out = mem.ingest(str(b), mode="append")  # beside them
    assert out["notes_removed"] == 0 and _notes(mem) == {"alpha.md", "gamma.md", "beta.md"}
    out = mem.ingest(str(b), replace=True)  # instead of them
    assert out["notes_removed"] == 2 and _notes(mem) == {"beta.md"}


def test_the_same_vault_moved_or_checked_out_elsewhere_goes_ahead(mem, two, tmp_path: Path) -> None:
    a, _b = two
    mem.ingest(str(a))
    moved = tmp_path / "moved"
    shutil.copytree(a, moved)
    (moved / "gamma.md").unlink()  # and one note deleted meanwhile: removed as any rebuild removes it
    out = mem.ingest(str(moved))
    assert out["notes_removed"] == 1 and _notes(mem) == {"alpha.md"}


def test_the_cli_says_conflict_and_exits_non_zero(cli_run, two, facade_backend) -> None:
    if facade_backend != "sqlite":
        return  # (the CLI's store is the test's SQLite one)
    a, b = two
    assert cli_run(["ingest", "--vault", str(a), "--no-embed"])[0] == 0
    code, out = cli_run(["ingest", "--vault", str(b), "--no-embed"])
    assert code != 0 and out["error"]["code"] == "conflict"
    assert cli_run(["ingest", "--vault", str(b), "--no-embed", "--replace"])[0] == 0
