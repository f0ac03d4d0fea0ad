"""QA round (session 38): a restore's dry run says the store would be over its cap, as the restore itself then does.

`mnemon import backup.json --dry-run` into a store whose cap the backup's memories pass answered without a word, and
`mnemon import backup.json` then warned "this store now holds N memories, over its cap": the memories every later
write prunes. A draft's dry run names them (`would_auto_prune`); a restore prunes nothing, so its dry run gives the
same warning the real run gives, in the conditional."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon


def _over_cap(reply: dict[str, Any]) -> list[tuple[str, str]]:
    return [m.groups() for w in reply.get("warnings", [])
            if (m := re.match(r"this store (would then hold|now holds) (\d+) memories, over its cap", w))]


@pytest.mark.parametrize(("cap", "stored", "backed_up", "forgotten"),
                         [(3, 1, 3, 0), (3, 0, 3, 0), (2, 2, 2, 0), (5, 2, 2, 0), (3, 2, 3, 1), (0, 2, 4, 0)])
def test_the_dry_run_warns_when_the_restore_does(make_mem: Callable[..., Mnemon], tmp_path: Path, cap: int,
                                                 stored: int, backed_up: int, forgotten: int) -> None:
    src = make_mem("hash", db=tmp_path / "src.db", max_insights=0)
    ids = [src.remember(f"Backed-up fact {i} about the lighthouse", no_diff=True)["id"] for i in range(backed_up)]
    doc = json.dumps(src.export_json())
    dst = make_mem("hash", max_insights=0)
    for i in range(stored):
        dst.remember(f"Stored fact {i} about the ferry", no_diff=True)
    if forgotten:  # a memory of the backup this store held and forgot: revived, it counts again
        dst.import_json(doc)
        for memory_id in ids[:forgotten]:
            dst.forget(memory_id)
    dst.rt.max_insights = cap
    dry = dst.import_json(doc, dry_run=True, revive_forgotten=True)
    real = dst.import_json(doc, revive_forgotten=True)
    assert [n for _w, n in _over_cap(dry)] == [n for _w, n in _over_cap(real)], (dry.get("warnings"), real)
    assert all(w == "would then hold" for w, _n in _over_cap(dry))
    assert all(w == "now holds" for w, _n in _over_cap(real))
    assert bool(_over_cap(real)) == (cap > 0 and dst.status()["total_insights"] > cap)


def test_the_cli_dry_run_warns(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    for text in ("Fact about apples", "Fact about pears", "Fact about kiwis"):
        assert cli_run(["remember", text])[0] == 0
    code, doc = cli_run(["export"])
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(doc))
    assert cli_run(["--db", str(tmp_path / "fresh.db"), "remember", "Fact about plums"])[0] == 0
    monkeypatch.setenv("MNEMON_MAX_INSIGHTS", "2")
    code, dry = cli_run(["--db", str(tmp_path / "fresh.db"), "import", str(path), "--dry-run"])
    assert code == 0 and _over_cap(dry) == [("would then hold", "4")], dry
