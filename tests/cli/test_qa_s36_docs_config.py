"""docs/agents.md, Settings: "`mnemon config` prints the effective values and, in `sources`, where each came from" —
for every setting of the table, `save_caches`, `ann`, `ann_min_rows` and `ann_cold_min_rows` too (a user who set
`"ann": false` in the config file, or MNEMON_SAVE_CACHES=false, could not see whether it took)."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.config import SETTINGS

ROOT = Path(__file__).resolve().parents[2]
DURATIONS = {"prune_min_age", "daemon_idle", "busy_wait"}  # printed in seconds, as <name>_s


def _key(name: str) -> str:
    return f"{name}_s" if name in DURATIONS else name


def test_config_shows_every_setting_of_the_table_and_where_it_came_from(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    table = re.findall(r"^\| `([a-z_]+)`(?:, `([a-z_]+)`)? \|", text[text.index("## Settings"):], re.M)
    documented = {name for row in table for name in row if name}
    assert documented == {s.name for s in SETTINGS}
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"ann": False, "ann_cold_min_rows": 500000}))
    monkeypatch.setenv("MNEMON_SAVE_CACHES", "false")
    code, out = cli_run(["--config", str(config), "config"])
    assert code == 0
    for setting in SETTINGS:
        assert _key(setting.name) in out and _key(setting.name) in out["sources"], setting.name
    assert out["ann"] is False and out["sources"]["ann"] == f"config file {config}"
    assert out["ann_cold_min_rows"] == 500000 and out["ann_min_rows"] == 30000
    assert out["sources"]["ann_min_rows"] == "default"
    assert out["save_caches"] is False and out["sources"]["save_caches"] == "MNEMON_SAVE_CACHES"
