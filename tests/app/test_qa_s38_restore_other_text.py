"""QA round (session 38): a backup row whose id the store holds with other text says the file's text was not taken.

`mnemon import backup.json` of an export edited since (or of a payload scope whose entity was renamed since) answered
the row `"action": "skipped", "reason": "exists"` beside the file's text, `errors: 0`: the reply read as that text
being in the store, which holds another. A restore never replaces a stored row; the row now says `other_text` and a
warning counts them."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon


@pytest.mark.parametrize("dry_run", [True, False])
def test_a_row_held_with_other_text_is_marked_and_counted(make_mem: Callable[..., Mnemon], dry_run: bool) -> None:
    m = make_mem("hash")
    kept = m.remember("Alice manages the Berlin office")["id"]
    m.remember("The Berlin office moved to Kreuzberg")
    doc = m.export_json()
    doc["insights"][0]["content"] = "Alice manages the Munich office"
    out = m.import_json(json.dumps(doc), dry_run=dry_run)
    rows = {r["index"]: r for r in out["results"]}
    assert (rows[0]["reason"], rows[0].get("other_text")) == ("exists", True)
    assert "other_text" not in rows[1]
    assert any(w.startswith("1 row of the file name a memory this store holds with other text")
               for w in out["warnings"]), out.get("warnings")
    assert m.show(kept)["content"] == "Alice manages the Berlin office"  # the store's row stays


def test_the_same_backup_again_says_nothing_of_it(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    m = make_mem("hash")
    m.remember("Alice manages the Berlin office")
    doc = json.dumps(m.export_json())
    fresh = make_mem("hash", db=tmp_path / "b.db")
    fresh.import_json(doc)
    out = fresh.import_json(doc)
    assert not any("other text" in w for w in out.get("warnings", []))
    assert not any(r.get("other_text") for r in out["results"])
