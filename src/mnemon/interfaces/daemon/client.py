"""The CLI's side of the resident process: which calls go to it, where it listens, and the wire between them.

This module is imported by every `mnemon` call before anything else, so it uses the standard library's lightest
modules only (no click, no package code): a call it forwards never imports the rest of mnemon.
"""
from __future__ import annotations

import hashlib
import json
import os
import socket
import struct
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

# commands that pay for the model and the store's caches, and read no standard input
FORWARDED = frozenset({"remember", "recall", "search", "retrieve", "surface", "agent"})
# these read the prompt from standard input when none is given (`agent` groups `preflight` alone, whose prompt is
# required): forwarded only with `--prompt TEXT`
_PROMPTED = frozenset({"retrieve", "surface", "agent"})
_GLOBAL_WITH_VALUE = frozenset({"--db", "--store", "--home", "--config", "--embed"})
_GLOBAL_FLAGS = frozenset({"--pretty"})  # --readonly is not forwarded: a read-only snapshot is a per-process thing
# arguments that make a command read standard input or print help: such a call runs in its own process
_LOCAL_ONLY = frozenset({"-", "-h", "--help", "--payload", "--version"})
_ON = frozenset({"1", "true", "yes", "on"})  # as `app.config` reads a boolean setting
_HEADER = struct.Struct("!Q")
# a Unix socket's path is limited to 104–108 bytes by the OS; the server binds a slightly longer staging name first
MAX_SOCKET_PATH = 96
RETRY_AFTER_FAILURE_S = 600.0
# how long a call waits for the resident process to take it (connect, send, its "ready") before running by itself,
# and `daemon status`/`stop` for an answer: a stopped or wedged process must not hang every call (MNEMON_DAEMON_WAIT)
WAIT_S = 3.0
# `daemon stop`: how long it waits for the call in flight to end (it is never cut; the process exits after it)
STOP_WAIT_S = 30.0
# `daemon stop --force`: how long the call in flight may still run before it is interrupted, and how long its way
# out (a rollback, closing its stores) may take before the process is killed, after a stop or a SIGTERM (`terminate`)
FORCE_WAIT_S = 5.0
UNWIND_S = 5.0
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def split_globals(argv: Sequence[str]) -> tuple[dict[str, str], str | None]:
    """The global options before the command (`--db`, `--config`, … as given) and the command's name, if any."""
    options: dict[str, str] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if arg in _GLOBAL_WITH_VALUE:
            if i + 1 < len(argv):
                options[arg] = argv[i + 1]
            i += 2
        elif eq and name in _GLOBAL_WITH_VALUE:
            options[name] = value
            i += 1
        elif arg in _GLOBAL_FLAGS:
            i += 1
        else:
            return options, None if arg.startswith("-") else arg
    return options, None


def forwardable(argv: Sequence[str]) -> bool:
    """Whether the resident process may run this call: a forwarded command, nothing read from standard input."""
    command = split_globals(argv)[1]
    if command not in FORWARDED:
        return False
    if any(a in _LOCAL_ONLY or a.split("=", 1)[0] in _LOCAL_ONLY or a == "--readonly" for a in argv):
        return False
    return command not in _PROMPTED or _prompt_given(argv)


def _prompt_given(argv: Sequence[str]) -> bool:
    """A prompt on the command line. `-` and an empty value both mean "read it from standard input", which the
    resident process (its standard input is /dev/null) cannot."""
    for k, arg in enumerate(argv):
        if arg == "--prompt" and k + 1 < len(argv) and argv[k + 1] not in ("-", ""):
            return True
        if arg.startswith("--prompt=") and arg not in ("--prompt=-", "--prompt="):
            return True
    return False


def enabled(environ: Mapping[str, str]) -> bool:
    """The environment's word, read as the `daemon` setting reads it (unset: on); the config file's is checked where
    the config is loaded (the server declines, the spawn is not made)."""
    word = environ.get("MNEMON_DAEMON", "").strip().lower()
    return (word == "" or word in _ON) and hasattr(socket, "AF_UNIX")


def runtime_dir(environ: Mapping[str, str]) -> str:
    """A directory only this user can enter: MNEMON_DAEMON_DIR, else $XDG_RUNTIME_DIR/mnemon, else a per-user one
    in the temporary directory."""
    if environ.get("MNEMON_DAEMON_DIR"):
        return environ["MNEMON_DAEMON_DIR"]
    if environ.get("XDG_RUNTIME_DIR"):
        return os.path.join(environ["XDG_RUNTIME_DIR"], "mnemon")
    return os.path.join(environ.get("TMPDIR") or "/tmp", f"mnemon-{os.getuid()}")


def fingerprint() -> str:
    """The interpreter and every source file of the package (path, size, modification time): changed code, or
    another virtualenv, gets another resident process. ≈ 1 ms for the package's files."""
    digest = hashlib.blake2b(f"{sys.executable}\0{sys.version}".encode(), digest_size=8)
    stack = [PACKAGE_DIR]
    while stack:
        folder = stack.pop()
        with os.scandir(folder) as entries:
            for entry in sorted(entries, key=lambda e: e.name):
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        stack.append(entry.path)
                elif entry.name.endswith(".py"):
                    st = entry.stat()
                    digest.update(f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def socket_path(environ: Mapping[str, str], key: str | None = None) -> str:
    return os.path.join(runtime_dir(environ), f"{key or fingerprint()}.sock")


def wait_s(environ: Mapping[str, str]) -> float:
    try:
        value = float(environ.get("MNEMON_DAEMON_WAIT", "") or WAIT_S)
    except ValueError:
        return WAIT_S
    return value if 0 < value < 3600 else WAIT_S


def private_dir_ok(path: str) -> bool:
    """The directory exists, is this user's, and nobody else may enter it (so its socket is this user's too)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return st.st_uid == os.getuid() and (st.st_mode & 0o077) == 0


# ── the wire: one length-prefixed JSON document each way ─────────────────────
def send(sock: socket.socket, doc: Mapping[str, Any]) -> None:
    body = json.dumps(doc, ensure_ascii=False).encode("utf-8")
    sock.sendall(_HEADER.pack(len(body)) + body)


def receive(sock: socket.socket) -> dict[str, Any] | None:
    """The next document, or None when the other side closed the connection first."""
    head = _read_exactly(sock, _HEADER.size)
    if head is None:
        return None
    body = _read_exactly(sock, _HEADER.unpack(head)[0])
    if body is None:
        return None
    doc = json.loads(body.decode("utf-8"))
    return doc if isinstance(doc, dict) else None


def _read_exactly(sock: socket.socket, n: int) -> bytes | None:
    chunks, left = [], n
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def connect(environ: Mapping[str, str], key: str | None = None) -> socket.socket | None:
    """A connection to this code's resident process, or None if none is listening. Its timeout is `wait_s`: a
    process that stopped accepting (its backlog full) is as good as none."""
    path = socket_path(environ, key)
    if not private_dir_ok(os.path.dirname(path)):
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(wait_s(environ))
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        return None
    return sock


def ask(environ: Mapping[str, str], doc: Mapping[str, Any], key: str | None = None) -> dict[str, Any] | None:
    """One request and its answer (`status`; `stop` answers first that it is stopping); None if no resident process
    listens. One that listens but does not answer within `wait_s` (stopped or wedged) is reported as such, with its
    pid."""
    sock = connect(environ, key)
    if sock is None:
        return None
    with sock:
        try:
            send(sock, doc)
            return receive(sock)
        except TimeoutError:
            pass
        except (OSError, ValueError):
            return None
    return {"running": True, "responding": False, "pid": holder_pid(environ, key),
            "socket": socket_path(environ, key),
            "message": f"the resident process did not answer within {wait_s(environ):g} s (stopped or wedged); "
                       "`mnemon daemon stop --force` ends it"}


def forward(argv: Sequence[str], environ: Mapping[str, str], prog_name: str = "mnemon") -> int | None:
    """Run the call in the resident process and print what it printed. Returns its exit code, or None when the call
    must run here: nothing listens, the resident process declines (the config file turns it off, or a SIGTERM came
    before the command began), or it does not take the call within `wait_s`. `prog_name` is the program run
    (`mneme`), as `cli.main.main` takes it.

    The hand-over is a handshake: the request, the process's "ready", then our "go". Until "go" is sent the process
    has run nothing and runs nothing (a caller that hung up before it is dropped), so giving up and running here
    cannot run a command twice; after it, this call waits for the answer however long the command takes, printing
    on stderr each notice of a slow step the process sends before it (only when stderr is a terminal)."""
    try:
        cwd = os.getcwd()
    except OSError:
        return None  # the working directory is gone: the call's own process reports it
    sock = connect(environ)
    if sock is None:
        return None
    with sock:
        try:
            send(sock, {"op": "run", "argv": list(argv), "cwd": cwd, "env": dict(environ), "umask": current_umask(),
                        "prog": prog_name, "notices": _on_terminal(sys.stderr)})
            ready = receive(sock)
            if ready is None or not ready.get("ready"):
                return None  # it closed the connection without taking the call: nothing ran
            send(sock, {"go": True})
        except (OSError, ValueError):  # a timeout among them: the call was never handed over
            return None
        except KeyboardInterrupt:
            return _aborted()
        sock.settimeout(None)
        try:
            reply = receive(sock)
            while reply is not None and "notice" in reply:
                _print("", f"{reply['notice']}\n", 0)
                reply = receive(sock)
        except (OSError, ValueError):
            reply = None
        except KeyboardInterrupt:  # as a call of its own would answer an interrupt (the command may still finish)
            return _aborted()
    if reply is None:
        # the request may have run (a write committed) before the process died: running it again here could do it
        # twice, so the caller hears what happened instead
        return _print(json.dumps({"ok": False, "error": {
            "code": "daemon_failed", "message": "the resident mnemon process stopped before it answered; run the "
            "command again (MNEMON_DAEMON=off runs it in its own process)"}}, separators=(",", ":")) + "\n", "", 1)
    if reply.get("declined"):
        return None
    return _print(str(reply.get("stdout", "")), str(reply.get("stderr", "")), int(reply.get("code", 1)))


def _on_terminal(stream: Any) -> bool:
    try:
        return stream is not None and bool(stream.isatty())
    except (OSError, ValueError):  # closed
        return False


def current_umask() -> int:
    """This process's file mode mask, which the resident process makes the caller's files with (a store created
    there otherwise got the mask of whoever started it). Read by setting it: nothing only reads it."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def _aborted() -> int:
    return _print('{"ok":false,"error":{"code":"aborted","message":"aborted"}}\n', "", 1)


def _print(out: str, err: str, code: int) -> int:
    """Print what the command printed as a call of its own would have: UTF-8 whatever the locale (JSON's encoding;
    `cli.main._utf8_output`); a reader that went away ends the call quietly with 1, as it ends a call of its own."""
    for stream, text in ((sys.stdout, out), (sys.stderr, err)):
        if not text or stream is None:  # closed before the call (`>&-`): nothing to print to, as for a call alone
            continue
        try:
            buffer = getattr(stream, "buffer", None)
            if buffer is None:
                stream.write(text)
                stream.flush()
                continue
            stream.flush()
            buffer.write(text.encode("utf-8", "backslashreplace"))  # a lone surrogate from an odd argument too
            buffer.flush()
        except (OSError, ValueError):  # a closed pipe (BrokenPipeError), a closed stream
            _silence(stream)
            return 1
    return code


def _silence(stream: Any) -> None:
    """What is left in a broken stream's buffer would fail again, loudly, when the interpreter exits."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def lock_path(environ: Mapping[str, str], key: str | None = None) -> str:
    """The resident process holds a lock on this file while it lives, and writes its pid in it."""
    return os.path.join(runtime_dir(environ), f"{key or fingerprint()}.lock")


def holder_pid(environ: Mapping[str, str], key: str | None = None) -> int | None:
    """The pid of the resident process holding the lock, or None when none does (so a pid left in the file by a
    process that died is never taken for a live one)."""
    held = _lock_lines(environ, key)
    return int(held[0]) if held and held[0].isdigit() else None


def in_flight(environ: Mapping[str, str], key: str | None = None) -> dict[str, Any] | None:
    """The call the resident process holding the lock is running (`{"op", "started_at"}`), as it recorded it in the
    lock file's second line; None when it runs none, or none holds the lock."""
    held = _lock_lines(environ, key)
    try:
        call = json.loads(held[1]) if held and len(held) > 1 and held[1] else None
    except ValueError:
        return None
    return call if isinstance(call, dict) else None


def _lock_lines(environ: Mapping[str, str], key: str | None) -> list[str] | None:
    import fcntl

    try:
        with open(lock_path(environ, key)) as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:  # held: its holder wrote its pid, then the call it runs
                return [line.strip() for line in lock.read().split("\n")]
            fcntl.flock(lock, fcntl.LOCK_UN)
            return None
    except OSError:
        return None


def stop(environ: Mapping[str, str], *, force: bool = False, wait: float | None = None) -> dict[str, Any] | None:
    """`mnemon daemon stop`; None when no resident process runs.

    The process takes no new call from the request on (callers run theirs in their own process), lets the call in
    flight finish, closes its stores and answers `stopped: true`. This waits `wait` seconds for that (STOP_WAIT_S);
    a call still running then is reported (`stopping`, `busy`) and the process exits when it ends. With `force`
    (wait FORCE_WAIT_S) a call still running is interrupted instead — its uncommitted writes roll back, its caller
    gets `daemon_stopped` — and named in `interrupted: {op, started_at}` (null: nothing was cut); a process that
    does not answer at all, or not within UNWIND_S of the interruption, is ended by signal."""
    wait = (FORCE_WAIT_S if force else STOP_WAIT_S) if wait is None else max(0.0, wait)
    sock = connect(environ)
    ack: dict[str, Any] | None = None
    if sock is not None:
        with sock:
            try:
                send(sock, {"op": "stop", "force": force, "wait": wait})
                ack = receive(sock)
                if ack is not None:
                    sock.settimeout(wait + (UNWIND_S if force else 0.0) + wait_s(environ))
                    final = receive(sock)
                    if final is not None:
                        return final
            except (OSError, ValueError):  # a timeout among them
                pass
    pid = (ack or {}).get("pid") or holder_pid(environ)
    if ack is None and pid is None:
        return None  # nothing listens, nothing holds the lock
    known = {"running": True, "pid": pid, "socket": socket_path(environ), **(ack or {"responding": False}),
             "interrupted": None}
    if pid is not None and holder_pid(environ) != pid:
        # it answered that it stops, then went before its last answer reached us
        return {**known, "running": False, "stopped": True, "busy": None, "forced": force}
    if not force:
        if ack is None:
            return {**known, "stopped": False, "message": f"the resident process did not answer within "
                    f"{wait_s(environ):g} s (stopped or wedged); `mnemon daemon stop --force` ends it"}
        return {**known, "stopped": False, "message": f"its call in flight still runs after {wait:g} s; it exits "
                "when that call ends (`--force` interrupts it)"}
    cut = in_flight(environ) or (ack or {}).get("busy")  # read before the signal: the process's last record
    gone = terminate(environ, int(pid)) if pid is not None else True
    if not gone:
        return {**known, "stopped": False, "forced": True, "message": f"could not end process {pid}"}
    return {**known, "running": False, "stopped": True, "forced": True, "busy": None, "interrupted": cut}


def terminate(environ: Mapping[str, str], pid: int, grace_s: float = UNWIND_S) -> bool:
    """End a resident process that does not answer: SIGTERM (with SIGCONT, so a stopped one gets it), then SIGKILL
    after `grace_s`. True when the lock is free afterwards, i.e. it is gone. The wait is its way out's (UNWIND_S):
    a SIGKILL after 3 s killed a process still rolling back the call it cut and closing its stores."""
    import signal

    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(pid, sig)
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            return True
        except OSError:
            return False
        deadline = time.monotonic() + grace_s
        while time.monotonic() < deadline:
            if holder_pid(environ) != pid:
                return True
            time.sleep(0.02)
    return holder_pid(environ) != pid


def failure_note(directory: str, key: str) -> str:
    """Written by a resident process that could not start listening (with why): no call starts another for a while."""
    return os.path.join(directory, f"{key}.failed")


def _failed_lately(directory: str, key: str) -> bool:
    try:
        return os.stat(failure_note(directory, key)).st_mtime > time.time() - RETRY_AFTER_FAILURE_S
    except OSError:
        return False


def spawn(argv: Sequence[str], environ: Mapping[str, str], idle_s: float) -> bool:
    """Start the resident process in the background (its own session, no terminal), warmed up for the store and
    model this call used. True if one was started; it steps aside by itself if another one beats it to the lock."""
    import subprocess  # only a call that ran in its own process pays for this import

    directory = runtime_dir(environ)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    except OSError:
        return False
    if not private_dir_ok(directory):
        return False
    key = fingerprint()
    if len(socket_path(environ, key).encode()) > MAX_SOCKET_PATH or _failed_lately(directory, key):
        return False
    if (sock := connect(environ, key)) is not None:
        sock.close()
        return False
    env = {**environ, "MNEMON_DAEMON_WARM": json.dumps({"argv": list(argv), "cwd": os.getcwd()})}
    # started beside this very package (`-m` puts the working directory first on the path), so it runs this code
    subprocess.Popen([sys.executable, "-m", "mnemon.interfaces.daemon.server", "--dir", directory, "--key", key,
                      "--idle", str(idle_s)], cwd=os.path.dirname(PACKAGE_DIR), stdin=subprocess.DEVNULL,
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
                     env=env)
    return True
