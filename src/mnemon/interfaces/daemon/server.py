"""The resident process: runs forwarded command lines through the CLI with the stores and models kept open.

    python -m mnemon.interfaces.daemon.server --dir DIR --key FINGERPRINT [--idle SECONDS]

Started by `client.spawn` (or `mnemon daemon start`). One at a time per socket, under a lock (DIR/FINGERPRINT.lock,
which holds its pid and the call it is running); it listens on DIR/FINGERPRINT.sock, runs one command at a time — in
the caller's working directory and environment, through `interfaces.cli.main.main`, exactly as the caller's own
process would — and exits after `--idle` seconds without a request, when asked to stop, on SIGTERM, when a newer
process has taken its socket, or, while idle, once the code on disk is no longer the code it was started from.

Commands run on the main thread (where a SIGTERM is relayed from any thread that took it); a second thread accepts
connections, so `status` and `stop` are answered while a command runs. A stop takes no new call and lets the one in
flight finish; a forced stop interrupts a call still running after its wait, by raising `Interrupted` in it (SIGTERM
does the same), so its transaction rolls back, its caller gets `daemon_stopped` and the stop's answer names it
(`interrupted`).
"""
from __future__ import annotations

import argparse
import contextlib
import fcntl
import io
import json
import os
import queue
import resource
import signal
import socket
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import client

if TYPE_CHECKING:
    from ...app.config import Config
    from ...app.memory import Mnemon

OPEN_FACADES = 4  # stores kept open at once; the least recently used one is closed (and its caches saved) first
REQUEST_READ_TIMEOUT_S = 30.0  # a caller that connects and sends nothing does not hold the process up for long
RECORD_BYTES = 256  # the lock file's second line: the call in flight, rewritten in place (`client.in_flight`)
QUEUED_CALLS = 64  # calls waiting for the one in flight (as the listening backlog held them); more run themselves
# while idle, how often the process checks that the code on disk is still the code it runs (≈ 1 ms a check): changed
# code gets a new process under another fingerprint, and no call can reach this one again
CODE_CHECK_S = 2.0


class Interrupted(BaseException):
    """Raised in the command in flight by a forced stop or SIGTERM. Not an Exception: no `except Exception` of the
    command turns it into an ordinary error; a transaction it passes through rolls back."""


class _Leave(BaseException):
    """Raised by SIGTERM where the main thread waits for a call: it leaves through the same clean-up as a stop."""


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

    def get(self, cfg: Config, *, readonly: bool, provider: str | None, create: bool = True) -> Mnemon:
        from ...app.memory import Mnemon

        key = (_where(cfg.db_path), repr(cfg), readonly, provider,
               tuple(sorted((k, v) for k, v in cfg.environ.items() if k.startswith("MNEMON_"))))
        held = self._open.pop(key, None)
        if held is not None and held[2] != _file_identity(cfg.db_path):
            with contextlib.suppress(Exception):  # its log was emptied after the last command: nothing to lay over
                held[0].close()
            held = None
        if held is None:
            mem = Mnemon.open(cfg, readonly=readonly, provider=provider, create=create)
            held = (mem, cfg.db_path, _file_identity(cfg.db_path))
        self._open[key] = held
        while len(self._open) > self.size:
            self._open.popitem(last=False)[1][0].close()
        self.used.append(key)
        return held[0]

    def forget(self, mem: Mnemon) -> None:
        """Let go of a facade closed meanwhile (`Mnemon.discard_if_untouched`)."""
        for key, held in list(self._open.items()):
            if held[0] is mem:
                del self._open[key]

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
        """Each database once: one file has a facade per way of opening it (for writing, read-only, by another
        spelling or a symlinked folder), which `daemon status` listed as so many stores."""
        held = list(self._open.items())  # a copy first: `status` reads it from another thread
        return list(dict.fromkeys(key[0] if isinstance(db, str) else os.path.realpath(key[0])
                                  for key, (_, db, _) in held))

    def close_all(self, *, save_caches: bool = True) -> None:
        """Close every store; after an interrupted command without saving caches, which it may have left
        half-updated (its transaction rolled back, the in-memory caches did not)."""
        while self._open:
            mem = self._open.popitem()[1][0]
            with contextlib.suppress(Exception):
                if save_caches:
                    mem.close()
                else:
                    mem.rt.store.close()


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
def _callers_process(cwd: str, env: Mapping[str, str], umask: Any = None) -> Iterator[None]:
    """The caller's working directory, environment and file mode mask (when it sent one) for the length of one
    command."""
    saved_cwd, saved_env = os.getcwd(), dict(os.environ)
    given = isinstance(umask, int) and not isinstance(umask, bool) and 0 <= umask <= 0o777
    saved_umask = os.umask(umask) if given else None
    try:
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update({k: v for k, v in env.items() if k != "MNEMON_DAEMON_WARM"})
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved_env)
        os.chdir(saved_cwd)
        if saved_umask is not None:
            os.umask(saved_umask)


def _declines(argv: list[str]) -> bool:
    """The caller's config file turns the resident process off: the caller runs the command itself."""
    from ...app.config import load_config

    options, _ = client.split_globals(argv)
    try:
        return not load_config(config_path=options.get("--config")).daemon
    except Exception:
        return False  # a broken config file is the command's to report, in the same words as anywhere


def run_command(request: Mapping[str, Any], pool: FacadePool, server: Server | None = None,
                notice: Callable[[str], None] | None = None) -> dict[str, Any]:
    """`notice`: where a notice of a slow step goes while the command runs (the caller's terminal), if anywhere."""
    from ..cli import main as cli_main

    argv = [str(a) for a in request["argv"]]
    out, err = io.StringIO(), io.StringIO()
    if not os.path.isdir(str(request["cwd"])):
        return {"declined": True}  # the caller's directory is gone: its own process says so in its own words
    with _callers_process(str(request["cwd"]), request.get("env") or {}, request.get("umask")):
        if _declines(argv) or not client.forwardable(argv):
            return {"declined": True}
        cli_main.RELAYED_NOTICE = notice
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                if server is not None:
                    server.phase = "command"
                # catches every Exception: an error is the command's envelope; `prog` is the program the caller ran
                # (`mneme`), which names the commands its answer suggests
                code = cli_main.main(argv, ends_process=False, prog_name=str(request.get("prog") or "mnemon"))
                if server is not None:
                    # right after the command, with no call in between (where a signal's handler could run first):
                    # a stop that comes as the command returns lets its answer out whole, then ends the process
                    server.phase = "answering"
        finally:
            cli_main.RELAYED_NOTICE = None
        pool.after_command()
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "code": code}


def call_name(argv: list[str]) -> str:
    """What a call is, for `status` and a stop's `interrupted`: its command."""
    return client.split_globals(argv)[1] or "?"


def interrupted_reply(call: Mapping[str, Any], argv: list[str]) -> dict[str, Any]:
    """What the caller of an interrupted command prints: the envelope (`daemon_stopped`, exit code 1)."""
    from ..payloads import dumps, error_envelope

    message = (f"the resident mnemon process was stopped (`mnemon daemon stop --force` or SIGTERM) while it ran "
               f"this {call['op']}; what it had not committed was rolled back (check with `recall`/`log` before "
               "repeating a write)")
    envelope = error_envelope("daemon_stopped", message, {"interrupted": dict(call)})
    # indented when asked, as `cli.main` indents an error
    return {"stdout": dumps(envelope, pretty="--pretty" in argv) + "\n", "stderr": "", "code": 1}


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
    def __init__(self, directory: str, key: str, idle_s: float, record_fd: int | None = None,
                 record_at: int = 0) -> None:
        # absolute: the accepting thread checks the socket while a command has moved into its caller's directory
        self.path = os.path.abspath(os.path.join(directory, f"{key}.sock"))
        self.key, self.idle_s = key, idle_s
        self.code = client.fingerprint()  # the code this process runs, as it was on disk when it started
        self.pool = FacadePool()
        self.started = time.time()
        self.served = 0
        self.inode = 0  # the socket file's, once bound
        self.record_fd, self.record_at = record_fd, record_at
        # calls taken by the accepting thread, run by the main thread in turn; None wakes it (a stop, a status)
        self.calls: queue.Queue[tuple[socket.socket, dict[str, Any]] | None] = queue.Queue()
        self.guard = threading.Lock()  # `current` and `stopping` change together
        self.current: dict[str, Any] | None = None  # the call in flight: {"op", "started_at"}
        self.stopping = False  # no new call is taken
        self.signalled = False  # SIGTERM (or a forced stop) came: leave as soon as the call in flight allows
        self.interrupted: dict[str, Any] | None = None
        # where the main thread is, for the SIGTERM handler (which runs on it, between two of its steps):
        # "waiting" for a call, running its "command", "answering" it, or "leaving"
        self.phase = "waiting"
        self.main_thread = threading.get_ident()
        self.stop_requests: list[tuple[socket.socket, bool]] = []  # answered once the stores are closed

    def status(self) -> dict[str, Any]:
        return {"running": True, "pid": os.getpid(), "socket": self.path, "key": self.key,
                "started_at": _iso(self.started), "served": self.served, "idle_timeout_s": self.idle_s,
                "open_stores": self.pool.stores(), "peak_memory_mb": _peak_memory_mb(), "busy": self.current,
                "stopping": self.stopping}

    def on_sigterm(self, signum: int, frame: Any) -> None:
        if self.signalled:
            return  # a second one, or the relay's copy of this one (`_relay_sigterm`): its way out is under way
        self.signalled = True
        if self.phase == "command":
            self.interrupted = self.current
            raise Interrupted
        if self.phase == "waiting":
            raise _Leave
        # answering or leaving: that finishes first, then the process ends

    # ── the main thread: one call at a time ──
    def serve(self, listener: socket.socket) -> None:
        from ..cli import main as cli_main

        cli_main.FACADES = self.pool
        self.main_thread = threading.get_ident()
        threading.Thread(target=self._accept, args=(listener,), name="mnemon-daemon-accept", daemon=True).start()
        try:
            idle_until = time.monotonic() + self.idle_s
            while not (self.stopping or self.signalled):
                left = idle_until - time.monotonic()
                if left <= 0:
                    return
                try:
                    job = self.calls.get(timeout=min(left, CODE_CHECK_S))
                except queue.Empty:
                    if client.fingerprint() != self.code:
                        return  # upgraded or edited: calls now go to a process of the new code
                    continue
                if job is not None:
                    self._run(*job)
                idle_until = time.monotonic() + self.idle_s
        except (_Leave, Interrupted):  # (SIGTERM while waiting for a call, or taking one over)
            return

    def _run(self, conn: socket.socket, request: dict[str, Any]) -> None:
        argv = [str(a) for a in request.get("argv") or []]
        with conn:
            with self.guard:
                if self.stopping or self.signalled:
                    return  # closed before its "ready": the caller runs the call itself
                call = self.current = {"op": call_name(argv), "started_at": _iso(time.time())}
            try:
                try:
                    # the hand-over (client.forward): "ready", then the caller's "go"; a caller that gave up waiting
                    # (it runs the call itself) has closed the connection, and nothing runs here
                    try:
                        client.send(conn, {"ready": True})
                        if not (client.receive(conn) or {}).get("go"):
                            return
                    except (OSError, ValueError):
                        return
                    conn.settimeout(None)
                    self._record(call)
                    try:
                        reply = run_command(request, self.pool, self, _notices_to(conn, request))
                    except Interrupted:
                        self.phase = "answering"
                        self.interrupted = call
                        reply = interrupted_reply(call, argv)
                except _Leave:
                    # SIGTERM before the command began (`on_sigterm` raises this one only then): nothing ran, so
                    # the caller runs it itself, as when the process closes before its "ready" — it was told
                    # `daemon_failed`, "run it again", with a stop answering `interrupted: null`
                    with contextlib.suppress(OSError):
                        client.send(conn, {"declined": True})
                    raise
                self.served += 0 if reply.get("declined") else 1
                with contextlib.suppress(OSError):  # the caller may have gone (interrupted): the command ran anyway
                    client.send(conn, reply)
            finally:
                with self.guard:
                    self.current = None
                self._record(None)
                self.phase = "waiting"

    def _record(self, call: Mapping[str, Any] | None) -> None:
        """The call in flight, in the lock file after the pid: a stop that gets no answer still says what it ended."""
        if self.record_fd is None:
            return
        line = json.dumps(call, ensure_ascii=True).encode()[:RECORD_BYTES - 1] if call else b""
        with contextlib.suppress(OSError):
            os.pwrite(self.record_fd, line.ljust(RECORD_BYTES - 1) + b"\n", self.record_at)

    def leave(self, listener: socket.socket) -> None:
        """Stop listening, close the stores, then tell whoever asked for the stop."""
        self.phase = "leaving"
        with self.guard:
            self.stopping = True
        with contextlib.suppress(OSError):
            listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread's accept()
        listener.close()
        with contextlib.suppress(OSError):
            if os.stat(self.path).st_ino == self.inode:  # still ours, not a newer process's
                os.unlink(self.path)
        self.pool.close_all(save_caches=self.interrupted is None)
        with self.guard:
            asked, self.stop_requests = self.stop_requests, []
        final = {**self.status(), "running": False, "stopped": True, "busy": None, "interrupted": self.interrupted}
        for conn, force in asked:
            with conn, contextlib.suppress(OSError):
                client.send(conn, {**final, "forced": force})

    # ── the accepting thread: status and stop at once, calls handed to the main thread ──
    def _accept(self, listener: socket.socket) -> None:
        # SIGTERM is the main thread's (where the handler can interrupt a command): blocked here and in the timers
        # started from here, so a SIGTERM to the process is never taken by a thread that cannot act on it
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return  # the listener is closed: the process is leaving
            try:
                self._take(conn)
            except Exception:  # noqa: BLE001 — one bad connection never stops the process from answering
                conn.close()
            try:
                if os.stat(self.path).st_ino != self.inode:
                    self._ask_to_stop()  # a newer process took the socket: it serves from now on
            except OSError:
                self._ask_to_stop()

    def _take(self, conn: socket.socket) -> None:
        conn.settimeout(REQUEST_READ_TIMEOUT_S)
        try:
            request = client.receive(conn) or {}
        except (OSError, ValueError):
            request = {}
        op = request.get("op")
        if op == "run":
            with self.guard:
                taken = not self.stopping and self.calls.qsize() < QUEUED_CALLS
            if taken:
                self.calls.put((conn, request))  # the main thread answers it and closes it
                return
        elif op == "stop":
            self._stop_asked(conn, bool(request.get("force")), _seconds(request.get("wait")))
            return
        with conn:  # a call not taken is closed unanswered: its caller runs it itself
            if op is not None and op != "run":
                reply = self.status() if op == "status" else {
                    "ok": False, "error": {"code": "usage", "message": f"unknown request {op!r}"}}
                with contextlib.suppress(OSError):
                    client.send(conn, reply)
        self.calls.put(None)  # a request is activity: the idle time starts again

    def _stop_asked(self, conn: socket.socket, force: bool, wait_s: float) -> None:
        """Acknowledged at once, with the call in flight; `leave` sends the answer that it stopped. Sent under the
        guard, so that acknowledgement always comes first."""
        with self.guard:
            self.stopping = True
            call = self.current
            try:
                client.send(conn, {**self.status(), "stopping": True})
                self.stop_requests.append((conn, force))
            except OSError:
                conn.close()
        self.calls.put(None)
        if force and call is not None:
            timer = threading.Timer(wait_s, self._interrupt, args=(call,))
            timer.daemon = True
            timer.start()

    def _ask_to_stop(self) -> None:
        with self.guard:
            self.stopping = True
        self.calls.put(None)

    def _interrupt(self, call: dict[str, Any]) -> None:
        """A forced stop's wait is over: the call, if still the one in flight, gets SIGTERM on the main thread."""
        with self.guard:
            if self.current is call:
                signal.pthread_kill(self.main_thread, signal.SIGTERM)


def _notices_to(conn: socket.socket, request: Mapping[str, Any]) -> Callable[[str], None] | None:
    """A caller whose stderr is a terminal (`client.forward`) is sent each notice as it comes, before its answer."""
    if request.get("notices") is not True:
        return None

    def send(message: str) -> None:
        with contextlib.suppress(OSError):  # a caller gone meanwhile: the command goes on, as on a closed terminal
            client.send(conn, {"notice": message})
    return send


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _seconds(value: Any) -> float:
    try:
        return min(max(float(value), 0.0), 3600.0)
    except (TypeError, ValueError):
        return client.FORCE_WAIT_S


def _relay_sigterm() -> None:
    """Have a SIGTERM taken by any thread interrupt the main thread. The kernel hands a signal sent to the process
    to any thread that does not block it — a library's worker (numpy's BLAS, a model's OpenMP pool), or after a
    SIGSTOP whichever thread the SIGCONT lets run first — and only the thread that took it has its wait cut short:
    the main thread ran on in its command (waiting for an embedding server) until `stop --force` killed the
    process, and the caller got `daemon_failed`. Every signal writes its number to the wake-up pipe, whichever
    thread took it; a thread of our own reads it and sends the main thread a SIGTERM of its own, once (that one
    comes back through the pipe too, and `on_sigterm` takes only the first)."""
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)  # (set_wakeup_fd requires it: a signal handler must never block)
    signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    main_thread = threading.get_ident()

    def relay() -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
        while signal.SIGTERM not in os.read(wake_read, 512):  # (one byte a signal: its number)
            pass
        with contextlib.suppress(OSError):
            signal.pthread_kill(main_thread, signal.SIGTERM)

    threading.Thread(target=relay, name="mnemon-daemon-signals", daemon=True).start()


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
    # read-write without O_APPEND: the call in flight is rewritten in place after the pid (`Server._record`)
    fd = os.open(os.path.join(opts.dir, f"{opts.key}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    with os.fdopen(fd, "r+b"):  # closes the lock (and so frees it) on the way out
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 0  # another one is starting or running
        pid_line = f"{os.getpid()}\n".encode()  # for `mnemon daemon stop --force`, should this process not answer
        os.ftruncate(fd, 0)
        os.pwrite(fd, pid_line, 0)
        server = Server(opts.dir, opts.key, opts.idle, fd, len(pid_line))
        signal.signal(signal.SIGTERM, server.on_sigterm)
        _relay_sigterm()
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as a CLI call: one command at a time, one BLAS thread
        try:
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
        except _Leave:
            server.pool.close_all()
            return 0
        try:
            server.serve(listener)
        finally:
            server.leave(listener)
    return 0


if __name__ == "__main__":
    sys.exit(main())
