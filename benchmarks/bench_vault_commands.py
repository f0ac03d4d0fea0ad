"""The read commands over a 2,000-note vault, one after another: how long each takes the first time on a store just
opened and when called again. Prints one JSON document.

A census, not a target: it exists so that a command that silently turns slow on a vault-sized store is seen (the
graph overview once took 30 s after a change to how a note's items are found, with every test green). The vault is
`bench_vault.make_vault`'s, ingested once without embeddings; every command runs in process through the facade,
each on a facade opened for it (the first call pays what a fresh process or the resident process pays once: the
recall graph, the FTS pages), then `--repeat` more times. Writes are dry runs, except `thought`, which records the
thought it draws (as the command does) and renders its card to a temporary folder.

    PYTHONPATH=src python benchmarks/bench_vault_commands.py [--notes 2000] [--repeat 5] [--only graph,recall]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench_vault import _open, make_vault  # noqa: E402
from mnemon.app.memory import Mnemon  # noqa: E402

PROMPT = "vendor approval blocked"


def _commands(out_dir: Path, focus: str, edge_id: int, memory_id: str) -> dict[str, Callable[[Mnemon], Any]]:
    return {
        "status": lambda m: m.status(),
        "search": lambda m: m.search("firmware budget"),
        "recall": lambda m: m.recall(PROMPT),
        "retrieve": lambda m: m.retrieve(PROMPT),
        "surface": lambda m: m.surface(prompt=PROMPT),
        "surface_no_prompt": lambda m: m.surface(),
        "agent_preflight": lambda m: m.agent_preflight(PROMPT),
        "candidates": lambda m: m.candidates(),
        "debug_candidates": lambda m: m.debug_candidates(),
        "debug_candidates_skipped": lambda m: m.debug_candidates(include_skipped=True),
        "thought": lambda m: m.thought(out=str(out_dir)),
        "graph_overview": lambda m: m.graph(),
        "graph_focus_depth2": lambda m: m.graph(focus=focus, depth=2),
        "related": lambda m: m.related(focus),
        "show": lambda m: m.show(memory_id),
        "explain_edge": lambda m: m.explain_edge(edge_id),
        "promote_validated_only_dry": lambda m: m.promote_candidates(mode="validated-only", dry_run=True),
        "promote_all_dry": lambda m: m.promote_candidates(mode="all", dry_run=True),
        "forget_dated_dry": lambda m: m.forget_dated(30, dry_run=True),
        "state_backfill_dry": lambda m: m.state_backfill(dry_run=True),
        "state_list": lambda m: m.state_list(),
        "state_conflicts": lambda m: m.state_conflicts(),
        "forget_source_dry": lambda m: m.forget_source("mneme://agent/bench", dry_run=True),
        "contract_check": lambda m: m.contract_check(),
        "gc": lambda m: m.gc(),
        "log": lambda m: m.log(),
    }


def _time(call: Callable[[], Any]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def run(notes: int, repeat: int, only: set[str] | None) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="mnemon-bench-commands-"))
    try:
        vault, db = work / "vault", work / "store" / "mnemon.db"
        make_vault(vault, notes)
        mem = _open(db, "none")
        started = time.perf_counter()
        mem.ingest(str(vault), embed=False)
        ingest_s = time.perf_counter() - started
        conn = mem.rt.store.conn
        focus = conn.execute("SELECT id FROM nodes WHERE kind = 'note' ORDER BY seq LIMIT 1 OFFSET ?",
                             (notes // 2,)).fetchone()[0]
        memory_id = conn.execute("SELECT id FROM nodes WHERE kind = 'memory' ORDER BY seq LIMIT 1 OFFSET ?",
                                 (notes,)).fetchone()[0]
        edge_id = conn.execute("SELECT id FROM edge_rows ORDER BY id LIMIT 1 OFFSET ?", (notes,)).fetchone()[0]
        mem.close()
        timings: dict[str, Any] = {}
        for name, command in _commands(work / "cards", focus, edge_id, memory_id).items():
            if only and name not in only:
                continue
            mem = _open(db, "none")
            try:
                first = _time(lambda: command(mem))
                again = [_time(lambda: command(mem)) for _ in range(repeat)]
            finally:
                mem.close()
            timings[name] = {"first_ms": round(first, 1), "again_p50_ms": round(statistics.median(again), 1),
                             "again_max_ms": round(max(again), 1)}
        return {"benchmark": "vault_commands", "notes": notes, "repeat": repeat, "ingest_s": round(ingest_s, 2),
                "cpu_count": os.cpu_count(), "load_average_1m": round(os.getloadavg()[0], 2), "commands": timings}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", default="", help="comma-separated command names")
    args = parser.parse_args()
    only = {name.strip() for name in args.only.split(",") if name.strip()} or None
    result = run(args.notes, args.repeat, only)
    commands = result.pop("commands")
    lines = [f"    {json.dumps(name)}: {json.dumps(timing)}" for name, timing in commands.items()]
    head = json.dumps(result, indent=2)[:-2]  # one command a line: the census reads as a table
    print(head + ',\n  "commands": {\n' + ",\n".join(lines) + "\n  }\n}")


if __name__ == "__main__":
    main()
