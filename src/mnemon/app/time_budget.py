"""A time budget for work a user's input can make endless (a regular expression that backtracks without end)."""
from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class OutOfTime(Exception):
    """The budget is spent."""


@contextmanager
def time_budget(seconds: float) -> Iterator[Callable[[], None]]:
    """Bound the work inside the block to `seconds`: yields a check to call between steps, and on the main thread of
    a POSIX process (the CLI) also arms a timer whose signal interrupts a step that is still running — `re` looks
    for signals while it backtracks, and `(a+)+b` on 34 characters is one search that never returns, which no check
    between steps can stop. Elsewhere (another thread, Windows, a caller's own timer already running) only the check
    between steps bounds the block. Either way `OutOfTime` is raised inside the block."""
    end = time.monotonic() + seconds

    def check() -> None:
        if time.monotonic() > end:
            raise OutOfTime

    armed = (seconds > 0 and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
             and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0))
    previous: Any = None
    if armed:
        def on_alarm(_signum: int, _frame: Any) -> None:
            raise OutOfTime

        previous = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield check
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            # a handler installed from C reads back as None, which `signal.signal` does not take: the default then
            signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
