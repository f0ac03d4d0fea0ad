"""QA round (session 33): a grace period longer than the calendar reaches back.

`prune_min_age` is how long a memory is safe from auto-prune. A user who means "never prune by age" writes a huge
one ("999999999d", or 1e300 seconds in the config file); the config accepts it, but auto-prune computed
`now - grace` and overflowed the date range: once the store was over its cap, every `remember` and every `import`
failed with `internal` and stored nothing. A grace period that reaches back past any date keeps every memory."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon


@pytest.mark.parametrize("grace", ["999999999d", "9999999999999s"])
def test_a_grace_period_past_the_calendar_keeps_every_memory_and_the_write(make_mem: Callable[..., Mnemon],
                                                                          grace: str) -> None:
    m = make_mem(max_insights=1, prune_min_age=grace)
    first = m.remember("the first memory about lanterns", importance=1)["id"]
    out = m.remember("the second memory about kettles", importance=1)
    assert out["action"] == "added" and out["auto_pruned_ids"] == []
    imported = m.import_json(json.dumps({"insights": [{"content": "an imported memory about ferns"}]}))
    assert imported["imported"] == 1 and imported["auto_pruned_ids"] == []
    assert m.status()["total_insights"] == 3 and m.show(first)["id"] == first


def test_the_config_files_largest_number_is_a_grace_period_too(cli_run: Callable[..., tuple[int, Any]],
                                                               tmp_path: Path) -> None:
    config = tmp_path / "mnemon.json"
    config.write_text(json.dumps({"max_insights": 1, "prune_min_age": 1e300}))
    for text in ("the first memory about lanterns", "the second memory about kettles"):
        code, out = cli_run(["--config", str(config), "remember", text, "--imp", "1"])
        assert code == 0 and out["action"] == "added" and out["auto_pruned"] == 0, out
    code, out = cli_run(["--config", str(config), "status"])
    assert code == 0 and out["total_insights"] == 2
