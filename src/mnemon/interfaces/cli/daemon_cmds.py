"""`mnemon daemon status|start|stop`: the resident process CLI calls hand their commands to (`interfaces/daemon`)."""
from __future__ import annotations

import os
import time
from typing import Any

import click

from ..daemon import client
from .main import cli, run

START_WAIT_S = 30.0  # loading numpy and the model on a busy machine


class _Seconds(click.FloatRange):
    """A number of seconds in range; 'nan' passed FloatRange's bounds (no comparison with it is true)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if seconds != seconds:
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return seconds


def _not_running(c: Any) -> dict[str, Any]:
    return {"running": False, "socket": client.socket_path(os.environ),
            "enabled": bool(client.enabled(os.environ) and c.cfg.daemon)}


@cli.group()
def daemon() -> None:
    """The resident process that keeps the model and stores open for `remember`/`recall` calls."""


@daemon.command("status")
def daemon_status() -> None:
    """Whether it runs, since when, how many calls it served, which stores it holds open, the call it runs (`busy`:
    op, started_at) and whether it is `stopping` (`responding: false` with its pid when it does not answer within
    MNEMON_DAEMON_WAIT seconds)."""
    run(lambda c: client.ask(os.environ, {"op": "status"}) or _not_running(c))


@daemon.command("stop")
@click.option("--force", is_flag=True, help="Interrupt a call still running after --wait seconds (default 5) and "
              "name it in `interrupted`; end a process that does not answer (stopped or wedged) by signal.")
@click.option("--wait", "wait_s", type=_Seconds(0, 3600), default=None,
              help="Seconds to let the call in flight finish (default 30; 5 with --force).")
def daemon_stop(force: bool, wait_s: float | None) -> None:
    """Stop it: it takes no new call (calls run in their own process again), lets the call in flight finish, saves
    its caches, closes its stores and exits; `stopped: true` once it has. A call still running after --wait
    seconds is never cut without --force: the answer says `stopped: false, stopping: true` with that call as `busy`,
    and the process exits when the call ends. With --force that call is interrupted — its uncommitted writes roll
    back, its caller gets the error `daemon_stopped` — and the answer names it: `interrupted: {op, started_at}`
    (null when nothing was cut)."""
    run(lambda c: client.stop(os.environ, force=force, wait=wait_s) or {**_not_running(c), "stopped": False})


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
