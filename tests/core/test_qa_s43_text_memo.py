"""The memo recall keeps of what it read of a text answers as the function does, keeps the texts read last, and
never holds more characters than its bound."""
from __future__ import annotations

import threading

from hypothesis import given, settings, strategies as st

from mnemon.core.text_memo import ENTRY_CHARS, TextMemo


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=60), st.integers(min_value=1, max_value=400))
def test_the_memo_answers_as_its_function_within_its_bound(texts: list[str], max_chars: int) -> None:
    calls: list[str] = []

    def measured(text: str) -> tuple[str, int]:
        calls.append(text)
        return text.upper(), len(text)

    memo = TextMemo(measured, max_chars)
    for text in texts:
        assert memo(text) == (text.upper(), len(text))
        assert memo._chars == sum(len(t) + ENTRY_CHARS for t in memo._kept) <= max_chars
    if texts and len(texts[-1]) + ENTRY_CHARS <= max_chars:
        before = len(calls)
        memo(texts[-1])  # (the text read last is kept)
        assert len(calls) == before


def test_the_text_read_longest_ago_goes_first() -> None:
    memo = TextMemo(len, 3 * (ENTRY_CHARS + 1))
    for text in "abc":
        memo(text)
    memo("a")  # (read again: "b" is now the oldest)
    memo("d")
    assert list(memo._kept) == ["c", "a", "d"]


def test_threads_reading_one_memo_get_their_own_answers() -> None:
    memo = TextMemo(str.upper, 40 * (ENTRY_CHARS + 4))
    wrong: list[str] = []

    def read(k: int) -> None:
        for n in range(300):
            text = f"t{(n * 7 + k) % 97}"
            if memo(text) != text.upper():
                wrong.append(text)

    threads = [threading.Thread(target=read, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong and memo._chars <= memo.max_chars
