"""The same commands give the same JSON on SQLite and PostgreSQL, lists in the same order: the example vault's ingest,
remember, link, kill-edge, forget and `forget --undo`, recall, retrieve, `related` and `show` of notes, bullets and
memories, status and export — compared after removing only what differs by design, each named where it is removed:

- edge ids (SQLite numbers a note's edges to its own items below zero, m055; PostgreSQL numbers rows as written);
  memory ids are random per store, so both restore the same export of the memories and share theirs;
- the database's path and size, `cache_bytes` and `embedding.approximate_index` (a server store has no files beside
  it), wall-clock times and durations, and the effective importance that decays with them;
- `search` scores and recall's keyword anchors (`query_seed_nodes`): FTS5's bm25 against PostgreSQL's Σ idf·ts_rank;
- export's `edges` and `world_*` lists, in id order (compared as sets).

s38's sequence compared every `edges` list as a set, which hid `show` listing a note's edges in two orders and
`related` cutting a walk at its limit at other memories."""
from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?")
DROPPED = {"db", "db_path", "db_size_bytes", "cache_bytes", "approximate_index", "effective_importance",
           "query_seed_nodes", "score"}
EDGE_ID_KEYS = {"id", "edge_id", "source_edge_id", "reverse_edge_id", "edges_revived"}  # (a memory's id is text)
SETS_IN = {"export": {"edges", "world_sense_events", "world_events"}}
NOTE = "note:Projects/lighthouse.md"


def _canon(value: Any, labels: dict[str, str], swaps: dict[str, str], sets: set[str], key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: _canon(v, labels, swaps, sets, k) for k, v in value.items()
                if k not in DROPPED and not k.endswith("_ms")}
    if isinstance(value, list):
        items = [_canon(v, labels, swaps, sets, key if key in EDGE_ID_KEYS else "") for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True)) if key in sets else items
    if isinstance(value, str):
        for mine, common in swaps.items():
            value = value.replace(mine, common)
        value = UUID.sub(lambda m: labels.setdefault(m.group(0), f"<memory {len(labels)}>"), value)
        return re.sub(r"edge:-?\d+", "edge:<id>", STAMP.sub("<time>", value))
    if key in EDGE_ID_KEYS and isinstance(value, int) and not isinstance(value, bool):
        return "<edge id>"
    return round(value, 3) if isinstance(value, float) else value


def _memories(cli_run: Run, folder: Path) -> tuple[Path, list[str]]:
    """Three memories, exported: both stores restore the same file, so their memories have the same ids and every
    order that ties by what an edge joins (a pack's twin links, a walk's neighbours) is compared too."""
    db = str(folder / "seed.db")
    ids = []
    for k, (text, *more) in enumerate(MEMORIES):
        code, out = cli_run(["--db", db, "remember", text, *more, "--created-at", f"2026-11-20T0{k + 1}:00:00Z"])
        assert code == 0, out
        ids.append(out["id"])
    cli_run(["--db", db, "export", "--out", str(folder / "seed.json")])
    return folder / "seed.json", ids


MEMORIES = [("The Lighthouse vendor contract is signed by Ada Quill", "--cat", "decision"),
            ("The Lighthouse budget moves to Q3 because the vendor is late", "--cat", "fact"),
            ("Bram Okafor owns the firmware for the Lighthouse sensors", "--entities", "Bram Okafor")]


def _session(cli_run: Run, db: str, vault: Path, files: Path, seed: tuple[Path, list[str]]
             ) -> list[tuple[str, int, Any]]:
    labels: dict[str, str] = {}
    answers: list[tuple[str, int, Any]] = []

    def run(*args: str) -> Any:
        argv = list(args)
        code, out = cli_run(["--db", db, *argv])
        swaps = {shlex.quote(db): "<db>", db: "<db>", str(files): "<files>"}
        answers.append((f"{len(answers)}: {argv[0]}", code, _canon(out, labels, swaps, SETS_IN.get(argv[0], set()))))
        return out

    run("ingest", "--vault", str(vault))
    run("import", str(seed[0]))
    vendor, budget = {"id": seed[1][0]}, {"id": seed[1][1]}
    run("link", vendor["id"], NOTE, "--type", "semantic")
    link = run("link", budget["id"], vendor["id"], "--type", "causal", "--sub-type", "causes")
    item = next(e["target_id"] for e in run("show", NOTE)["edges"] if e["edge_type"] == "has_blocked")
    run("show", item)
    for node in (NOTE, item, vendor["id"]):
        run("related", node, "--depth", "3")
    run("kill-edge", str(link["edge_id"]), "--reason", "not the cause")
    run("show", budget["id"])
    run("forget", vendor["id"], "--dry-run")
    run("forget", vendor["id"])
    run("recall", "Lighthouse vendor contract")
    run("forget", vendor["id"], "--undo")
    run("show", vendor["id"])
    run("related", vendor["id"], "--depth", "2")
    run("recall", "Lighthouse vendor contract")
    run("recall", "who owns the firmware")
    run("retrieve", "--prompt", "Lighthouse pilot vendor contract")
    run("show", NOTE)
    run("status")
    run("export")
    return answers


@pytest.mark.postgres
def test_the_same_commands_give_the_same_ordered_answers(cli_run: Run, example_vault: Path, tmp_path: Path,
                                                         pg_db_url: str) -> None:
    for folder in ("seed", "laptop", "team"):
        (tmp_path / folder).mkdir()
    seed = _memories(cli_run, tmp_path / "seed")
    laptop = _session(cli_run, str(tmp_path / "laptop" / "mnemon.db"), example_vault, tmp_path / "laptop", seed)
    team = _session(cli_run, pg_db_url, example_vault, tmp_path / "team", seed)
    assert [a[:2] for a in laptop] == [t[:2] for t in team]
    assert all(code == 0 for _, code, _ in laptop), [a[:2] for a in laptop if a[1]]
    for (command, _, answer), (_, _, team_answer) in zip(laptop, team):
        assert answer == team_answer, command
