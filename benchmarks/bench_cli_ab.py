"""CLI start-up A/B: the same command from two source trees, called in alternation on copies of one store.

The machine's speed swings within minutes (other jobs share its cores), so two code versions are only comparable
when their calls interleave. Each call is a fresh `python -m mnemon --db COPY <command> …` process; the JSON gives
per side the wall time and the child's CPU time (user + system, from `wait4`), as medians and minima, and whether
the two sides printed the same output for every call (a recall's ranking must not change with start-up work).

    python benchmarks/bench_cli_ab.py --old-src /tmp/old/src --new-src src --store .bench/recall_r2_10000.db \\
        --runs 15 recall "session cache latency" "who rolled back the rate limiter"

The store (and the caches saved beside it) is copied once per side into a temporary directory; the original is never
modified. Compile both trees first (`python -m compileall -q src`) so neither pays for compiling.

`--embed local` runs both sides with the local e5 model (default: provider none). `--remember-before` measures the
agent's cycle: each measured call follows a `remember` on the same side, timed as `remember_ms` (the outputs then
differ by the new memories' ids, so `same_output` is only meaningful without it):

    python benchmarks/bench_cli_ab.py --old-src /tmp/old/src --new-src src --store .bench/store_v3_local_100000.db \
        --embed local --remember-before --runs 6 recall "when is the lake trip"
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def copy_store(store: Path, into: Path) -> Path:
    into.mkdir(parents=True)
    target = into / store.name
    for suffix in ("", "-graph", "-vectors", "-vectors.ids", "-vectors-ann", "-vectors-ann.json"):
        src = Path(str(store) + suffix)
        if src.exists():
            shutil.copyfile(src, Path(str(target) + suffix))
    return target


def measure(src: Path, db: Path, args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """One CLI process: (wall ms, the child's CPU ms, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "mnemon", "--db", str(db), *args], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, env={**env, "PYTHONPATH": str(src)}, check=False)
    wall = (time.perf_counter() - started) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the reaped child's time is in the children's counters
    cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000
    return wall, cpu, proc.stdout.decode()


def ask_resident(src: Path, env: dict[str, str], op: str) -> dict[str, Any]:
    code = ("import json, os, sys; from mnemon.interfaces.daemon import client; "
            f"print(json.dumps(client.ask(os.environ, {{'op': {op!r}}})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**env, "PYTHONPATH": str(src)}, check=True).stdout
    return json.loads(out) or {}


def wait_resident(src: Path, env: dict[str, str], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ask_resident(src, env, "status") and time.monotonic() < deadline:
        time.sleep(0.2)


def summary(values: list[float]) -> dict[str, float]:
    return {"p50": round(statistics.median(values), 1), "min": round(min(values), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old-src", required=True, help="the `src` directory of the old tree")
    ap.add_argument("--new-src", required=True, help="the `src` directory of the new tree")
    ap.add_argument("--store", required=True, help="a store to copy (never modified)")
    ap.add_argument("--runs", type=int, default=15, help="calls per side and query")
    ap.add_argument("--warmups", type=int, default=2, help="unmeasured calls per side first (page cache)")
    ap.add_argument("--embed", default="none", help="the embedding provider of both sides (local: the e5 model)")
    ap.add_argument("--remember-before", action="store_true",
                    help="each measured call follows a `remember` on the same side (reported as remember_ms)")
    ap.add_argument("--resident", action="store_true",
                    help="the new side's calls go through the resident process (the first warm-up call starts it); "
                         "the old side runs each call alone. Give the same tree twice to see what it saves")
    ap.add_argument("command", help="the mnemon command, e.g. recall")
    ap.add_argument("queries", nargs="+", help="its argument; each is measured separately")
    opts = ap.parse_args()

    env = {k: v for k, v in os.environ.items() if not k.startswith("MNEMON_")}
    env.update(MNEMON_EMBED_PROVIDER=opts.embed, MNEMON_MAX_INSIGHTS="0", MNEMON_DAEMON="off")  # start-up is measured
    sides = {"old": Path(opts.old_src).resolve(), "new": Path(opts.new_src).resolve()}
    report: dict[str, Any] = {"command": opts.command, "runs": opts.runs, "load_before": os.getloadavg()[0],
                              "queries": []}
    with tempfile.TemporaryDirectory(prefix="mnemon-ab-") as tmp:
        env["MNEMON_HOME"] = str(Path(tmp) / "home")
        dbs = {side: copy_store(Path(opts.store), Path(tmp) / side) for side in sides}
        envs = {"old": env, "new": env}
        if opts.resident:
            envs["new"] = {**env, "MNEMON_DAEMON": "on", "MNEMON_DAEMON_DIR": tempfile.mkdtemp(prefix="mnab-")}
        for query in opts.queries:
            args = [opts.command, query]
            for _ in range(opts.warmups):
                for side, src in sides.items():
                    measure(src, dbs[side], args, envs[side])
                if opts.resident:
                    wait_resident(sides["new"], envs["new"])
            wall: dict[str, list[float]] = {side: [] for side in sides}
            cpu: dict[str, list[float]] = {side: [] for side in sides}
            remember: dict[str, list[float]] = {side: [] for side in sides}
            outputs: dict[str, list[str]] = {side: [] for side in sides}
            for k in range(opts.runs):
                order = list(sides) if k % 2 == 0 else list(sides)[::-1]
                for side in order:
                    if opts.remember_before:
                        remember[side].append(measure(sides[side], dbs[side], [
                            "remember", f"cycle {k}: {query} came up again in the meeting"], envs[side])[0])
                    # a remembered text is stored once: each measured `remember` writes a new one
                    w, c, out = measure(sides[side], dbs[side], args if opts.command != "remember" else [
                        opts.command, f"{query} (take {k})"], envs[side])
                    wall[side].append(w)
                    cpu[side].append(c)
                    outputs[side].append(out)
            report["queries"].append({
                "query": query,
                **{side: {"wall_ms": summary(wall[side]), "cpu_ms": summary(cpu[side]),
                          **({"remember_ms": summary(remember[side])} if remember[side] else {})} for side in sides},
                "same_output": outputs["old"] == outputs["new"],
            })
        if opts.resident:
            report["served_by_resident_process"] = ask_resident(sides["new"], envs["new"], "stop").get("served")
    report["load_after"] = os.getloadavg()[0]
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
