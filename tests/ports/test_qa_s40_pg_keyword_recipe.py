"""Two mnemon versions on one PostgreSQL schema no longer re-index its keywords back and forth.

A team upgraded one machine to a mnemon with a new keyword recipe: its first writable open rewrote every keyword
document, and then every command of a teammate's older mnemon (its hooks run on each prompt) rewrote them all back
to the old recipe, and the newer one's next command forward again — the whole index re-tokenised on every open, and
searches of whichever process had not just rebuilt matched documents of the other recipe. A recipe is now ranked
by its number: the newer one rebuilds once, and an older mnemon leaves the newer documents alone and is refused
writing (`store_error`, as after a schema step it does not know: its documents would be of the old recipe), while
it still reads."""
from __future__ import annotations

from typing import Any

import pytest

from mnemon.app.memory import open_store
from mnemon.core.errors import StoreError
from mnemon.ports.store import postgres_index

pytestmark = pytest.mark.postgres

NEWER = "pg-doc/3 unicode61 words"


def _fingerprint(store: Any) -> int:
    return int(store._value("SELECT value FROM meta WHERE key = 'keyword_fingerprint'"))


def test_an_older_mnemon_leaves_a_newer_recipe_alone(pg_store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    url = pg_store.path
    open_store(url).close()  # the schema's first open records the running recipe (a reused test schema holds 0)
    older = _fingerprint(pg_store)
    with monkeypatch.context() as newer:
        newer.setattr(postgres_index, "_DOC_RECIPE", NEWER)
        upgraded = open_store(url)  # the upgraded teammate: rebuilds once
        indexed = _fingerprint(upgraded)
        assert indexed != older
    with pytest.raises(StoreError) as refused:  # the older mnemon, opened writable after the upgrade
        open_store(url)
    assert "newer mnemon" in str(refused.value) and refused.value.details.get("keyword_recipe")
    assert _fingerprint(upgraded) == indexed  # not re-indexed back
    reader = open_store(url, readonly=True)  # and it still reads
    assert reader.count_active() == 0
    reader.close()
    with pytest.raises(StoreError):  # a process of the older one opened before the upgrade stops writing too
        with pg_store.transaction():
            pass
    upgraded.close()
