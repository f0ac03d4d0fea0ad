"""The library's rule for a database that does not exist (`app.memory.refuse_missing_db`): a facade method that only
reads refuses one the user named (--db, MNEMON_DB, the config file's `db`, a store other than `default`); the
default or active store under the home, and every write, create it as before."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mnemon.app.config import load_config
from mnemon.app.memory import READS_ONLY, Mnemon, refuse_missing_db
from mnemon.core.errors import NotFound


def test_who_named_the_database_is_recorded(home: Path, tmp_path: Path) -> None:
    env = dict(os.environ)
    assert load_config(env).db_named_by is None
    assert load_config(env, store="default").db_named_by is None
    assert load_config(env, store="work").db_named_by == "--store"  # made by `store create` or a write
    assert load_config(env, db=str(tmp_path / "a.db")).db_named_by == "--db"
    assert load_config({**env, "MNEMON_DB": str(tmp_path / "a.db")}).db_named_by == "MNEMON_DB"
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"db": "a.db"}), encoding="utf-8")
    assert load_config(env, config_path=str(config)).db_named_by == f"config file {config}"
    # what `init` writes when no --db is given: the store's own path is no choice of the user's
    config.write_text(json.dumps({"db": str(home / "data" / "default" / "mnemon.db")}), encoding="utf-8")
    assert load_config(env, config_path=str(config)).db_named_by is None


@pytest.mark.parametrize("method", sorted(READS_ONLY))
def test_a_read_refuses_a_missing_named_db_and_creates_nothing(tmp_path: Path, method: str) -> None:
    db = tmp_path / "typo" / "mnemon.db"
    with pytest.raises(NotFound) as raised:
        refuse_missing_db(load_config(dict(os.environ), db=str(db)), method)
    assert str(db) in raised.value.message and raised.value.details == {"path": str(db), "named_by": "--db"}
    assert not (tmp_path / "typo").exists()


@pytest.mark.parametrize("method", ["remember", "ingest", "import_json", "resolve", "remember_payload", "run_once"])
def test_a_write_may_create_it(tmp_path: Path, method: str) -> None:
    refuse_missing_db(load_config(dict(os.environ), db=str(tmp_path / "new.db")), method)


def test_an_existing_named_db_and_the_default_store_are_read(home: Path, tmp_path: Path) -> None:
    db = tmp_path / "kept.db"
    Mnemon.open(load_config(dict(os.environ), db=str(db))).close()
    refuse_missing_db(load_config(dict(os.environ), db=str(db)), "recall")
    refuse_missing_db(load_config(dict(os.environ)), "recall")  # the home's store: made by its first use
    assert not (home / "data").exists()
