"""`mnemon serve`: the operation table (`interfaces/operations.py`) over HTTP, and the graph workbench page.

    GET  <mount>                 the workbench (a static page; it reads through the API below)
    GET  <mount>static/<file>    its assets
    GET  <mount>api              the operations, each with its argument schema and whether it writes
    GET  <mount>api/openapi.json the same as an OpenAPI 3.1 document
    GET  <mount>api/<name>?a=1   a read-only operation; query arguments are typed by the schema
    POST <mount>api/<name>       any operation; arguments as a JSON object body (Content-Type: application/json)
                                 (arguments come from one place: a GET's body or a POST's query string is refused)
    OPTIONS <any of these>       204 with `Allow`: the methods that path accepts (and no CORS grant)

Every answer is the JSON the CLI prints for the same call, or the error envelope with an HTTP status that matches
its code. Thin like the CLI: parse, call one facade method, serialise. Safe by default, because a memory holds what
its owner told their agents: read-only unless started with `--allow-writes`; with a token set, every API call needs
`Authorization: Bearer <token>`; bound to a loopback address it answers only requests addressed to a loopback name
(a web page elsewhere cannot reach it by rebinding a domain name to 127.0.0.1); a POST must say it carries JSON,
which a cross-site form cannot, and no CORS header is ever sent (an OPTIONS preflight from another origin gets its
`Allow` and nothing that grants it); an API request a browser marks as made by another origin's page
(`Sec-Fetch-Site`) is refused, so a cross-site `<img>` cannot run a recall either. It holds at most
`max_connections` connections at once: one more is answered 503 `too_many_connections` with `Retry-After` by the
accepting thread itself, so idle connections cannot exhaust the process's threads; a request whose head and body
have not all arrived REQUEST_DEADLINE_S after its first byte gets 408 `request_timeout` and its connection ends, so
slow clients cannot hold those slots either. A body is executed
only when all of it arrived, as one Content-Length announced it; the request
target is UTF-8 (raw or percent-encoded), never guessed at. SIGTERM or Ctrl-C stops it gracefully: no new connection,
idle ones ended, each request in flight finished (for up to SHUTDOWN_GRACE_S) before the store closes.
"""
from __future__ import annotations

import contextlib
import contextvars
import hmac
import io
import json
import re
import socket
import sys
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs, quote, unquote

from ...core.errors import InvalidInput, MnemonError, ReadOnly
from ...core.surface import tools
from ..operations import BY_NAME, OPERATIONS, Operation, check_args, with_defaults
from ..payloads import dumps, error_envelope, from_exception
from .address import (host_name, is_loopback, other_origin, request_target, socket_authority, split_target,
                      unresolvable)
from .deadline import ClockedReader, RequestDeadline
from .messages import plus_hint, transport_refusal
from .openapi import openapi

WORKBENCH = Path(__file__).with_name("workbench")
MAX_BODY = 1 << 20  # a memory or a prompt, with room to spare; an import goes through the CLI
DRAIN_LIMIT = 16 * MAX_BODY  # a refused body up to this size is read and dropped, so the client gets its 413
STATUS_OF_CODE: Mapping[str, int] = {
    "invalid_input": 400, "path_refused": 400, "unauthorized": 401, "readonly": 403, "forbidden_host": 403,
    "forbidden_origin": 403,
    "not_found": 404, "method_not_allowed": 405, "request_timeout": 408, "conflict": 409, "contract_failed": 409,
    "length_required": 411, "too_large": 413, "unsupported_media_type": 415, "provider_unavailable": 503,
    "too_many_connections": 503,
    # the embedding model answered vectors of another width than the store holds: nothing the caller sent
    "provider_mismatch": 502, "store_error": 500, "internal": 500, "unsupported_http_version": 505,
    # a worker process the call needed was killed (out of memory): nothing stored, the same call may be retried
    "aborted": 503,
    # another process's write held the store past the wait: the same call may be retried (`Retry-After`)
    "store_busy": 503,
}
CONTENT_TYPES: Mapping[str, str] = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                                    ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png",
                                    ".ico": "image/x-icon", ".json": "application/json"}
# a connection that sends nothing (or a body shorter than its Content-Length) for this long is dropped: without it
# each one holds a thread for good, and off loopback anyone could hold hundreds before any token is checked
REQUEST_TIMEOUT_S = 30.0
# ...and that bounds each read only: a client sending one byte every 29 s held its connection for good, and 64 such
# clients every slot. A request's head and body must all arrive within this long of its first byte, or it gets 408
REQUEST_DEADLINE_S = 30.0
# each connection holds a thread for as long as it stays open (an idle keep-alive one up to REQUEST_TIMEOUT_S): a
# bound, so a client opening thousands cannot exhaust the process; a browser opens ~6 per origin
MAX_CONNECTIONS = 64
LISTEN_BACKLOG = 128
# on SIGTERM (or Ctrl-C) the requests in flight get this long to finish before the process exits and the store closes
SHUTDOWN_GRACE_S = 10.0
RETRY_AFTER_S = 1
BUSY_RETRY_AFTER_S = 5  # a store another process writes to: an ingest's batch, a bulk import
CHALLENGE = 'Bearer realm="mnemon"'  # RFC 9110 §15.5.2: a 401 says which scheme it wants
_TRUE, _FALSE = frozenset({"true", "1", "yes", "on"}), frozenset({"false", "0", "no", "off"})
_OWS = " \t"  # RFC 9110 §5.6.3: the optional whitespace around a header's parts
_BOM = "\ufeff".encode()
_JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?", re.ASCII)
_T = TypeVar("_T")


class HttpError(MnemonError):
    """A refusal of the HTTP layer itself (unknown route, wrong method, body too large); `code` is set per case."""

    def __init__(self, code: str, message: str, allow: tuple[str, ...] = (),
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.allow = allow  # for a 405: the methods that would have been accepted
        self.headers = dict(headers or {})


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes
    content_type: str = "application/json; charset=utf-8"
    headers: Mapping[str, str] = field(default_factory=dict)


def normal_mount(mount: str) -> str:
    """"/mnemon" → "/mnemon/": the workbench's relative URLs resolve under it only with the slash."""
    parts = [p for p in (mount or "/").split("/") if p]
    if any(p in (".", "..") for p in parts):
        raise InvalidInput(f"--mount must be a plain path like /mnemon; got {mount!r}")
    return "/" + "".join(p + "/" for p in parts)


class Api:
    """Requests in, `Response`s out, no sockets: the request handler below is only the transport."""

    def __init__(self, mem_factory: Callable[[], Any], *, allow_writes: bool = False, mount: str = "/",
                 token: str | None = None, loopback_only: bool = True,
                 defaults: Mapping[str, Any] | None = None) -> None:
        self.mem_factory = mem_factory
        self.defaults = dict(defaults or {})  # configured values of arguments a call leaves out (`with_defaults`)
        self.allow_writes = allow_writes
        self.mount = normal_mount(mount)
        self.token = _sendable_token(token or None)
        self.loopback_only = loopback_only

    def handle(self, method: str, target: str, headers: Mapping[str, str], body: bytes) -> Response:
        return self._answer(method, target, headers, body)

    def refusal(self, method: str, target: str, headers: Mapping[str, str]) -> Response | None:
        """The answer to a request refused from its head alone, whatever body would follow (no token, a write to a
        read-only server, an unknown path, a method its path does not take), else None. Asked before a client that
        sent `Expect: 100-continue` is invited to send its body: it was invited, sent the body for nothing, and was
        refused once it had arrived."""
        reply = self._answer(method, target, headers, None)
        return reply if reply.status >= 400 else None

    def _answer(self, method: str, target: str, headers: Mapping[str, str], body: bytes | None) -> Response:
        """`body` None: the head alone, checked and never executed (`refusal`). Its hints and refusals name
        operations, not commands the caller cannot type (`core.surface.tools`)."""
        with tools(writes=self.allow_writes):
            return self._answer_as_tools(method, target, headers, body)

    def _answer_as_tools(self, method: str, target: str, headers: Mapping[str, str], body: bytes | None) -> Response:
        try:
            return self._route(method, target, headers, body)
        except Exception as exc:  # the envelope, never a traceback
            payload, _ = from_exception(exc)
            if not isinstance(exc, MnemonError):  # a bug, or the database's refusal: the operator's log gets it too
                sys.stderr.write(f"mnemon serve: {payload['error']['code']} on {method} {target}: {exc!r}\n")
            status = STATUS_OF_CODE.get(payload["error"]["code"], 400 if isinstance(exc, MnemonError) else 500)
            allow = getattr(exc, "allow", ())
            headers = {**({"Allow": ", ".join(allow)} if allow else {}), **getattr(exc, "headers", {}),
                       **({"Retry-After": str(BUSY_RETRY_AFTER_S)} if payload["error"]["code"] == "store_busy" else {})}
            return Response(status, dumps(payload).encode(), headers=headers)

    def _route(self, method: str, target: str, headers: Mapping[str, str], body: bytes | None) -> Response:
        authority, raw_path, query = split_target(target)
        # RFC 9112 §3.2.2: an absolute-form target ("http://host/path") names the host itself, over the Host header
        # RFC 9112 §3.2: 400, not a host this server refuses (an http URI's host is never empty: RFC 9110 §4.2.1)
        if authority is None and not headers.get("host", "").strip(_OWS):
            raise InvalidInput("the request has no Host header, or an empty one: HTTP/1.1 requires one (Host: "
                               "localhost:PORT)")
        host = host_name(headers.get("host", "") if authority is None else authority)
        if self.loopback_only and not is_loopback(host):
            raise HttpError("forbidden_host", "this server answers only requests addressed to localhost or a "
                                              "loopback address")
        path = _percent_decoded(unquote, raw_path)
        if target == "*" and method == "OPTIONS":  # RFC 9110 §9.3.7: the server's own capabilities
            return _options(("GET", "HEAD", "POST"))
        if path + "/" == self.mount:  # (a header is ASCII: a mount with a space or "日本" is sent percent-encoded)
            return Response(308, b"", "text/plain; charset=utf-8", {"Location": quote(self.mount)})
        if not path.startswith(self.mount):
            raise HttpError("not_found", f"nothing at {path}; the workbench is at {self.mount}")
        rest = path[len(self.mount):]
        if rest == "api" or rest.startswith("api/"):
            if (site := other_origin(headers)) is not None:  # a cross-site `<img>` ran a recall, which writes
                raise HttpError("forbidden_origin", "this API answers no request a web page on another origin made "
                                                    f"(Sec-Fetch-Site: {site[:40]!r}): only the workbench's own and "
                                                    "clients that are no browser")
            self._authorise(headers)
            name = rest[4:]
            if name in ("openapi.json", ""):
                if (options := _allow(method, ("GET", "HEAD"))) is not None:
                    return options
                if name:
                    return _json(200, openapi(self.mount, secured=self.token is not None, writes=self.allow_writes))
                return _json(200, {"ok": True, "read_only": not self.allow_writes, "operations": [
                    {"name": op.name, "description": op.description, "read_only": op.read_only,
                     "parameters": op.schema()} for op in OPERATIONS]})
            return self._call(method, name, query, headers, body)
        page = "index.html" if rest == "" else rest[len("static/"):] if rest.startswith("static/") else None
        if method == "OPTIONS":
            _static(page)  # no Allow for a page that does not exist: its 404
        return _allow(method, ("GET", "HEAD")) or _static(page)

    def _authorise(self, headers: Mapping[str, str]) -> None:
        if self.token is None:
            return
        # the scheme is case-insensitive (RFC 9110 §11.1) and the space after it may be more than one; only SP and
        # HTAB are stripped: `str.strip` would also take U+0085 and U+00A0, which are the last bytes of many UTF-8
        # characters in a header read as ISO-8859-1
        scheme, _, credentials = headers.get("authorization", "").strip(_OWS).partition(" ")
        given = _header_bytes(credentials.strip(_OWS))
        # the token as bytes too (an environment variable that is not UTF-8 keeps its own bytes), so a non-ASCII
        # token matches the bytes a client sends for it
        if not (hmac.compare_digest(given, self.token.encode("utf-8", "surrogateescape"))
                and scheme.lower() == "bearer"):
            raise HttpError("unauthorized", "this server needs `Authorization: Bearer <token>` (the token it was "
                                            "started with, MNEMON_HTTP_TOKEN)", headers={"WWW-Authenticate": CHALLENGE})

    def _call(self, method: str, name: str, query: str, headers: Mapping[str, str], body: bytes | None
              ) -> Response:
        op = BY_NAME.get(name)
        if op is None:
            raise HttpError("not_found", f"no operation {name!r}; GET {self.mount}api lists them")
        accepted = ("GET", "HEAD", "POST") if op.read_only else ("POST",)
        if method == "OPTIONS":
            return _options(accepted)
        if method in ("GET", "HEAD"):  # HEAD: the GET's status and headers (RFC 9110 §9.3.2); `_serve` drops the body
            if not op.read_only:
                raise HttpError("method_not_allowed", f"{name} writes: POST its arguments as JSON",
                                (*accepted, "OPTIONS"))
        elif method == "POST":
            if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
                raise HttpError("unsupported_media_type", "POST a JSON object with Content-Type: application/json")
            _refuse_query(query)
        else:
            raise HttpError("method_not_allowed", f"{method} is not supported; use {' or '.join(accepted)}",
                            (*accepted, "OPTIONS"))
        # before the body is read: a write is refused here whatever it carries (a bad body was invalid_input, and
        # readonly only once it parsed), as it is before a `100 Continue`
        if not op.read_only and not self.allow_writes:
            raise ReadOnly(f"{name} writes, and this server was started read-only: it takes no writes")
        if body is None:
            return _HEAD_ACCEPTED
        if method == "POST":
            args = body_args(body)
        elif body.strip():  # read off the connection and dropped, as a POST's query string was
            raise InvalidInput(f"a {method} takes its arguments in the query string, and its body would be "
                               f"ignored: put them there, or POST them as a JSON body")
        else:
            args = query_args(op, query)
        try:
            args = with_defaults(op, check_args(op, args), self.defaults)
            mem = self.mem_factory()  # (opened before serving: no two threads open it)
            with mem.one_call():
                # a HEAD gets the GET's status and headers and no body: the read's bookkeeping (accesses, a log
                # entry) would be a side effect of a request nobody reads the answer of
                with mem.unrecorded() if method == "HEAD" else contextlib.nullcontext():
                    return _json(200, op.call(mem, args))
        except InvalidInput as exc:
            raise plus_hint(exc, query if method in ("GET", "HEAD") else "") from None


def query_args(op: Operation, query: str) -> dict[str, Any]:
    """Query-string arguments typed by the operation's schema: `limit=5` is the integer 5, `brief=true` a boolean,
    `tags=a,b` (or `tags=a&tags=b`) a list. A repeated single-valued argument is refused, not silently resolved."""
    out: dict[str, Any] = {}
    for name, values in _percent_decoded(parse_qs, query, keep_blank_values=True).items():
        spec = op.properties.get(name)
        if spec is None:
            out[name] = values[-1]  # check_args names it as unknown
            continue
        kind = spec.get("type")
        if kind == "array":
            out[name] = [v for value in values for v in value.split(",") if v]
            continue
        if len(values) > 1:
            raise InvalidInput(f"{op.name}: argument {name!r} given {len(values)} times")
        out[name] = _typed(op.name, name, kind, values[0])
    return out


def _refuse_query(query: str) -> None:
    """A POST reads its arguments from the body alone: a query string beside it was dropped without a word, so
    `forget_source?dry_run=true` removed the scope it was asked only to report on."""
    given = _percent_decoded(parse_qs, query, keep_blank_values=True)
    if given:
        raise InvalidInput(f"a POST takes its arguments in the JSON body, and the query string would be ignored: move "
                           f"{', '.join(map(repr, given))} into the body")


def _percent_decoded(decode: Callable[..., _T], text: str, **options: Any) -> _T:
    """`unquote` or `parse_qs` refusing what is not UTF-8 once decoded ("%ff"), where they would put U+FFFD in its
    place and go on with a text the client never sent."""
    try:
        return decode(text, errors="strict", **options)
    except UnicodeDecodeError:
        raise InvalidInput("the request target is not UTF-8 once percent-decoded; percent-encode the UTF-8 bytes of "
                           "the text") from None


def _typed(op: str, name: str, kind: str | None, raw: str) -> Any:
    # a number as JSON writes it: `int` and `float` alone also read "1_0" as 10, " 5", "+5", "٥" (Arabic five) as 5
    # and "nan" — a typo'd id named another edge instead of being refused
    if kind in ("integer", "number"):
        try:
            if _JSON_NUMBER.fullmatch(raw):
                return json.loads(raw)  # check_args types it: 5.0 is the integer 5, 5.5 no integer
        except ValueError:
            pass  # more digits than Python converts: far past any bound
        raise InvalidInput(f"{op}: argument {name!r} must be {'an integer' if kind == 'integer' else 'a number'}; "
                           f"got {raw[:40]!r}")
    if kind == "boolean":
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise InvalidInput(f"{op}: argument {name!r} must be true or false; got {raw!r}")
    return raw


def body_args(body: bytes) -> dict[str, Any]:
    # one leading byte order mark, which RFC 8259 §8.1 lets a parser ignore (as the MCP server does): Windows tools
    # save JSON files with one, and such a body was "not JSON"
    body = body.removeprefix(_BOM)
    if not body.strip():
        return {}
    try:
        # UTF-8 only (RFC 8259 §8.1): `json.loads` of bytes also took UTF-16 and UTF-32, which a proxy or a logger
        # in front reads as other text than this server runs
        args = json.loads(body.decode("utf-8"), object_pairs_hook=_once_each)
    except _KeyTwice as exc:
        raise InvalidInput(f"the body gives {exc.key!r} twice in one object: give each key once") from None
    # ValueError: not UTF-8, not JSON, or an integer past Python's digit limit; RecursionError: nested too deep
    except (ValueError, RecursionError) as exc:
        raise InvalidInput(f"the body is not JSON: {str(exc)[:200]}") from None
    if not isinstance(args, dict):
        raise InvalidInput("the body must be a JSON object of arguments")
    return args


class _KeyTwice(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: with one given twice, `json` keeps the last and a proxy or a
    logger in front may read the first (`"dry_run": true, "dry_run": false` ran the removal), as a repeated query
    argument is refused (`query_args`)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _KeyTwice(key)
        out[key] = value
    return out


def _static(name: str | None) -> Response:
    target = None
    if name and not any(c in name for c in "/\\\0"):  # a NUL (from %00) is no file name: the OS calls raise on it
        target = (WORKBENCH / name).resolve()
    if target is None or target.parent != WORKBENCH.resolve() or not target.is_file():
        raise HttpError("not_found", f"no workbench file {name!r}" if name else "no such page")
    headers = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
    if target.suffix == ".html":
        headers["Content-Security-Policy"] = ("default-src 'self'; img-src 'self' data:; style-src 'self' "
                                              "'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'")
    return Response(200, target.read_bytes(), CONTENT_TYPES.get(target.suffix, "application/octet-stream"), headers)


def _json(status: int, payload: Any) -> Response:
    return Response(status, dumps(payload).encode())


def _allow(method: str, allowed: tuple[str, ...]) -> Response | None:
    """None when `method` is one the route takes; OPTIONS's answer (its `Allow`, nothing that grants another origin
    anything); else the 405, whose `Allow` is the same list."""
    if method == "OPTIONS":
        return _options(allowed)
    if method not in allowed:
        raise HttpError("method_not_allowed", f"{method} is not supported here; use {' or '.join(allowed)}",
                        (*allowed, "OPTIONS"))
    return None


def _options(allowed: tuple[str, ...]) -> Response:
    return Response(204, b"", headers={"Allow": ", ".join((*allowed, "OPTIONS"))})


def _sendable_token(token: str | None) -> str | None:
    """`token` if a client can send it: a header's value loses the spaces around it and cannot hold a control
    character (RFC 9110 §5.5), so a token from an environment file with a trailing space started a server that
    answered every request 401 while it announced `"auth": "token"`."""
    if token is not None and (token != token.strip(_OWS) or any(c < " " and c != "\t" or c == "\x7f"
                                                                 for c in token)):
        raise InvalidInput("the token (--token, MNEMON_HTTP_TOKEN) starts or ends with a space or holds a control "
                           "character, which no Authorization header can carry: remove them")
    return token


def _header_bytes(value: str) -> bytes:
    """A header value as the bytes sent: http.server hands it over decoded as ISO-8859-1, which maps each byte to
    the code point of its value (a value from another caller of `Api` with wider characters is taken as UTF-8)."""
    try:
        return value.encode("latin-1")
    except UnicodeEncodeError:
        return value.encode("utf-8", "surrogateescape")


def _drain(stream: Any, size: int) -> None:
    while size > 0:
        chunk = stream.read(min(size, 1 << 16))
        if not chunk:
            return
        size -= len(chunk)


def _refusal(status: int, code: str, message: str) -> Response:
    return Response(status, dumps(error_envelope(code, message)).encode())


_TOO_LARGE = _refusal(413, "too_large", f"the body must be at most {MAX_BODY} bytes")
_HEAD_ACCEPTED = Response(100, b"")  # `Api.refusal`: nothing in the head refuses the request


def content_length(values: list[str]) -> int | None:
    """The body's length from a request's Content-Length headers (0 without one); None when they are malformed or
    disagree, since then nobody knows where the body ends (RFC 9112 §6.3: refuse and close). Identical repeats, as
    two headers or as "5, 5", are one value (RFC 9110 §8.6 allows that)."""
    if not values:
        return 0
    found = {part.strip(_OWS) for value in values for part in value.split(",")}
    if len(found) != 1:
        return None
    digits = found.pop()
    if not (digits.isascii() and digits.isdigit()):  # int() would also take "+5", " 5" and "5_0"
        return None
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else DRAIN_LIMIT + 1  # (past int()'s digit limit: too large all the same)


def _handler(api: Api, request_timeout: float, request_deadline: float) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "mnemon"
        protocol_version = "HTTP/1.1"
        # set on the connection before anything is read (StreamRequestHandler.setup): an idle or stalled client is
        # dropped (quietly: `_Server.handle_error`) and its thread freed
        timeout = request_timeout

        def setup(self) -> None:
            super().setup()
            self.rfile.close()  # the stdlib's reader, replaced by one that also keeps each request's deadline
            self.clock = ClockedReader(self.connection, request_timeout, request_deadline)
            self.rfile = io.BufferedReader(self.clock)

        def handle_one_request(self) -> None:
            # each request's clock starts at its own first byte (one already buffered with the last request's starts
            # it at the next socket read: bounded all the same, by one idle wait more)
            self.clock.ends = None
            try:
                super().handle_one_request()
            except RequestDeadline:
                # its head or body still coming: 408 and close (where this request ends is unknown), which gives
                # its slot back; a client gone already gets nothing
                self.close_connection = True
                message = (f"the request did not arrive whole within {request_deadline:g} s of its first byte; "
                           "nothing was done")
                with contextlib.suppress(OSError):
                    self.wfile.write(_closing_answer(408, "Request Timeout", "request_timeout", message))
                    _drop_unread(self.connection)
            finally:
                _connections(self).set_busy(self.connection, False)  # idle again: a stop may end it now

        def parse_request(self) -> bool:
            # called once a request line has arrived: from here until its answer is written, a stop waits for it
            _connections(self).set_busy(self.connection, True)
            return super().parse_request()

        def _serve(self) -> None:
            self._send(self._reply())

        def handle_expect_100(self) -> bool:
            """`Expect: 100-continue`: a body that would be refused unread (too large, chunked, of unknown length) is
            refused before it is invited (a client waits for the 100 to send it; one over the limit was invited,
            read and dropped, up to DRAIN_LIMIT bytes, before the 413; a chunked one met a closed connection)."""
            refusal, _ = self._unread_refusal()
            if refusal is None:  # ...and one refused whatever it is (no token, a write to a read-only server)
                head = self._head()
                refusal = head if isinstance(head, Response) else api.refusal(self.command, *head)
            if refusal is not None:
                self.close_connection = True
                self._send(refusal)
                return False
            return super().handle_expect_100()

        def _unread_refusal(self) -> tuple[Response | None, int]:
            """The refusal of a body this server will not read, known from the request's head alone; and the body's
            length (0 when unknown)."""
            # every Transfer-Encoding header, not the first: "gzip" then "chunked" as two headers left the chunked
            # body in the stream, read as the next request (a proxy that honoured it saw one request, this two)
            codings = ",".join(self.headers.get_all("Transfer-Encoding") or []).lower()
            if "chunked" in codings:  # not read: left in the stream it would be parsed as the next request
                return _refusal(411, "length_required", "send the body with a Content-Length (chunked bodies are "
                                                        "not read)"), 0
            if codings.strip(_OWS + ","):
                # RFC 9112 §6.3: a coding without chunked last leaves the body's length unknown, so 400 and close
                return _refusal(400, "invalid_input", "a Transfer-Encoding is not read: send the body as it is, "
                                                      "with a Content-Length"), 0
            size = content_length(self.headers.get_all("Content-Length") or [])
            if size is None:
                return _refusal(400, "invalid_input", "bad Content-Length: one decimal length, stated once (or "
                                                      "repeated unchanged)"), 0
            return _TOO_LARGE if size > MAX_BODY else None, size

        def _send(self, reply: Response) -> None:
            if _connections(self).stopping:  # the server is stopping: this answer is the connection's last
                self.close_connection = True
            self.send_response(reply.status)
            if reply.status != 204:  # RFC 9110 §8.6: a 204 has no content and says no length
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Content-Length", str(len(reply.body)))
            for key, value in reply.headers.items():
                self.send_header(key, value)
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(reply.body)

        def _reply(self) -> Response:
            """The answer, or the transport's refusal of a request whose body cannot be read as what it claims
            (after which the connection closes: where the next request would start is unknown)."""
            refusal, size = self._unread_refusal()
            if refusal is not None:
                self.close_connection = True
                if refusal is _TOO_LARGE and size <= DRAIN_LIMIT:
                    _drain(self.rfile, size)  # a client still sending would see a reset instead of the answer
                return refusal
            try:
                body = self.rfile.read(size) if size else b""
            except TimeoutError:
                self.close_connection = True
                return _refusal(400, "invalid_input", f"the body did not arrive within {request_timeout:g} s; "
                                                      "nothing was done")
            if len(body) < size:  # the client closed its side early: a truncated body is never executed
                self.close_connection = True
                return _refusal(400, "invalid_input", f"the body ended after {len(body)} of the {size} bytes its "
                                                      "Content-Length announced; nothing was done")
            head = self._head()
            return head if isinstance(head, Response) else api.handle(self.command, *head, body)

        def _head(self) -> Response | tuple[str, dict[str, str]]:
            """The request's target and headers (lower-case names) as `Api` takes them, or their refusal."""
            for name in ("Host", "Authorization", "Content-Type"):
                if len(self.headers.get_all(name) or []) > 1:
                    # RFC 9112 §3.2 says 400 for Host: the dict below keeps only the last one, which the loopback
                    # or token check would read while a proxy in front may have read the first
                    return _refusal(400, "invalid_input", f"more than one {name} header")
            try:
                target = request_target(self.path)
            except InvalidInput as exc:
                return _refusal(400, "invalid_input", str(exc))
            headers = {k.lower(): v for k, v in self.headers.items()}
            if self.request_version == "HTTP/1.0" and "host" not in headers:
                # HTTP/1.0 has no Host (a health checker's request): it is for the address the connection came to,
                # RFC 9112 §3.3 — loopback on a loopback bind; a browser (DNS rebinding) always sends a Host
                headers["host"] = socket_authority(self.connection.getsockname())
            return target, headers

        def __getattr__(self, name: str) -> Any:
            if name.startswith("do_"):  # every method, known or not (QUERY, TRACE…): the API answers 405 itself
                return self._serve
            raise AttributeError(name)

        def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
            """The transport's own refusals (a malformed request line, headers too long) as the envelope too."""
            if code == 505:
                # the request line named HTTP/2 or later: refused before the version was taken, so the reply went
                # out without a status line (as to HTTP/0.9); answered as the HTTP/1.1 this server speaks
                self.request_version = "HTTP/1.1"
            name = "unsupported_http_version" if code == 505 else "invalid_input" if code < 500 else "internal"
            body = dumps(error_envelope(name, transport_refusal(code, message, explain))).encode()
            self.send_response(code)  # the status's own phrase: http.server gave 431 "Line too long"
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            if self.command != "HEAD" and code >= 200 and code not in (204, 304):
                self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's signature
            """Quiet: the server's stdout is its one JSON document and a request log is not a user's business."""

    return Handler


def _connections(handler: BaseHTTPRequestHandler) -> "_Server":
    return handler.server  # type: ignore[return-value]  # `make_server` pairs the handler with a `_Server` only


class _Server(ThreadingHTTPServer):
    daemon_threads = True  # a handler still running when a stop's grace ends must not keep the process alive
    # the kernel's queue of connections not yet accepted: the default 5 overflows on a burst of clients while the
    # accepting thread is busy (on Linux a client waits a 1-3 s SYN retry; elsewhere it gets a reset)
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, address: Any, handler: type[BaseHTTPRequestHandler], max_connections: int) -> None:
        self.max_connections = max_connections
        self._slots = threading.BoundedSemaphore(max_connections)
        self._open: dict[Any, bool] = {}  # each connection being served → is a request of it in flight
        self._changed = threading.Condition()
        self.stopping = False
        # a thread starts with no context of its own: each request runs in the one the server was made in, so its
        # replies suggest commands as the command line that started it would (the program run, `--store v`: one
        # copy a request, as a context cannot be entered by two threads at once)
        self._context = contextvars.copy_context()
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        """A thread for the connection while fewer than `max_connections` are open; else the 503, written here by
        the accepting thread without waiting (so no thread is spent on a connection that could only wait)."""
        if not self._slots.acquire(blocking=False):
            _refuse(request, self.max_connections)
            return
        with self._changed:  # registered here, not in its thread: once `shutdown` returns, a stop sees them all
            self._open[request] = False
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._forget(request)  # no thread started: nothing else would give the slot back
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        self._context.copy().run(self._serve_request, request, client_address)

    def _serve_request(self, request: Any, client_address: Any) -> None:
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self._forget(request)  # before the close: a client that saw its connection end finds the slot free
            self.shutdown_request(request)

    def _forget(self, request: Any) -> None:
        self._slots.release()
        with self._changed:
            self._open.pop(request, None)
            self._changed.notify_all()

    def set_busy(self, request: Any, busy: bool) -> None:
        with self._changed:
            if request in self._open:
                self._open[request] = busy
                if not busy and self.stopping:
                    _end_reading(request)  # answered: no further request is read from it

    def finish_requests(self, grace: float) -> bool:
        """After `shutdown`: end the idle connections at once, let those with a request in flight finish it (each
        answer says `Connection: close`) for up to `grace` seconds, then cut what is left. True when nothing was
        cut. A request whose line arrived is in flight even while its body is still coming."""
        with self._changed:
            self.stopping = True
            for request, busy in self._open.items():
                if not busy:
                    _end_reading(request)  # its handler, waiting for a next request line, reads the end and stops
            finished = self._changed.wait_for(lambda: not self._open, timeout=grace)
            for request in self._open:
                with contextlib.suppress(OSError):
                    request.shutdown(socket.SHUT_RDWR)
        return finished

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away (closed, reset, timed out) is no error of ours: no traceback on stderr for it;
        anything else is one line for the operator's log, never a traceback."""
        exc = sys.exc_info()[1]
        if isinstance(exc, (ConnectionError, TimeoutError)):
            return
        sys.stderr.write(f"mnemon serve: request from {client_address} failed: {exc!r}\n")


def _end_reading(request: socket.socket) -> None:
    with contextlib.suppress(OSError):  # (the client may have closed it already)
        request.shutdown(socket.SHUT_RD)  # wakes a thread blocked reading it, which then sees the end


class _Server6(_Server):
    address_family = socket.AF_INET6


def _closing_answer(status: int, phrase: str, code: str, message: str, extra: str = "") -> bytes:
    """A whole answer with the error envelope, written on a connection about to close (`extra`: header lines)."""
    body = dumps(error_envelope(code, message)).encode()
    head = (f"HTTP/1.1 {status} {phrase}\r\nContent-Type: application/json; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\n{extra}Connection: close\r\n\r\n")
    return head.encode() + body


def _drop_unread(request: socket.socket) -> None:
    """Read and drop, without waiting, what the client already sent: closing on unread bytes would reset the
    connection, and the client might lose the answer written just before."""
    try:
        request.setblocking(False)
        for _ in range(16):
            if not request.recv(1 << 16):
                break
    except OSError:  # BlockingIOError: nothing (more) to read; anything else: the client is gone
        pass


def _refuse(request: socket.socket, limit: int) -> None:
    """503 with the envelope on a connection over the bound, then closed. Never blocks the accepting thread: the
    answer fits an empty send buffer, and what the client already sent is dropped first (`_drop_unread`)."""
    answer = _closing_answer(503, "Service Unavailable", "too_many_connections",
                             f"this server holds at most {limit} connections at once; try again in {RETRY_AFTER_S} s",
                             f"Retry-After: {RETRY_AFTER_S}\r\n")
    try:
        request.setblocking(False)
        request.send(answer)
        _drop_unread(request)
    except OSError:  # the client is gone
        pass
    finally:
        with contextlib.suppress(OSError):
            request.shutdown(socket.SHUT_WR)
        request.close()


def make_server(api: Api, host: str, port: int, *, timeout: float = REQUEST_TIMEOUT_S,
                deadline: float = REQUEST_DEADLINE_S, max_connections: int = MAX_CONNECTIONS) -> _Server:
    # an IPv6 literal ("::1", "[::1]") needs an IPv6 socket; a name stays on IPv4, as before ("localhost" may resolve
    # to ::1 first, and a client that tries 127.0.0.1 would then find nothing)
    name = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if max_connections < 1:
        raise InvalidInput(f"max_connections must be at least 1; got {max_connections}")
    cls = _Server6 if ":" in name else _Server
    try:
        return cls((name, port), _handler(api, timeout, deadline), max_connections)
    except OSError as exc:
        raise InvalidInput(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(mem_factory: Callable[[], Any], *, host: str, port: int, mount: str = "/", allow_writes: bool = False,
          token: str | None = None, no_auth: bool = False, announce: Callable[[dict[str, Any]], None],
          max_connections: int = MAX_CONNECTIONS, defaults: Mapping[str, Any] | None = None) -> None:
    """Listen, `announce` where (one JSON document), then answer until SIGINT or SIGTERM.

    Off the loopback interface the memory is reachable by the network: that needs a token, or `no_auth` from a
    person who put their own authenticating proxy in front."""
    import signal

    loopback = is_loopback(host)
    if not loopback and (why := unresolvable(host)) is not None:  # a typo'd name: not a question of tokens
        raise InvalidInput(f"cannot listen on {host}: the name does not resolve to an address ({why})")
    if token and no_auth:  # it started with the token required, and the proxy's requests were answered 401
        raise InvalidInput("--no-auth asks for no token, and one is given (--token or MNEMON_HTTP_TOKEN): leave out "
                           "one of them")
    if not loopback and not token and not no_auth:
        raise InvalidInput(f"listening on {host} exposes this memory to the network: set MNEMON_HTTP_TOKEN (or "
                           "--token), or pass --no-auth when a proxy in front of it authenticates")
    api = Api(mem_factory, allow_writes=allow_writes, mount=mount, token=token, loopback_only=loopback,
              defaults=defaults)
    mem_factory()  # open the store now: a missing or foreign database is the command's error, not the first call's
    server = make_server(api, host, port, max_connections=max_connections)

    def stop(*_: Any) -> None:
        threading.Thread(target=server.shutdown, daemon=True).start()  # shutdown() waits for serve_forever

    # before the ready line: a SIGTERM sent as soon as a supervisor reads it stops the server, never kills it (a
    # stop asked before serve_forever runs makes it return at once)
    signal.signal(signal.SIGTERM, stop)
    bound_host, bound_port = server.server_address[:2]
    named = bound_host.decode() if isinstance(bound_host, bytes) else str(bound_host)
    shown = f"[{named}]" if ":" in named else named
    mount = quote(api.mount)  # a URL to paste into a browser: percent-encoded like the redirect
    announce({"ok": True, "url": f"http://{shown}:{bound_port}{mount}", "api": f"http://{shown}:{bound_port}"
              f"{mount}api", "read_only": not allow_writes, "auth": "token" if token else "none",
              "operations": [op.name for op in OPERATIONS if allow_writes or op.read_only]})

    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()  # no new connection: a client trying one is refused at once, not left waiting
        # the caller closes the store when this returns: not while a handler still uses it
        if not server.finish_requests(SHUTDOWN_GRACE_S):
            sys.stderr.write(f"mnemon serve: stopped with requests still running after {SHUTDOWN_GRACE_S:g} s; "
                             "their connections were cut (an unfinished write is rolled back)\n")


__all__ = ["Api", "HttpError", "Response", "WORKBENCH", "body_args", "is_loopback", "make_server", "normal_mount",
           "openapi", "query_args", "serve", "split_target"]
