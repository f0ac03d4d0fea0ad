"""Where a request is addressed: its target as text, the host it names (the Host header, or an absolute-form
target's own), and whether that host is this machine's loopback; and whether a browser says another origin's page
made it."""
from __future__ import annotations

import ipaddress
import socket
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from ...core.errors import InvalidInput

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def is_loopback(host: str) -> bool:
    name = host.strip("[]").lower()  # a host name is case-insensitive (RFC 4343): "LOCALHOST" is localhost
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def unresolvable(host: str) -> str | None:
    """Why `host` (a name, not an address) names no address to listen on, or None when it names one."""
    name = host.strip("[]")
    try:
        socket.getaddrinfo(name, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:  # (a label over 63 characters fails IDNA encoding)
        return getattr(exc, "strerror", None) or str(exc)
    return None


def other_origin(headers: Mapping[str, str]) -> str | None:
    """The `Sec-Fetch-Site` of a request a browser says another origin's page made (browsers send it to loopback
    addresses too), else None: a page anywhere reached the API with requests that need no preflight, and its
    `<img src=".../api/recall?query=…">` ran a recall, counting an access on each hit and writing a log entry."""
    site = headers.get("sec-fetch-site")
    return None if site is None or site.strip(" \t").lower() in ("same-origin", "none") else site


def split_target(target: str) -> tuple[str | None, str, str]:
    """(authority, path, query) of a request target: the authority only for an absolute-form one. The origin-form
    ("/api/x?q") is split at its "?" alone (`urlsplit` reads "//api" as the host "api"). A fragment is no part of a
    target (RFC 9112 §3.2); one a client sends anyway is dropped."""
    target = target.partition("#")[0]
    if not target.startswith("/"):
        url = urlsplit(target)
        if url.scheme.lower() in ("http", "https") and url.netloc:
            return url.netloc.rpartition("@")[2], url.path or "/", url.query  # (without a "user@" part)
    path, _, query = target.partition("?")
    return None, path, query


def host_name(host: str) -> str:
    """The name in a Host header, without its port ("[::1]:8765" → "[::1]"). What follows the name must be a port:
    "127.0.0.1:abc" was read as 127.0.0.1 and answered, where RFC 9112 §3.2 says 400 for an invalid Host."""
    if host.startswith("["):
        name = host[: host.find("]") + 1] if "]" in host else host
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    port = host[len(name):]
    # RFC 3986 §3.2.3: ":" then digits, none (the default port) included; a TCP port is at most 65535
    digits = port[1:].lstrip("0")
    if port and not (port[0] == ":" and port[1:].isascii() and (port[1:] == "" or port[1:].isdigit())
                     and len(digits) <= 5 and int(digits or "0") <= 65535):
        raise InvalidInput(f"the host {host[:100]!r} has no valid port: after the name comes ':' and a port number "
                           "from 0 to 65535, or nothing")
    if not name.strip(" \t"):  # ":8765": a port without a host is no host (RFC 9110 §4.2.1: never empty)
        raise InvalidInput(f"the host {host[:100]!r} names no host before its port: Host: localhost:PORT")
    return name


def socket_authority(address: tuple[Any, ...]) -> str:
    """A socket's address (host, port, …) as a Host header names it: an IPv6 literal in brackets."""
    host, port = str(address[0]), address[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def request_target(raw: str) -> str:
    """The request target as text: http.server decodes the request line as ISO-8859-1, so a client's raw UTF-8
    ("?query=Zürich") must be decoded again, strictly: bytes that are not UTF-8 are refused, not guessed at."""
    try:
        return raw.encode("latin-1").decode("utf-8")
    except UnicodeError:
        raise InvalidInput("the request target is not UTF-8; percent-encode the UTF-8 bytes of the text") from None
