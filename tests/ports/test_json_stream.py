"""The streaming JSON reader restores read exports with: the same values as `json.loads` for any object document cut
at any chunk size, a typed error (never a crash) for anything else, and a buffer that holds a few items, not the file."""
from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.errors import InvalidInput
from mnemon.ports import json_stream
from mnemon.ports.json_stream import ObjectStream

STREAMED = frozenset({"insights", "edges"})

_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner,
                                                                                               max_size=4),
                       max_leaves=20)
_documents = st.dictionaries(st.sampled_from(["kind", "insights", "edges", "x", "é", ""]) | st.text(), _values,
                             max_size=5)


def _parse(text: str, chunk: int, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setattr(json_stream, "CHUNK", chunk)
    out: dict[str, Any] = {}
    for key, value in ObjectStream(io.StringIO(text).read, STREAMED).members():
        out[key] = list(value) if isinstance(value, Iterator) else value
    return out


@settings(max_examples=300, deadline=None)
@given(doc=_documents, chunk=st.integers(1, 40), indent=st.sampled_from([None, 0, 2]), ascii_=st.booleans())
def test_any_object_document_reads_as_json_loads_reads_it(doc: dict[str, Any], chunk: int, indent: int | None,
                                                          ascii_: bool) -> None:
    text = json.dumps(doc, indent=indent, ensure_ascii=ascii_)
    with pytest.MonkeyPatch.context() as mp:
        assert _parse(text, chunk, mp) == json.loads(text)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60) | _documents.map(json.dumps).flatmap(
    lambda t: st.integers(0, len(t)).map(lambda cut: t[:cut])), chunk=st.integers(1, 16))
def test_any_text_is_the_same_object_or_a_typed_error(text: str, chunk: int) -> None:
    try:
        expected: Any = json.loads(text)
    except ValueError:
        expected = None
    with pytest.MonkeyPatch.context() as mp:
        if isinstance(expected, dict):
            assert _parse(text, chunk, mp) == expected
        else:
            with pytest.raises(InvalidInput):
                _parse(text, chunk, mp)


def test_an_error_names_its_line_and_stops_without_reading_the_rest() -> None:
    text = '{"insights": [\n{"a": 1},\n{"a": tru},\n' + '{"a": 2},\n' * 10_000 + '{"a": 3}]}'
    reads: list[int] = []
    source = io.StringIO(text)

    def read(n: int) -> str:
        reads.append(n)
        return source.read(n)

    with pytest.raises(InvalidInput, match="line 3"):
        for _key, value in ObjectStream(read, STREAMED).members():
            list(value)
    assert len(reads) <= 2  # one chunk (1 MB) held the mistake: the other 100 KB were never read


def test_the_buffer_holds_a_few_items_not_the_document(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(json_stream, "CHUNK", 256)
    item = {"content": "x" * 100, "vector": "A" * 200}
    text = json.dumps({"kind": "mnemon-export", "insights": [item] * 2_000, "edges": [{"w": 0.5}] * 2_000})
    stream = ObjectStream(io.StringIO(text).read, STREAMED)
    largest = 0
    count = 0
    for key, value in stream.members():
        if key in STREAMED:
            for _ in value:
                largest = max(largest, len(stream._buf))
                count += 1
    assert count == 4_000
    assert largest < 4 * len(json.dumps(item)) + 256  # ≈ 1.3 KB of a 700 KB document
