"""A vault note's section whose whole text is one bullet ("## Consequences" over "- Gateway firmware updates are
manual; …") is stored twice: as the bullet's observation and as the section's context memory. Recall and the prompt
hook listed both, the same line twice ("Gateway firmware …" [fact] and "- Gateway firmware …" [context]). A section
made only of bullets that are observations among the results now folds into them (the observation, with its kind
and score, stays), the next result takes the freed place, and `--explain` says what was folded. A section with more
than those bullets — real context — is kept."""
from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import EXAMPLE_VAULT
from mnemon.app.memory import Mnemon

LINE = "Gateway firmware updates are manual; follow up on remote updates"
NOTE = "vault:Decisions/2026-02-choose-lora.md"


def _vault(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    vault = tmp_path / "vault"
    shutil.copytree(EXAMPLE_VAULT, vault)
    for name, text in (extra or {}).items():
        (vault / name).write_text(text, encoding="utf-8")
    return vault


def _texts(found: dict[str, Any]) -> list[str]:
    return [" ".join(str(r["insight"]["content"]).split()) for r in found["results"]]


def _mem(make_mem: Callable[..., Mnemon], vault: Path) -> Mnemon:
    mem = make_mem("hash")
    mem.ingest(str(vault))
    return mem


def test_recall_lists_a_one_bullet_section_once(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    mem = _mem(make_mem, _vault(tmp_path))
    for query in ("gateway firmware", "what is the status of the gateway firmware?", "remote updates manual"):
        found = mem.recall(query, limit=10, explain=True)
        texts = _texts(found)
        assert [t.lstrip("- ") for t in texts].count(LINE) == 1, (query, texts)
        kept = [r for r in found["results"] if r["insight"]["content"] == LINE]
        assert kept and kept[0]["insight"]["id"].startswith(f"{NOTE}:observation:")
        assert kept[0]["insight"]["category"] == "fact"


def test_the_fold_is_in_the_explain_trace(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    mem = _mem(make_mem, _vault(tmp_path))
    found = mem.recall("what is the status of the gateway firmware?", limit=10, explain=True)
    rerank = next(s for s in found["trace"] if s["stage"] == "rerank")
    folded = rerank["folded_into_observations"]
    assert any(section.startswith(f"{NOTE}:section:") and [o.split(":")[-2] for o in items] == ["observation"]
               for section, items in folded.items())


def test_the_limit_is_still_filled(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    mem = _mem(make_mem, _vault(tmp_path))
    query = "what is the status of the gateway firmware?"
    wide = mem.recall(query, limit=30, explain=True)
    folded = next(s for s in wide["trace"] if s["stage"] == "rerank")["folded_into_observations"]
    assert folded and len(wide["results"]) > 4
    for limit in (1, 2, 3, 4):
        ids = [r["insight"]["id"] for r in mem.recall(query, limit=limit)["results"]]
        assert len(ids) == limit  # the freed place goes to the next result
        assert ids == [r["insight"]["id"] for r in wide["results"]][:limit]
        assert not set(ids) & set(folded)


NOTE_WITH_CONTEXT = """# Pump maintenance

## Schedule
The pump at the north well is serviced by the county crew, who come once a quarter.
- [ ] Replace the pump impeller before spring

## Spares
- [ ] Replace the pump impeller before spring
"""


def test_a_section_with_more_than_the_bullet_is_kept(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    mem = _mem(make_mem, _vault(tmp_path, {"pump.md": NOTE_WITH_CONTEXT}))
    found = mem.recall("replace the pump impeller", limit=10)
    texts = _texts(found)
    assert "Replace the pump impeller before spring" in texts  # the task
    assert any("county crew" in t for t in texts)  # the section that says more stays
    assert "- [ ] Replace the pump impeller before spring" not in texts  # the one that says only the task folds


@pytest.fixture
def ingested_home(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    assert cli_run(["ingest", "--vault", str(_vault(tmp_path))])[0] == 0


def test_the_prompt_hook_shows_the_line_once(cli_raw: Callable[..., tuple[int, str, str]], ingested_home: None) -> None:
    prompt = {"prompt": "what is the status of the gateway firmware?", "cwd": "/tmp", "session_id": "x",
              "hook_event_name": "UserPromptSubmit"}
    code, out, _ = cli_raw(["hook", "claude-code", "prompt"], input=json.dumps(prompt))
    assert code == 0
    context = str(json.loads(out)["hookSpecificOutput"]["additionalContext"])
    assert context.count(LINE) == 1, context
