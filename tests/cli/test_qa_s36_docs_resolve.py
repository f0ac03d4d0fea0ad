"""The README shows `mnemon resolve --vault ~/notes --file research.json`, and no page said what research.json holds:
docs/agents.md's example file runs as the text says — its pack where it says, the claim with evidence, a source,
`certainty` confirmed and confidence ≥ 0.9 active with a belief written, the other a candidate — and a prediction
given as `predict add` takes one is written with it."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _example() -> dict[str, Any]:
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    section = text[text.index("## Research results: `mnemon resolve`"):]
    block = re.search(r"```json\n(.*?)```", section, re.S)
    assert block is not None
    example: dict[str, Any] = json.loads(block.group(1))
    return example


def test_the_documented_research_file_resolves_as_the_text_says(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path, example_vault: Path) -> None:
    research = _example()
    path = tmp_path / "research.json"
    path.write_text(json.dumps(research), encoding="utf-8")
    assert cli_run(["ingest", "--vault", str(example_vault)])[0] == 0
    code, out = cli_run(["resolve", "--vault", str(example_vault), "--file", str(path), "--dry-run"])
    assert code == 0, out
    assert out["note_path"] == "Sources/2026-04-02-battery-supplier-status.md" and out["written"] is False
    assert [c["status"] for c in out["claims"]] == ["active", "candidate"]
    assert out["claims"][0]["assertion"]["status"] == "current"
    assert "## Sources checked\n- supplier email" in out["markdown"] and "- the June delivery date" in out["markdown"]
    now = datetime.now(timezone.utc).replace(microsecond=0)
    research["predictions"] = [{"title": "Northwind ships in May",
                                "match_json": {"sense_type": "gws", "observation_terms_all": ["northwind", "shipped"]},
                                "check_after": now.isoformat(), "expires_at": (now + timedelta(days=30)).isoformat()}]
    path.write_text(json.dumps(research), encoding="utf-8")
    code, out = cli_run(["resolve", "--vault", str(example_vault), "--file", str(path)])
    assert code == 0, out
    assert [e["status"] for e in out["edges"]] == ["active", "candidate"] and out["predictions_written"] == 1
    assert (example_vault / "Sources" / "2026-04-02-battery-supplier-status.md").is_file()
