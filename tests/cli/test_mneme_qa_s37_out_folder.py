"""QA round 37: a card folder that cannot be created is refused before any work, as a card file named as one is.

`mneme run-once --vault V --out /srv/cards` (a folder this user may not create) ingested the whole vault, walked
the graph, and only then failed with "cannot use /srv/cards: Permission denied": the store had changed under a
reply that said the run failed, and its stats were lost. `check_out_dir` caught a file in the way, not a folder that
cannot be made; the folder is now made before the ingest or the walk."""
from __future__ import annotations

import errno
from pathlib import Path

import pytest

from cli.test_mneme_qa_s31 import mneme  # noqa: F401  (a fixture)


@pytest.fixture
def denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder in which this user may create nothing (chmod does not stop root, who runs the suite here)."""
    folder = tmp_path / "srv"
    folder.mkdir()
    real_mkdir = Path.mkdir

    def mkdir(self: Path, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        if folder in self.parents:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir)
    return folder


def test_run_once_ingests_nothing_when_its_card_folder_cannot_be_made(mneme, tmp_path: Path, example_vault: Path,
                                                                      denied: Path) -> None:
    db = tmp_path / "m.sqlite"
    code, out = mneme(["run-once", "--vault", example_vault, "--db", db, "--out", denied / "cards"])
    assert code == 1 and out["error"]["code"] == "invalid_input"
    assert "Permission denied" in out["error"]["message"] and str(denied / "cards") in out["error"]["message"]
    code, out = mneme(["run-once", "--vault", example_vault, "--db", db, "--out", tmp_path / "cards"])
    assert code == 0 and out["stats"]["notes_read"] == 13  # the failed run read no note
    assert Path(out["card"]["svg"]).parent == tmp_path / "cards"
