"""HTTP/1.0 has no Host header (RFC 1945), and health checkers send exactly `GET /api/status HTTP/1.0`: it was
refused with 400 "HTTP/1.1 requires one". Without a Host, the request is for the address it arrived on (RFC 9112
§3.3: the connection's local address), which on a loopback bind is loopback; a Host that is sent is still checked
(DNS rebinding), and HTTP/1.1 without one is still a 400."""
from __future__ import annotations

from interfaces.test_http import server  # noqa: F401 - the fixture, started for real
from interfaces.test_qa_s34_servers2 import _send, _status_and_envelope


def test_an_http_1_0_request_without_host_is_answered(server) -> None:  # noqa: F811
    port = server().server_address[1]
    status, envelope = _status_and_envelope(_send(port, b"GET /api/status HTTP/1.0\r\n\r\n"))
    assert status == 200, envelope
    head = _send(port, b"HEAD /api/status HTTP/1.0\r\n\r\n").partition(b"\r\n")[0]
    assert head.split()[1] == b"200"


def test_an_http_1_0_request_without_host_still_needs_the_token_off_loopback(server) -> None:  # noqa: F811
    port = server(loopback_only=False, token="s3cret").server_address[1]
    status, envelope = _status_and_envelope(_send(port, b"GET /api/status HTTP/1.0\r\n\r\n"))
    assert status == 401, envelope
    asked = b"GET /api/status HTTP/1.0\r\nAuthorization: Bearer s3cret\r\n\r\n"
    assert _status_and_envelope(_send(port, asked))[0] == 200


def test_an_http_1_0_request_naming_another_host_is_still_refused(server) -> None:  # noqa: F811
    port = server().server_address[1]
    status, envelope = _status_and_envelope(_send(port, b"GET /api/status HTTP/1.0\r\nHost: evil.example\r\n\r\n"))
    assert status == 403 and envelope["error"]["code"] == "forbidden_host"


def test_an_http_1_1_request_without_host_is_still_a_bad_request(server) -> None:  # noqa: F811
    port = server().server_address[1]
    status, envelope = _status_and_envelope(_send(port, b"GET /api/status HTTP/1.1\r\nConnection: close\r\n\r\n"))
    assert status == 400 and "Host" in envelope["error"]["message"]
