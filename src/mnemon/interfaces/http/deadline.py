"""A request's clock: `mnemon serve` bounds each socket read (an idle kept-alive connection) and each request as a
whole (its head and body within a deadline of its first byte), so a client trickling bytes cannot hold a connection
slot for good (`server.REQUEST_DEADLINE_S`)."""
from __future__ import annotations

import io
import socket
import time
from typing import Any


class RequestDeadline(Exception):
    """The request being read did not arrive whole in time. Not a `TimeoutError`: the stdlib's handler would end the
    connection on one without a word, and the client is owed its 408."""


class ClockedReader(io.RawIOBase):
    """A connection's bytes under two clocks: each read waits at most `idle` seconds (a kept-alive connection's wait
    for its next request), and a request must be read whole within `deadline` seconds of its first byte. The
    socket's own timeout bounds one read only, so a client trickling a byte just inside it never ran out of time."""

    def __init__(self, sock: socket.socket, idle: float, deadline: float) -> None:
        super().__init__()
        self._sock, self.idle, self.deadline = sock, idle, deadline
        self.ends: float | None = None  # when the request being read must be in; None until its first byte

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        left = None if self.ends is None else self.ends - time.monotonic()
        if left is not None and left <= 0:
            raise RequestDeadline
        bounded = left is not None and left <= self.idle
        self._sock.settimeout(left if bounded else self.idle)
        try:
            n = self._sock.recv_into(buffer)
        except TimeoutError:
            if bounded:
                raise RequestDeadline from None
            raise
        finally:
            self._sock.settimeout(self.idle)  # the answer is written under the idle timeout, not what was left
        if n and self.ends is None:
            self.ends = time.monotonic() + self.deadline
        return n


__all__ = ["ClockedReader", "RequestDeadline"]
