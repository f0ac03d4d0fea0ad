"""The HTTP API's cost over the facade: the same calls in process and over a real loopback socket. ONE JSON document.

    .venv/bin/python benchmarks/bench_http.py                # 2,000-note generated vault, provider none
    .venv/bin/python benchmarks/bench_http.py --notes 300 --rounds 15

The vault is `bench_vault.make_vault`'s (fictional notes with wikilinks, headings, tasks, dates, bullets), ingested
without embeddings. Each call runs once to warm up, then `--rounds` times in process and `--rounds` times as an HTTP
request (`mnemon serve`'s `Api` on 127.0.0.1, a new connection per request, as a script with urllib does); medians
are reported with their ratio, never asserted.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_vault import _open, make_vault  # noqa: E402

from mnemon.interfaces.http.server import Api, make_server  # noqa: E402
from mnemon.interfaces.operations import BY_NAME  # noqa: E402


def _median_ms(fn: Callable[[], Any], rounds: int) -> float:
    fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 2)


def run(notes: int, rounds: int) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="mnemon-bench-http-"))
    try:
        vault_bytes = make_vault(work / "vault", notes)
        mem = _open(work / "db" / "mnemon.db", "none")
        mem.ingest(str(work / "vault"))
        focus = mem.graph(max_nodes=1)["nodes"][0]["id"]
        server = make_server(Api(lambda: mem), "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/api/"
        calls = {
            "status": {},
            "recall": {"query": "supplier invoice overdue", "limit": 10},
            "retrieve": {"prompt": "what is blocked with the battery supplier"},
            "graph_overview": {},
            "graph_focus_depth2": {"focus": focus, "depth": 2},
        }
        results: dict[str, Any] = {}
        for label, args in calls.items():
            op = BY_NAME[label.split("_")[0]]

            def over_http(op_name: str = op.name, query: dict[str, Any] = args) -> None:
                with urllib.request.urlopen(base + op_name + "?" + urlencode(query), timeout=60) as resp:
                    json.loads(resp.read())

            in_process = _median_ms(lambda: op.call(mem, dict(args)), rounds)
            http = _median_ms(over_http, rounds)
            body = urllib.request.urlopen(base + op.name + "?" + urlencode(args), timeout=60).read()
            results[label] = {"in_process_ms": in_process, "http_ms": http, "overhead_ms": round(http - in_process, 2),
                              "ratio": round(http / in_process, 2) if in_process else None, "bytes": len(body)}
        server.shutdown()
        server.server_close()
        mem.close()
        return {"benchmark": "http", "notes": notes, "vault_mb": round(vault_bytes / 1e6, 2), "rounds": rounds,
                "calls": results}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    print(json.dumps(run(args.notes, args.rounds), indent=2))


if __name__ == "__main__":
    main()
