"""`mnemon mcp serve`: the facade as Model Context Protocol tools over stdio (JSON-RPC 2.0, one message per line).

Thin like the CLI: the tools are the shared operation table (`operations.py`, the HTTP API's routes too); each call's
arguments are checked against its schema, then one facade method runs and its payload is what the CLI prints (as
text content and as structured content). Errors come back as tool results with `isError` and the usual
envelope, so an agent sees the same codes everywhere. No SDK: the protocol surface used here is small and stable.

The server outlives any message: a line that is not JSON is answered -32700, a message that is not a JSON-RPC
request -32600, bad `params` -32602, and anything unforeseen -32603 with the request's id. Stdout carries nothing but
JSON-RPC (the process's own `sys.stdout` points at stderr while it serves), and both directions are UTF-8 whatever
the locale says, as the protocol requires.
"""
from __future__ import annotations

import contextlib
import json
import math
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import IO, Any

from ..core.errors import InvalidInput
from ..core.surface import tools
from .operations import BY_NAME, OPERATIONS, Operation, check_args, with_defaults
from .payloads import dumps, from_exception

# newest first: a client asking for one of these gets it back (the tool surface used here is the same in all three;
# `structuredContent` is one more field an older client ignores), any other version gets the newest
SUPPORTED_VERSIONS = ("2025-06-18", "2025-03-26", "2024-11-05")
PROTOCOL_VERSION = SUPPORTED_VERSIONS[0]
# read-only operations that still write: each result's access count (it feeds effective importance and keeps a
# memory from auto-pruning) and an oplog entry. A client that auto-approves read-only tools must not be told
# otherwise; tests/interfaces/test_mcp.py checks every other read-only tool leaves the database untouched.
RECORDS_ACCESS = frozenset({"recall", "search", "show"})

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32601, -32602, -32603
_NO_ID = object()  # a message without an "id" member: a notification, never answered
_BOM = "\ufeff".encode()


def tool_spec(op: Operation, *, store_read_only: bool = False) -> dict[str, Any]:
    # a read-only store counts no access: there recall, search and show change nothing
    read_only = op.read_only and (store_read_only or op.name not in RECORDS_ACCESS)
    return {"name": op.name, "description": op.description, "inputSchema": op.tool_schema(),
            "annotations": {"readOnlyHint": read_only, "destructiveHint": op.destructive,
                            "idempotentHint": read_only}}


def _error(msg_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def _valid_id(msg_id: Any) -> bool:
    """A string or a number (MCP: never null). A float that JSON cannot write back (NaN, 1e400) is no id."""
    if isinstance(msg_id, bool):
        return False
    return isinstance(msg_id, (str, int)) or (isinstance(msg_id, float) and math.isfinite(msg_id))


def handle(mem_factory: Callable[[], Any], message: Any,
           defaults: Mapping[str, Any] | None = None, *, read_only: bool = False) -> dict[str, Any] | None:
    """One JSON-RPC message in, its response out (None for notifications and for responses sent to the server).
    `defaults`: configured values of arguments a call leaves out (`operations.with_defaults`); `read_only`: the
    store was opened read-only (`--readonly`), so only the tools that read are offered."""
    if not isinstance(message, dict):
        return _error(None, INVALID_REQUEST, "invalid request: a message must be a JSON object")
    raw_id = message.get("id", _NO_ID)
    if "method" not in message and ("result" in message or "error" in message):
        return None  # a response to a request of ours (we send none): never answered
    if raw_id is not _NO_ID and not _valid_id(raw_id):
        return _error(None, INVALID_REQUEST, "invalid request: id must be a string or a number")
    msg_id = None if raw_id is _NO_ID else raw_id
    # only a valid Request without an id is a notification: anything else is answered -32600 (id null when absent)
    if message.get("jsonrpc") != "2.0":
        return _error(msg_id, INVALID_REQUEST, 'invalid request: "jsonrpc" must be "2.0"')
    method = message.get("method")
    if not isinstance(method, str):
        return _error(msg_id, INVALID_REQUEST, "invalid request: method must be a string")
    if raw_id is _NO_ID:
        return None  # notifications (initialized, cancelled) need no answer, and an erring one gets none either
    if isinstance(message, _Repeated):
        return _error(msg_id, INVALID_REQUEST, f"invalid request: {message.repeated!r} is given twice")
    params = message.get("params")
    if params is None:
        params = {}
    elif not isinstance(params, dict):
        return _error(msg_id, INVALID_PARAMS, "invalid params: params must be a JSON object")
    elif isinstance(params, _Repeated):
        return _error(msg_id, INVALID_PARAMS, f"invalid params: {params.repeated!r} is given twice")
    try:
        result = _result(mem_factory, method, params, defaults, read_only)
    except _Refused as refusal:
        return _error(msg_id, refusal.code, refusal.message)
    except Exception as exc:  # noqa: BLE001 — one message must never end the server
        return _error(msg_id, INTERNAL_ERROR, f"internal error: {type(exc).__name__}: {exc}")
    return {"jsonrpc": "2.0", "id": msg_id, "result": result}


class _Refused(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _result(mem_factory: Callable[[], Any], method: str, params: dict[str, Any],
            defaults: Mapping[str, Any] | None = None, read_only: bool = False) -> Any:
    if method == "initialize":
        asked = params.get("protocolVersion")
        version = asked if asked in SUPPORTED_VERSIONS else PROTOCOL_VERSION
        from .. import __version__  # the package's, as the OpenAPI document says it: a literal here would drift

        return {"protocolVersion": version, "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "mnemon", "version": __version__}}
    if method == "ping":
        return {}
    if method == "tools/list":
        # one page, so no cursor was ever given out: a client paging with one of its own (stale, made up) read the
        # first page again as if it were the next, and could loop for ever (MCP: an invalid cursor is -32602)
        if params.get("cursor") is not None:
            raise _Refused(INVALID_PARAMS, f"invalid params: unknown cursor {params['cursor']!r}: tools/list answers "
                                           "every tool on one page, with no nextCursor; call it without a cursor")
        # a write tool on a read-only store could only fail (`readonly`): not offered, though still answered so
        return {"tools": [tool_spec(op, store_read_only=read_only) for op in OPERATIONS
                          if op.read_only or not read_only]}
    if method != "tools/call":
        raise _Refused(METHOD_NOT_FOUND, f"method {method!r} not found")
    name = params.get("name")
    if not isinstance(name, str):
        raise _Refused(INVALID_PARAMS, "invalid params: name must be a string naming a tool")
    tool = BY_NAME.get(name)
    if tool is None:
        raise _Refused(INVALID_PARAMS, f"unknown tool {name!r}")
    args = params.get("arguments")
    # its hints and refusals name tools, not commands the agent cannot type; on a read-only store, only tools it lists
    with tools(writes=not read_only):
        return _called(mem_factory, tool, args, defaults)


def _called(mem_factory: Callable[[], Any], tool: Operation, args: Any, defaults: Mapping[str, Any] | None) -> Any:
    """One tools/call's result: the tool's payload, or its refusal as the envelope with `isError`."""
    name = tool.name
    try:
        repeated = _repeated_key(args)
        if repeated is not None:  # as the HTTP API refuses such a body (`http.server.body_args`)
            raise InvalidInput(f"{name}: the arguments give {repeated!r} twice in one object: give each key once")
        # only a missing or null `arguments` means none: `[]`, `0` or `false` are refused by check_args
        checked = check_args(tool, {} if args is None else args)
        payload = tool.call(mem_factory(), with_defaults(tool, checked, defaults))
        is_error = False
    except Exception as exc:  # the envelope, never a traceback
        payload, _ = from_exception(exc)
        is_error = True
    structured = payload if isinstance(payload, dict) else {"result": payload}
    return {"content": [{"type": "text", "text": dumps(payload)}], "structuredContent": structured,
            "isError": is_error}


class _Repeated(dict):  # type: ignore[type-arg]
    """A JSON object that gave a key twice (the last value kept, as `json` does): refused where it is read, with
    the request's id, never silently resolved (a proxy or a logger may have read the first)."""
    repeated: str


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    repeated = None
    for key, value in pairs:
        if key in out and repeated is None:
            repeated = key
        out[key] = value
    if repeated is None:
        return out
    marked = _Repeated(out)
    marked.repeated = repeated
    return marked


def _repeated_key(value: Any) -> str | None:
    """A key given twice in an object within `value`, else None (a loop: JSON nests deeper than Python recurses)."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, _Repeated):
            return item.repeated
        if isinstance(item, dict):
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return None


def answer(mem_factory: Callable[[], Any], line: bytes, defaults: Mapping[str, Any] | None = None, *,
           read_only: bool = False) -> str | None:
    """One line from the client in, the line to send back out (None: nothing to send); `read_only` as for
    `handle`."""
    # RFC 8259 §8.1 lets a parser ignore a byte order mark, and .NET's UTF-8 writers put one before the first line:
    # refused, the client's `initialize` got a -32700 without its id and the client waited for its timeout
    line = line.removeprefix(_BOM)
    try:
        message = json.loads(line.decode("utf-8"), object_pairs_hook=_object)
    except UnicodeDecodeError:
        return dumps(_error(None, PARSE_ERROR, "parse error: the message is not UTF-8"))
    # ValueError also covers an integer literal past Python's digit limit; RecursionError deep nesting
    except (ValueError, RecursionError) as exc:
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc).split(":")[0]
        return dumps(_error(None, PARSE_ERROR, f"parse error: {reason}"))
    try:
        if isinstance(message, list):
            # a batch (JSON-RPC 2.0; MCP 2025-03-26 requires receiving them): one array of answers, none if all
            # were notifications; an empty batch is itself an invalid request
            if not message:
                return dumps(_error(None, INVALID_REQUEST, "invalid request: an empty batch"))
            replies = [r for r in (handle(mem_factory, m, defaults, read_only=read_only) for m in message)
                       if r is not None]
            return dumps(replies) if replies else None
        reply = handle(mem_factory, message, defaults, read_only=read_only)
        return None if reply is None else dumps(reply)
    except Exception as exc:  # noqa: BLE001 — e.g. a result too deep to serialise; the server goes on
        msg_id = message.get("id") if isinstance(message, dict) and _valid_id(message.get("id")) else None
        return dumps(_error(msg_id, INTERNAL_ERROR, f"internal error: {type(exc).__name__}"))


def _encode(text: str) -> bytes:
    try:
        return text.encode("utf-8") + b"\n"
    except UnicodeEncodeError:  # a lone surrogate from a "\ud800" escape: written back as the escape it came as
        return json.dumps(json.loads(text), ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"


def serve(mem_factory: Callable[[], Any], stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None, *,
          defaults: Mapping[str, Any] | None = None, read_only: bool = False) -> None:
    """Answer messages from `stdin` (bytes; default the process's standard input) on `stdout` until the input
    ends or the client goes away; `defaults` and `read_only` as for `handle`."""
    if stdin is None and sys.stdin is None:  # started with its standard input closed: no client can reach it
        raise InvalidInput("standard input is closed, so no MCP message can arrive: an MCP client starts this "
                           "command and speaks on its standard input")
    if stdout is None and sys.stdout is None:  # started with `>&-`: it exited 1 without a word
        raise InvalidInput("standard output is closed, so no answer can reach the client: an MCP client reads this "
                           "command's standard output")
    sink = stdout if stdout is not None else sys.stdout.buffer
    if stdin is None and sys.stdin.isatty():  # run by hand to try it: it looked hung
        sys.stderr.write("mnemon mcp serve: waiting for MCP messages (JSON-RPC, one a line) on stdin; an MCP client "
                         "starts this command and speaks it (Ctrl-D ends it)\n")
    # anything a library prints while a tool runs would corrupt the protocol stream: it goes to stderr instead
    with contextlib.redirect_stdout(sys.stderr), _stopped_by_sigterm(stdin) as (stop, source):
        try:
            for line in source:
                if not line.strip():
                    continue
                reply = answer(mem_factory, line, defaults, read_only=read_only)
                if reply is not None:
                    sink.write(_encode(reply))
                    sink.flush()
                if stop.asked:
                    break
        except ConnectionError:  # BrokenPipeError: the client closed its end, nobody is left to answer
            if stdout is None:  # what is left in the buffer would fail again, loudly, at the interpreter's exit
                _silence_stdout()
        except OSError as exc:  # the pipes themselves failed: said on stderr, never on the protocol stream
            sys.stderr.write(f"mnemon mcp serve: stdio failed: {exc}\n")
        except KeyboardInterrupt:
            pass  # the client (or a person) stopped the server: not an error to print on the protocol stream


class _Sigterm:
    """SIGTERM as a stop, like the end of the input: killed by it, the server never closed the store, and its -wal
    and -shm files stayed beside the database. A call in flight is finished and answered first.

    The handler only takes note: it used to raise where the server waited for input, but the kernel may hand the
    signal to any thread (numpy's BLAS workers too), and then the main thread's read of stdin was never
    interrupted; it ran on when the client closed stdin, and the exception came out of the clean-up, exit 1. The
    wait for input watches a wake-up pipe that every signal writes to, whichever thread it reached."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, signum: int, frame: Any) -> None:
        self.asked = True


@contextlib.contextmanager
def _stopped_by_sigterm(stdin: IO[bytes] | None) -> Iterator[tuple[_Sigterm, Iterable[bytes]]]:
    """The stop flag, and the lines to answer: given ones as they come, the process's stdin read so that a SIGTERM
    ends the wait for the next message."""
    import os
    import signal
    import threading

    stop = _Sigterm()
    if stdin is not None:
        yield stop, stdin
        return
    if threading.current_thread() is not threading.main_thread():  # (only there can a handler be set)
        yield stop, sys.stdin.buffer
        return
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)  # (set_wakeup_fd requires it: a signal handler must never block)
    previous = signal.signal(signal.SIGTERM, stop)
    previous_wake = signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    try:
        yield stop, _stdin_lines(sys.stdin.buffer, wake_read, stop)
    finally:
        signal.set_wakeup_fd(previous_wake)
        signal.signal(signal.SIGTERM, previous)
        os.close(wake_read)
        os.close(wake_write)


def _stdin_lines(stdin: IO[bytes], wake: int, stop: _Sigterm) -> Iterator[bytes]:
    """Stdin's lines (the last one also without its newline), until its end or a SIGTERM. Raw reads of what is
    there, never a blocking read of a whole line: the wait is a `select` that the signal's byte on `wake` ends."""
    import os
    import select
    import signal

    try:
        fd = stdin.fileno()
        select.select([fd, wake], [], [], 0)
    except (OSError, ValueError):  # no descriptor (a replaced sys.stdin) or none select takes: read as it comes
        yield from stdin
        return
    head: list[bytes] = []  # the line begun and not yet ended
    while not stop.asked:
        ready, _, _ = select.select([fd, wake], [], [])
        if wake in ready:
            if signal.SIGTERM in os.read(wake, 512):  # (one byte a signal: its number)
                return
            continue  # another signal: its own handler acts (SIGINT raises KeyboardInterrupt)
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:  # (stdin left non-blocking by whoever started the process)
            continue
        if not chunk:
            break
        *ended, rest = chunk.split(b"\n")
        for part in ended:
            yield b"".join(head) + part + b"\n"
            head = []
            if stop.asked:
                return
        if rest:
            head.append(rest)
    if head and not stop.asked:
        yield b"".join(head)


def _silence_stdout() -> None:
    import os

    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
