"""What a function of a text answered for the texts read last, kept by the characters of those texts: recall reads
the same memories' facts (their words, measures, cues, corrections) in recall after recall, and an `lru_cache` of
64 entries held none of them past one recall, while one of thousands bounds no memory (a memory holds up to 8,000
characters, a note's text more). Keyed by the text itself: a memory whose content changed is another key, so no
answer is ever stale."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

# what each of recall's memos keeps: the texts of a few thousand memories (~4,000 of 100-odd characters are read in
# 60 recalls of a 10k store)
RECALLED_CHARS = 1 << 19
ENTRY_CHARS = 64  # what an entry counts besides its text (a short text's answer is no smaller than this)


class TextMemo(Generic[T]):
    """`fn(text)`, remembered for the most recently used texts while their characters (and ENTRY_CHARS each) stay
    within `max_chars`; a text longer than that is answered and not kept. Safe across threads."""

    def __init__(self, fn: Callable[[str], T], max_chars: int) -> None:
        self.__wrapped__ = fn
        self.max_chars = max_chars
        self._kept: OrderedDict[str, T] = OrderedDict()
        self._chars = 0
        self._lock = threading.Lock()

    def __call__(self, text: str) -> T:
        with self._lock:
            if text in self._kept:
                self._kept.move_to_end(text)
                return self._kept[text]
        value = self.__wrapped__(text)
        cost = len(text) + ENTRY_CHARS
        if cost > self.max_chars:
            return value
        with self._lock:
            if text not in self._kept:
                self._kept[text] = value
                self._chars += cost
                while self._chars > self.max_chars:
                    dropped, _ = self._kept.popitem(last=False)
                    self._chars -= len(dropped) + ENTRY_CHARS
        return value

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._chars = 0


def text_memo(max_chars: int) -> Callable[[Callable[[str], T]], TextMemo[T]]:
    def wrap(fn: Callable[[str], T]) -> TextMemo[T]:
        return TextMemo(fn, max_chars)

    return wrap
