"""Which host a request to `mnemon serve` is addressed to, read as RFC 9110/9112 say: a name in any case, the host
of an absolute-form target over its Host header, and never two Host headers; and the status each error code gets."""
from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from mnemon.core import errors
from mnemon.interfaces.http.server import STATUS_OF_CODE, Api, is_loopback, make_server, split_target

from interfaces.test_http_transport import _answer  # tests/ is on sys.path


@pytest.fixture
def port(mem) -> Iterator[int]:
    srv = make_server(Api(lambda: mem), "127.0.0.1", 0)
    srv.daemon_threads = False  # joined by server_close below
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv.server_address[1]
    srv.shutdown()
    srv.server_close()


def _get(port: int, target: str, *hosts: str, version: str = "HTTP/1.1") -> tuple[int, Any]:
    head = f"GET {target} {version}\r\n" + "".join(f"Host: {h}\r\n" for h in hosts) + "Connection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.encode())
        status, _, body = _answer(sock)
    return status, body


@pytest.mark.parametrize("host", ["LOCALHOST", "LocalHost:8765", "localhost", "127.0.0.1:1", "[::1]"])
def test_a_loopback_name_is_one_in_any_case(port: int, host: str) -> None:
    assert _get(port, "/api/status", host)[0] == 200  # DNS names are case-insensitive (RFC 4343)


def test_listening_on_a_loopback_name_in_capitals_needs_no_token() -> None:
    assert is_loopback("LOCALHOST") and is_loopback("[::1]") and not is_loopback("example.com")


def test_two_host_headers_are_refused_whichever_comes_first(port: int) -> None:
    # RFC 9112 §3.2: a request with more than one Host is answered 400; reading only the last let "evil.com" through
    for hosts in (("evil.com", "localhost"), ("localhost", "evil.com"), ("localhost", "localhost")):
        status, body = _get(port, "/api/status", *hosts)
        assert (status, body["error"]["code"]) == (400, "invalid_input"), hosts


def test_an_absolute_form_target_is_addressed_to_its_own_host(port: int) -> None:
    # RFC 9112 §3.2.2: the host of "http://evil.com/..." is evil.com, whatever the Host header says
    status, body = _get(port, "http://evil.com/api/status", "localhost")
    assert (status, body["error"]["code"]) == (403, "forbidden_host")
    assert _get(port, "http://user@evil.com/api/status", "localhost")[0] == 403
    assert _get(port, "http://localhost:1/api/status", "evil.com")[0] == 200
    assert _get(port, "HTTP://LOCALHOST/api/status?", "localhost")[0] == 200


def test_a_target_is_split_without_reading_a_path_as_a_host() -> None:
    assert split_target("//api/status?x=1#f") == (None, "//api/status", "x=1")  # urlsplit: host "api"
    assert split_target("https://u:p@Example.com:8/a?b") == ("Example.com:8", "/a", "b")
    assert split_target("http://localhost") == ("localhost", "/", "")
    assert split_target("localhost:8765") == (None, "localhost:8765", "")  # (CONNECT's form: no path, a 404)


def _codes(cls: type[errors.MnemonError]) -> Iterator[str]:
    for sub in cls.__subclasses__():
        yield sub.code
        yield from _codes(sub)


# raised only by a command no HTTP route runs (`doctor`); HttpError's class default (each refusal sets its own)
NOT_SERVED = {"doctor_failed", "error"}


def test_every_error_code_has_its_own_status() -> None:
    # a code without one fell back to 400, which tells a client its request was wrong: provider_mismatch is the
    # embedding model's vectors changing width, nothing a caller sent
    missing = sorted(set(_codes(errors.MnemonError)) - NOT_SERVED - set(STATUS_OF_CODE))
    assert missing == []
    assert STATUS_OF_CODE["provider_mismatch"] >= 500


def test_a_provider_mismatch_is_a_server_side_status(mem) -> None:
    def broken() -> Any:
        raise errors.ProviderMismatch("the store holds 384-d vectors from e5; this one has 768")

    reply = Api(broken).handle("GET", "/api/status", {"host": "localhost"}, b"")
    assert reply.status == STATUS_OF_CODE["provider_mismatch"] and b'"provider_mismatch"' in reply.body



def test_a_request_in_http_2_is_answered_505_with_a_status_line(port: int) -> None:
    # refused before the version was taken, the reply went out as to HTTP/0.9: no status line, and code "internal"
    status, body = _get(port, "/api/status", "localhost", version="HTTP/2.0")
    assert (status, body["error"]["code"]) == (505, "unsupported_http_version")


def _post(port: int, head_lines: list[str], body: bytes) -> tuple[int, Any]:
    head = ("POST /api/recall HTTP/1.1\r\nHost: localhost\r\n" + "".join(f"{h}\r\n" for h in head_lines)
            + f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.encode() + body)
        status, _, answer = _answer(sock)
    return status, answer


def test_two_authorization_or_content_type_headers_are_refused(port: int) -> None:
    """The last one won: a proxy that checked the first let another through (the token check read the last)."""
    body = b'{"query": "x"}'
    assert _post(port, ["Content-Type: application/json"], body)[0] == 200
    for lines in (["Content-Type: application/json", "Authorization: Bearer a", "Authorization: Bearer b"],
                  ["Content-Type: text/plain", "Content-Type: application/json"]):
        status, answer = _post(port, lines, body)
        assert (status, answer["error"]["code"]) == (400, "invalid_input"), lines
        assert "more than one" in answer["error"]["message"]


def test_a_body_that_is_not_utf8_is_refused(port: int) -> None:
    """JSON between systems is UTF-8 (RFC 8259 §8.1); `json.loads` of bytes also ran UTF-16 and UTF-32 bodies."""
    for encoding in ("utf-16", "utf-32"):
        status, answer = _post(port, ["Content-Type: application/json"], '{"query": "x"}'.encode(encoding))
        assert (status, answer["error"]["code"]) == (400, "invalid_input"), encoding
