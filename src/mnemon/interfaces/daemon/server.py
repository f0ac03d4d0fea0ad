"""The resident process: runs forwarded command lines through the CLI with the stores and models kept open.

    python -m mnemon.interfaces.daemon.server --dir DIR --key FINGERPRINT [--idle SECONDS]

Started by `client.spawn` (or `mnemon daemon start`). One at a time per socket, under a lock (DIR/FINGERPRINT.lock,
which holds its pid); it listens on DIR/FINGERPRINT.sock, runs one command at a time — in the caller's working
directory and environment, through `interfaces.cli.main.main`, exactly as the caller's own process would — and exits
after `--idle` seconds without a request, when asked to stop, on SIGTERM, or when a newer process has taken its
socket.
"""
from __future__ import annotations

import argparse
import contextlib
import fcntl
import io
import json
import os
import resource
import signal
import socket
import sys
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import client

if TYPE_CHECKING:
    from ...app.config import Config
    from ...app.memory import Mnemon

OPEN_FACADES = 4  # stores kept open at once; the least recently used one is closed (and its caches saved) first
REQUEST_READ_TIMEOUT_S = 30.0  # a caller that connects and sends nothing does not hold the process up for long


_Identity = tuple[int, int, int, int, int] | None  # see _file_identity


class FacadePool:
    """Facades kept open between commands, by everything that makes two of them differ.

    A SQLite file is also remembered by its inode, size and modification time as the last command left it: a store
    removed, replaced or copied over since (`store remove`, a restore by `cp backup.db mnemon.db`) is opened afresh
    instead of read through caches, and written through a handle, that belong to another file. For a copy over the
    file to be read as it is — by this process and by every other — no write-ahead log of ours may outlive a
    command (SQLite would lay its frames over the copied file): `after_command` empties it, as a process of its own
    does when it closes the store. Best effort: a log another process keeps busy at that moment stays, so the safe
    way to restore by copying files is still `mnemon daemon stop` first (docs/agents.md)."""

    def __init__(self, size: int = OPEN_FACADES) -> None:
        self.size = size
        # key → (facade, its database as opened, that file's identity)
        self._open: OrderedDict[tuple[Any, ...], tuple[Mnemon, Path | str, _Identity]] = OrderedDict()
        self.used: list[tuple[Any, ...]] = []

    def get(self, cfg: Config, *, readonly: bool, provider: str | None) -> Mnemon:
        from ...app.memory import Mnemon

        key = (_where(cfg.db_path), repr(cfg), readonly, provider,
               tuple(sorted((k, v) for k, v in cfg.environ.items() if k.startswith("MNEMON_"))))
        held = self._open.pop(key, None)
        if held is not None and held[2] != _file_identity(cfg.db_path):
            with contextlib.suppress(Exception):  # its log was emptied after the last command: nothing to lay over
                held[0].close()
            held = None
        if held is None:
            mem = Mnemon.open(cfg, readonly=readonly, provider=provider)
            held = (mem, cfg.db_path, _file_identity(cfg.db_path))
        self._open[key] = held
        while len(self._open) > self.size:
            self._open.popitem(last=False)[1][0].close()
        self.used.append(key)
        return held[0]

    def after_command(self) -> None:
        """What a process of its own would leave behind at its end: the vector matrix it extended saved, the
        write-ahead log copied into the database and emptied; then the file as it is now, to compare next time."""
        for key in dict.fromkeys(self.used):
            if key not in self._open:
                continue
            mem, db, _ = self._open[key]
            with contextlib.suppress(Exception):
                mem.rt.save_caches_now()
            if not isinstance(db, str) and not key[2]:  # a SQLite file opened for writing
                vault = getattr(mem.rt.store, "vault", None)  # SQLiteStore's; the Store protocol does not name it
                with contextlib.suppress(Exception):
                    vault.release_wal(wait_ms=0)  # type: ignore[union-attr]  # never waits for others' readers
            self._open[key] = (mem, db, _file_identity(db))
        self.used.clear()

    def stores(self) -> list[str]:
        return [str(key[0]) for key in self._open]

    def close_all(self) -> None:
        while self._open:
            with contextlib.suppress(Exception):
                self._open.popitem()[1][0].close()


def _where(db: Path | str) -> str:
    if isinstance(db, str):
        from ...ports.store.postgres import redact

        return redact(db)
    return os.path.abspath(db)


def _file_identity(db: Path | str) -> _Identity:
    if isinstance(db, str):
        return None
    try:
        st = os.stat(db)
    except OSError:
        return None
    # a copy over the file keeps its inode; its size and times change (ctime even when `cp -p` restores mtime)
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


@contextlib.contextmanager
def _callers_process(cwd: str, env: Mapping[str, str]) -> Iterator[None]:
    """The caller's working directory and environment for the length of one command."""
    saved_cwd, saved_env = os.getcwd(), dict(os.environ)
    try:
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update({k: v for k, v in env.items() if k != "MNEMON_DAEMON_WARM"})
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)


def _declines(argv: list[str]) -> bool:
    """The caller's config file turns the resident process off: the caller runs the command itself."""
    from ...app.config import load_config

    options, _ = client.split_globals(argv)
    try:
        return not load_config(config_path=options.get("--config")).daemon
    except Exception:
        return False  # a broken config file is the command's to report, in the same words as anywhere


def run_command(request: Mapping[str, Any], pool: FacadePool) -> dict[str, Any]:
    from ..cli.main import main

    argv = [str(a) for a in request["argv"]]
    out, err = io.StringIO(), io.StringIO()
    if not os.path.isdir(str(request["cwd"])):
        return {"declined": True}  # the caller's directory is gone: its own process says so in its own words
    with _callers_process(str(request["cwd"]), request.get("env") or {}):
        if _declines(argv) or not client.forwardable(argv):
            return {"declined": True}
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv, ends_process=False)  # catches everything: an error is the command's envelope
        pool.after_command()
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "code": code}


def warm_up(request: Mapping[str, Any], pool: FacadePool) -> None:
    """Open the store the spawning call used and load its model, so the next call finds both ready."""
    from ...app.config import load_config

    argv = [str(a) for a in request["argv"]]
    options, _ = client.split_globals(argv)
    with _callers_process(str(request["cwd"]), request.get("env") or {}), contextlib.suppress(Exception):
        cfg = load_config(config_path=options.get("--config"), db=options.get("--db"), store=options.get("--store"),
                          home=options.get("--home"))
        mem = pool.get(cfg, readonly=False, provider=options.get("--embed"))
        mem.rt.embed_query("warm up")
        if mem.rt.vectors_enabled:
            len(mem.rt.index)
        pool.used.clear()


def _peak_memory_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    return round(peak / (1 << 20 if sys.platform == "darwin" else 1 << 10), 1)


class Server:
    def __init__(self, directory: str, key: str, idle_s: float) -> None:
        self.path = os.path.join(directory, f"{key}.sock")
        self.key, self.idle_s = key, idle_s
        self.pool = FacadePool()
        self.started = time.time()
        self.served = 0
        self.inode = 0  # the socket file's, once bound

    def status(self) -> dict[str, Any]:
        return {"running": True, "pid": os.getpid(), "socket": self.path, "key": self.key,
                "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.started)),
                "served": self.served, "idle_timeout_s": self.idle_s, "open_stores": self.pool.stores(),
                "peak_memory_mb": _peak_memory_mb()}

    def serve(self, listener: socket.socket) -> None:
        from ..cli import main as cli_main

        cli_main.FACADES = self.pool
        listener.settimeout(self.idle_s)
        while True:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                return
            with conn:
                if self._answer(conn) == "stop":
                    return
            try:
                if os.stat(self.path).st_ino != self.inode:
                    return  # a newer process took the socket: it serves from now on
            except OSError:
                return

    def _answer(self, conn: socket.socket) -> str:
        conn.settimeout(REQUEST_READ_TIMEOUT_S)
        try:
            request = client.receive(conn)
            op = request.get("op") if request is not None else None
            if op == "run":
                # the hand-over (client.forward): "ready", then the caller's "go"; a caller that gave up waiting
                # (it runs the call itself) has closed the connection, and nothing runs here
                client.send(conn, {"ready": True})
                if not (client.receive(conn) or {}).get("go"):
                    return "dropped"
        except (OSError, ValueError):
            return "dropped"
        if request is None:
            return "dropped"
        conn.settimeout(None)
        if op == "run":
            reply = run_command(request, self.pool)
            self.served += 0 if reply.get("declined") else 1
        elif op == "status":
            reply = self.status()
        elif op == "stop":
            reply = {**self.status(), "running": False, "stopped": True}
        else:
            reply = {"ok": False, "error": {"code": "usage", "message": f"unknown request {op!r}"}}
        with contextlib.suppress(OSError):  # the caller may have gone (interrupted): the command ran all the same
            client.send(conn, reply)
        return str(op)


def _listen(server: Server) -> socket.socket:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    staging = f"{server.path}.{os.getpid()}"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(staging)
    listener.bind(staging)
    listener.listen(64)
    os.replace(staging, server.path)  # whole, in one step: a caller connects to a listening socket or to none
    server.inode = os.stat(server.path).st_ino
    return listener


def main(args: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="mnemon-daemon", description=__doc__.split("\n")[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--idle", type=float, default=900.0)
    opts = ap.parse_args(args)
    os.makedirs(opts.dir, mode=0o700, exist_ok=True)
    if not client.private_dir_ok(opts.dir):
        return 1
    with open(os.path.join(opts.dir, f"{opts.key}.lock"), "a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 0  # another one is starting or running
        lock.seek(0)
        lock.truncate()
        lock.write(f"{os.getpid()}\n")  # for `mnemon daemon stop --force`, should this process stop answering
        lock.flush()
        # SIGTERM (`daemon stop --force`) ends it through the `finally` a stop request takes: caches saved, socket gone
        signal.signal(signal.SIGTERM, _exit_on_signal)
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as a CLI call: one command at a time, one BLAS thread
        server = Server(opts.dir, opts.key, opts.idle)
        warm = os.environ.pop("MNEMON_DAEMON_WARM", None)
        if warm:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                warm_up({**json.loads(warm), "env": dict(os.environ)}, server.pool)  # started in the caller's env
        try:
            listener = _listen(server)
        except OSError as exc:
            with open(client.failure_note(opts.dir, opts.key), "w") as note:
                note.write(f"{exc}\n")
            return 1
        try:
            server.serve(listener)
        finally:
            listener.close()
            with contextlib.suppress(OSError):
                if os.stat(server.path).st_ino == server.inode:  # still ours, not a newer process's
                    os.unlink(server.path)
            server.pool.close_all()
    return 0


def _exit_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(0)


if __name__ == "__main__":
    sys.exit(main())
