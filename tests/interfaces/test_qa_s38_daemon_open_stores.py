"""`mnemon daemon status` lists each database it holds open once. Its `open_stores` named
`…/data/default/mnemon.db` twice after `remember`, `status` and a `--db data/default/mnemon.db recall` from the
home (one facade per way of opening: for writing, read-only, by another spelling of the path), and a symlinked
folder's spelling beside the real one — one file, listed as two."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from mnemon.interfaces.cli import main as cli_main
from mnemon.interfaces.daemon.server import FacadePool


def test_open_stores_name_each_database_once_by_its_real_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    pool = FacadePool()
    monkeypatch.setattr(cli_main, "FACADES", pool)
    real = tmp_path / "stores" / "m.db"
    real.parent.mkdir()
    (tmp_path / "link").symlink_to(real.parent)
    other = tmp_path / "other.db"
    monkeypatch.chdir(tmp_path)
    try:
        for db, argv in ((real, ["remember", "The boiler was serviced in March"]), (real, ["status"]),
                         (Path("stores/m.db"), ["recall", "boiler"]),
                         (tmp_path / "link" / "m.db", ["recall", "boiler"]),
                         (other, ["remember", "The roof was fixed in May"])):
            assert cli_main.main(["--db", str(db), *argv], ends_process=False) == 0, argv
        assert len(pool._open) > 2  # several facades on the one file: the listing is what must not repeat it
        assert pool.stores() == [os.path.realpath(real), os.path.realpath(other)]
    finally:
        pool.close_all()
    capsys.readouterr()
