"""Latency of the hooks `mnemon setup` installs in Claude Code: each call is a new process, as the host starts it.
Prints ONE JSON document on stdout.

    .venv/bin/python benchmarks/bench_hooks.py [--sizes 1000,10000] [--provider hash] [--runs 9]

For each store size (memories from the bulk import's synthetic set, vectors of `--provider`): the median and max wall
time of `mnemon hook claude-code session-start` and of `... prompt` with a question the store can answer, after one
ordinary `recall` has written the caches beside the database (a read-only hook never writes them). The prompt hook
runs on every message a user sends, so its median is what they wait for each time.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_write import synth_batch  # noqa: E402

PROMPT = "What did the team decide about the release schedule, and who owns the follow-up?"


def _mnemon(db: Path, provider: str, *args: str, stdin: str = "") -> tuple[float, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMON_")}
    env.update(MNEMON_DAEMON="off", HOME=str(db.parent))
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(db), "--embed", provider, *args], input=stdin,
                          capture_output=True, text=True, env=env, cwd=db.parent, timeout=300)
    elapsed = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"mnemon {' '.join(args)} failed: {proc.stdout}{proc.stderr}")
    return elapsed, proc.stdout


def bench(size: int, provider: str, runs: int, work: Path) -> dict[str, object]:
    db = work / f"hooks-{size}" / "mnemon.db"
    db.parent.mkdir(parents=True)
    draft = db.parent / "draft.json"
    draft.write_text(json.dumps({"schema_version": "1", "insights": synth_batch(size, seed=42)}))
    _mnemon(db, provider, "import", str(draft))
    _mnemon(db, provider, "recall", PROMPT)  # writes the vector and graph caches, as any ordinary call does
    out: dict[str, object] = {"memories": size, "provider": provider}
    for event, stdin in (("session-start", json.dumps({"source": "startup"})),
                         ("prompt", json.dumps({"prompt": PROMPT}))):
        times, answer = [], ""
        for _ in range(runs):
            elapsed, answer = _mnemon(db, provider, "hook", "claude-code", event, stdin=stdin)
            times.append(elapsed)
        context = json.loads(answer).get("hookSpecificOutput", {}).get("additionalContext", "")
        out[event] = {"median_ms": round(1000 * statistics.median(times), 1), "max_ms": round(1000 * max(times), 1),
                      "runs": runs, "context_chars": len(context)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--provider", default="hash")
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="mnemon-bench-hooks-") as tmp:
        results = [bench(int(s), args.provider, args.runs, Path(tmp)) for s in args.sizes.split(",") if s.strip()]
    print(json.dumps({"benchmark": "hooks", "cpu_count": os.cpu_count(),
                      "load_average_1m": round(os.getloadavg()[0], 2), "results": results}, indent=2))


if __name__ == "__main__":
    main()
