"""docs/agents.md, "The contract": which replies carry a top-level `ok` is what the text lists (it named six, while
`export --out`, `forget --days-threshold`, `alias merge`, `contract check`, `doctor`, `eval retrieval`, `agent
preflight` and `world tick` carried one too, `world tick`'s being the contract's verdict; then `write` — Mneme's
shortcut for `note write` — `graph --out` and the line `serve` prints once listening, which the list left out)."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _documented() -> set[str]:
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    sentence = text[text.index("A few replies carry"):text.index("The others, `resolve`")]
    # `serve` runs until stopped: its line's `ok` is checked where the server is (tests/interfaces/test_http.py)
    return set(re.findall(r"`([a-z][a-z -]*)`", sentence)) - {"ok", "false", "serve"}


def test_the_replies_carrying_ok_are_the_ones_the_contract_lists(
        cli_run: Callable[..., tuple[int, Any]], tmp_path: Path, example_vault: Path) -> None:
    def file(payload: Any) -> str:
        path = tmp_path / f"f{len(list(tmp_path.iterdir()))}.json"
        path.write_text(json.dumps(payload), encoding="utf-8")
        return str(path)

    now = datetime.now(timezone.utc).replace(microsecond=0)
    vault = ["--vault", str(example_vault)]
    assert cli_run(["init", *vault])[0] == 0
    runs: list[tuple[str, list[str]]] = [
        ("remember", ["remember", "Chose Qdrant as the vector database"]),
        ("recall", ["recall", "Qdrant"]),
        ("status", ["status"]),
        ("ingest", ["ingest", *vault]),
        ("note", ["note", "list", *vault]),
        ("note", ["note", "read", *vault, "Projects/lighthouse.md"]),
        ("note", ["note", "upsert-section", *vault, "Projects/lighthouse.md", "--heading", "Status", "--content",
                  "on track", "--dry-run"]),
        ("remember --payload", ["remember", "--payload", file(
            {"source_path": "mneme://qa/docs", "nodes": [{"ref": "t", "name": "Task"}]})]),
        ("forget --source", ["forget", "--source", "mneme://qa/docs"]),
        ("forget --days-threshold", ["forget", "--days-threshold", "30", "--dry-run"]),
        ("export --out", ["export", "--out", str(tmp_path / "backup.json")]),
        ("export", ["export"]),
        ("write", ["write", *vault, "--path", "Inbox/w.md", "--content", "hi"]),
        ("graph --out", ["graph", "--format", "dot", "--out", str(tmp_path / "graph.dot")]),
        ("graph", ["graph"]),
        ("state assert", ["state", "assert", "--file", file(
            {"subject": "Ana", "predicate": "lives_in", "object": "Lisbon", "confidence": 0.95,
             "certainty": "confirmed", "evidence": "lease", "source_path": "mneme://r/ana"})]),
        ("predict add", ["predict", "add", "--file", file(
            {"title": "Parcel should arrive", "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
             "check_after": (now - timedelta(days=2)).isoformat(),
             "expires_at": (now + timedelta(days=3)).isoformat()})]),
        ("sense add", ["sense", "add", "--file", file(
            {"sense_type": "gws", "observed_at": (now - timedelta(days=1)).isoformat(), "text": "parcel delivered"})]),
        ("predict check", ["predict", "check", "--dry-run"]),
        ("state backfill", ["state", "backfill", "--dry-run"]),
        ("alias add", ["alias", "add", "the tenant", "Ana"]),
        ("alias merge", ["alias", "merge", "A", "B", "--dry-run"]),
        ("contract check", ["contract", "check"]),
        ("doctor", ["doctor"]),
        ("eval retrieval", ["eval", "retrieval", "--demo", "-k", "3"]),
        ("agent preflight", ["agent", "preflight", "--prompt", "where does Ana live?"]),
        ("world tick", ["world", "tick", "--dry-run"]),
        ("resolve", ["resolve", *vault, "--dry-run", "--file", file(
            {"title": "Battery", "claims": [{"subject": "Lighthouse", "predicate": "depends_on",
                                             "object": "Northwind", "confidence": 0.5}]})]),
    ]
    documented = _documented()
    assert documented <= {name for name, _ in runs}
    for name, args in runs:
        code, out = cli_run(args)
        assert code == 0, (args, out)
        assert ("ok" in out) == (name in documented), (name, out)
        if "ok" in out and name != "world tick":
            assert out["ok"] is True, (name, out)
