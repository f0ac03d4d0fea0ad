"""`mnemon daemon status|start|stop`: the resident process CLI calls hand their commands to (`interfaces/daemon`)."""
from __future__ import annotations

import os
import time
from typing import Any

import click

from ..daemon import client
from .main import cli, run

START_WAIT_S = 30.0  # loading numpy and the model on a busy machine


def _not_running(c: Any) -> dict[str, Any]:
    return {"running": False, "socket": client.socket_path(os.environ),
            "enabled": bool(client.enabled(os.environ) and c.cfg.daemon)}


@cli.group()
def daemon() -> None:
    """The resident process that keeps the model and stores open for `remember`/`recall` calls."""


@daemon.command("status")
def daemon_status() -> None:
    """Whether it runs, since when, how many calls it served, which stores it holds open (`responding: false`
    with its pid when it does not answer within MNEMON_DAEMON_WAIT seconds)."""
    run(lambda c: client.ask(os.environ, {"op": "status"}) or _not_running(c))


@daemon.command("stop")
@click.option("--force", is_flag=True, help="End it by signal if it does not answer (stopped or wedged).")
def daemon_stop(force: bool) -> None:
    """Stop it (it saves its caches and closes its stores); the next call runs in its own process again."""
    def stop(c: Any) -> dict[str, Any]:
        answer = client.ask(os.environ, {"op": "stop"})
        if answer is not None and answer.get("responding") is not False:
            return answer
        # nothing answers: with --force, the process holding the lock (its pid is in the lock file) is ended
        pid = answer.get("pid") if answer else client.holder_pid(os.environ)
        if not (force and pid):
            return {**(answer or _not_running(c)), "stopped": False}
        gone = client.terminate(os.environ, int(pid))
        return {**(answer or _not_running(c)), "running": not gone, "pid": pid, "stopped": gone, "forced": True}
    run(stop)


@daemon.command("start")
def daemon_start() -> None:
    """Start it now for the current store and model (calls start it by themselves otherwise) and wait until it
    answers."""
    def start(c: Any) -> dict[str, Any]:
        status = client.ask(os.environ, {"op": "status"})
        if status is not None:
            return {**status, "started": False}
        if not (client.enabled(os.environ) and c.cfg.daemon):
            return {**_not_running(c), "started": False, "reason": "turned off (MNEMON_DAEMON / config 'daemon')"}
        options = [x for name in ("db", "store", "home", "config", "embed") if c.flags.get(name)
                   for x in (f"--{name}", str(c.flags[name]))]
        client.spawn([*options, "recall", "warm up"], os.environ, c.cfg.daemon_idle_s)  # warmed for this store
        deadline = time.monotonic() + START_WAIT_S
        while time.monotonic() < deadline:
            status = client.ask(os.environ, {"op": "status"})
            if status is not None:
                return {**status, "started": True}
            time.sleep(0.05)
        return {**_not_running(c), "started": False, "reason": f"no answer within {START_WAIT_S:.0f} s"}
    run(start)
