"""A team on PostgreSQL gets what a laptop on SQLite gets: one sequence of user commands — remember with every diff
outcome, recall with and without filters, link, related, forget and the restore of an export, an ingest of the
example vault, retrieve, graph, decisions on a manual and on a vault edge, the world model's assert/predict/check,
export and status — runs against both backends and the JSON answers are compared after removing what differs by
design (docs/architecture.md, "PostgreSQL backend"): memory ids (random per store), edge ids (SQLite numbers a note's
edges to its own rows below zero), the database's path and size, `search`'s keyword scores, the caches and
approximate index a server store has no file for, wall-clock times."""
from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")
EDGE_REF = re.compile(r"edge:-?\d+")
EDGE_ID_KEYS = {"id", "edge_id", "source_edge_id"}
# what differs by design: where the database is and how big, time spent, the caches and index a file has beside it;
# and the effective importance, which decays with the wall clock between the two runs (0.504 against 0.503)
DROPPED = {"db", "db_path", "db_size_bytes", "cache_bytes", "approximate_index", "pid", "bytes",
           "effective_importance"}
# lists whose order is the store's id order (edges) or hashes of random memory ids (world rows): compared as sets
UNORDERED: set = set()


def _canon(value: Any, labels: dict[str, str], swaps: dict[str, str], key: str = "") -> Any:
    """`value` with what differs by design replaced (`swaps`: this backend's database and folder) or left out."""
    if isinstance(value, dict):
        return {k: _canon(v, labels, swaps, k) for k, v in value.items() if k not in DROPPED and not k.endswith("_ms")}
    if isinstance(value, list):
        items = [_canon(v, labels, swaps) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True)) if key in UNORDERED else items
    if isinstance(value, str):
        for mine, common in swaps.items():
            value = value.replace(mine, common)
        value = UUID.sub(lambda m: labels.setdefault(m.group(0), f"<memory {len(labels)}>"), value)
        return EDGE_REF.sub("edge:<id>", STAMP.sub("<time>", re.sub(r"\b[0-9a-f]{24}\b", "<hash>", value)))
    if key in EDGE_ID_KEYS and isinstance(value, int):  # (a memory's id is a string; a number names an edge)
        return "<edge id>"
    if isinstance(value, float):
        return round(value, 3)
    return value


def _session(cli_run: Run, db: str, vault: Path, files: Path) -> list[tuple[list[str], int, Any]]:
    """The sequence, with ids read from earlier answers; each answer canonicalised for this backend."""
    labels: dict[str, str] = {}
    answers: list[tuple[list[str], int, Any]] = []
    hour = iter(range(1, 24))

    def run(*args: str) -> Any:
        argv = list(args)
        if argv[0] == "remember":  # a time of its own: temporal edges and recency do not hang on the clock
            argv += ["--created-at", f"2026-11-20T{next(hour):02d}:00:00Z"]
        code, out = cli_run(["--db", db, *argv])
        if argv[0] == "remember" and isinstance(out, dict) and "id" in out:
            labels.setdefault(out["id"], f"<memory {len(labels)}>")
        if argv[0] == "search":  # ranked by keywords alike, scored by each backend's own BM25 (not to the digit)
            out = {**out, "results": [{k: v for k, v in r.items() if k != "score"} for r in out["results"]]}
        # (a suggested command carries the store as typed in a shell: a URL quoted, a plain path as it is)
        swaps = {shlex.quote(db): "<db>", db: "<db>", str(files): "<files>"}
        answers.append((argv[:1], code, _canon(out, labels, swaps)))
        return out

    def file(name: str, payload: Any) -> str:
        (files / name).write_text(json.dumps(payload), encoding="utf-8")
        return str(files / name)

    first = run("remember", "We use Redis for the session cache", "--cat", "decision", "--entities", "Redis")
    run("remember", "We use Redis for the session cache and the job queue", "--cat", "decision")  # UPDATE
    run("remember", "We no longer use Redis for the session cache", "--cat", "decision")  # CONFLICT
    run("remember", "We use Redis for the session cache", "--cat", "decision")  # a duplicate
    tea = run("remember", "Ada Quill prefers tea over coffee", "--cat", "preference", "--source", "alice")
    deploy = run("remember", "The deploy runs every Friday because the team reviews on Thursday", "--cat", "fact")
    run("remember", "日本語のメモ: 東京で会議", "--tags", "jp")
    assert [a[2]["diff_suggestion"] for a in answers[:4]] == ["ADD", "UPDATE", "CONFLICT", "DUPLICATE"]
    run("recall", "Redis session cache")
    run("recall", "Redis", "--cat", "decision")
    run("recall", "tea", "--source", "alice")
    run("recall", "東京")
    run("search", "Redis session")
    run("link", first["id"], tea["id"], "--type", "causal", "--sub-type", "causes", "--weight", "0.7")
    run("related", first["id"])
    shown = run("show", first["id"])
    causal = next(e["id"] for e in shown["edges"] if e["edge_type"] == "causal")
    run("weaken-edge", str(causal), "--reason", "unsure")
    run("validate-edge", str(causal))
    run("kill-edge", str(causal), "--reason", "wrong")
    run("explain-edge", str(causal))
    run("export", "--out", str(files / "backup.json"))
    run("forget", deploy["id"])
    run("recall", "deploy Friday")
    run("import", str(files / "backup.json"), "--revive-forgotten")
    run("recall", "deploy Friday")
    run("ingest", "--vault", str(vault))
    run("retrieve", "--prompt", "Lighthouse pilot vendor contract")
    run("graph", "--focus", "note:Projects/lighthouse.md", "--max-nodes", "18")
    note = run("show", "note:Projects/lighthouse.md")
    by_ends = sorted(note["edges"], key=lambda e: (e["edge_type"], e["source_id"], e["target_id"]))
    contained = [e["id"] for e in by_ends if e["edge_type"].startswith("has_")]
    candidate = next(e["id"] for e in by_ends if e["status"] == "candidate")
    run("kill-edge", str(contained[0]), "--reason", "not blocked any more")
    run("weaken-edge", str(contained[1]))
    run("validate-edge", str(candidate))
    for edge in (contained[0], contained[1], candidate):
        run("explain-edge", str(edge))
    run("ingest", "--vault", str(vault))  # decisions survive a re-ingest
    run("show", "note:Projects/lighthouse.md")
    now = datetime.now(timezone.utc).replace(minute=0, second=0, microsecond=0)
    claim = {"subject": "Ana", "predicate": "lives_in", "confidence": 0.95, "certainty": "confirmed"}
    run("state", "assert", "--file", file("a.json", {**claim, "object": "Lisbon", "evidence": "lease",
                                                     "source_path": "mneme://r/ana"}))
    run("state", "assert", "--file", file("b.json", {**claim, "object": "Porto", "evidence": "new lease",
                                                     "source_path": "mneme://r/ana2"}))
    run("state", "list")
    run("predict", "add", "--file", file("p.json", {
        "title": "Parcel should arrive", "match_json": {"sense_type": "gws", "observation_terms_all": ["parcel"]},
        "check_after": (now - timedelta(days=2)).isoformat(), "expires_at": (now + timedelta(days=3)).isoformat()}))
    run("sense", "add", "--file", file("s.json", {"sense_type": "gws", "text": "your parcel was delivered",
                                                  "observed_at": (now - timedelta(days=1)).isoformat()}))
    run("predict", "check")
    run("export")
    run("status")
    return answers


@pytest.mark.postgres
def test_the_same_commands_answer_alike_on_sqlite_and_postgresql(cli_run: Run, example_vault: Path, tmp_path: Path,
                                                                pg_db_url: str) -> None:
    (tmp_path / "laptop").mkdir()
    (tmp_path / "team").mkdir()
    laptop = _session(cli_run, str(tmp_path / "laptop" / "mnemon.db"), example_vault, tmp_path / "laptop")
    team = _session(cli_run, pg_db_url, example_vault, tmp_path / "team")
    assert len(laptop) == len(team)
    for (command, code, answer), (_, team_code, team_answer) in zip(laptop, team):
        assert code == team_code, (command, answer, team_answer)
        assert answer == team_answer, command


@pytest.mark.postgres
def test_scratch_all(cli_run: Run, example_vault: Path, tmp_path: Path, pg_db_url: str) -> None:
    (tmp_path / "laptop").mkdir()
    (tmp_path / "team").mkdir()
    laptop = _session(cli_run, str(tmp_path / "laptop" / "mnemon.db"), example_vault, tmp_path / "laptop")
    team = _session(cli_run, pg_db_url, example_vault, tmp_path / "team")
    bad = []
    for i, ((command, code, answer), (_, team_code, team_answer)) in enumerate(zip(laptop, team)):
        if answer != team_answer or code != team_code:
            bad.append(i)
            Path(f"/tmp/s40pg/scratch/{i}-{command[0]}.a.json").write_text(json.dumps(answer, indent=1, sort_keys=True))
            Path(f"/tmp/s40pg/scratch/{i}-{command[0]}.b.json").write_text(json.dumps(team_answer, indent=1, sort_keys=True))
    assert not bad, bad
