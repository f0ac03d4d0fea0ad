"""The CLI's JSON contract, driven through the real parser and facade with hostile values (hypothesis): every
command prints exactly one JSON document on stdout and nothing on stderr; a failure is the error envelope with a
stable code other than `internal` and a non-zero exit, a success exits 0; a refused write stores nothing."""
from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.interfaces.cli.main import main

ODD_TEXT = ["", " ", "-", "--", "\x00", "a\x00b", "\ud800", "x\udcff", "\u202e", "\t\n", "x" * 9000, "../../etc",
            "[[Lighthouse]]", "Projects/lighthouse.md", "1e309", "NaN", "null", "{}", "日本語", "🦀"]
ODD_NUMBERS = ["-1", "0", "1", "3", "99999999999999999999999", "-99999999999999999999", "1.5", "nan", "inf", "-inf",
               "1e309", "0x10", "", " 2 ", "٣"]
ODD_TIMES = ["2026-13-01", "2026-02-30", "2026-W01", "2026-001", "20260101T000000Z", "2026-01-01T00:00:00+25:00",
             "0001-01-01", "9999-12-31T23:59:59Z", "0000-01-01", "now", "2026-01-01T24:00:00Z",
             "2026-01-01t00:00:00z", " 2026-01-01 ", "2026-01-01T00:00:00 +05:30", "2025-12-31T23:59:60Z", ""]

texts = st.one_of(st.sampled_from(ODD_TEXT), st.text(max_size=40))
numbers = st.one_of(st.sampled_from(ODD_NUMBERS), st.integers(-10**30, 10**30).map(str))
floats = st.one_of(st.sampled_from(ODD_NUMBERS), st.floats(allow_nan=True, allow_infinity=True).map(repr))
times = st.one_of(st.sampled_from(ODD_TIMES), st.datetimes().map(lambda d: d.isoformat()), texts)


def _command(vault: str) -> st.SearchStrategy[list[str]]:
    return st.one_of(
        st.tuples(texts, texts, numbers, times).map(
            lambda a: ["remember", a[0], "--cat", "fact", "--tags", a[1], "--imp", a[2], "--created-at", a[3]]),
        st.tuples(texts, texts).map(lambda a: ["remember", a[0], "--cat", a[1]]),
        st.tuples(texts, numbers, texts).map(lambda a: ["recall", a[0], "--limit", a[1], "--intent", a[2]]),
        st.tuples(texts, numbers).map(lambda a: ["search", a[0], "--limit", a[1], "--excerpt-chars", a[1]]),
        st.tuples(texts, numbers).map(lambda a: ["related", a[0], "--depth", a[1]]),
        texts.map(lambda a: ["show", a]),
        st.tuples(texts, texts, floats).map(lambda a: ["link", a[0], a[1], "--weight", a[2]]),
        st.tuples(numbers, texts).map(lambda a: ["log", "--limit", a[0], "--op", a[1]]),
        st.tuples(numbers, floats).map(lambda a: ["gc", "--limit", a[0], "--threshold", a[1]]),
        st.tuples(texts, numbers, numbers, times).map(
            lambda a: ["retrieve", "--prompt", a[0], "--budget", a[1], "--max-items", a[2], "--as-of", a[3]]),
        st.tuples(times, numbers).map(lambda a: ["state", "list", "--as-of", a[0], "--limit", a[1]]),
        times.map(lambda a: ["predict", "due", "--before", a]),
        st.tuples(numbers, numbers).map(lambda a: ["graph", "--depth", a[0], "--max-nodes", a[1]]),
        st.tuples(texts, texts).map(lambda a: ["note", "read", a[0], "--vault", vault, "--heading", a[1]]),
        st.tuples(texts, numbers).map(lambda a: ["note", "search", a[0], "--vault", vault, "--limit", a[1]]),
        st.tuples(texts, texts, numbers).map(lambda a: ["alias", "add", a[0], a[1], "--confidence", a[2]]),
        texts.map(lambda a: ["--store", a, "status"]),
        texts.map(lambda a: ["export", "--out", a, "--no-vectors"]),
    )


def _run(argv: list[str], stdin_text: str = "") -> tuple[int, Any, str]:
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(stdin_text)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        sys.stdin = stdin
    text = out.getvalue()
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        pytest.fail(f"{argv!r} printed no single JSON document:\n{text[:1000]}\nstderr: {err.getvalue()[:1000]}")
    return code, doc, err.getvalue()


def _memories() -> int:
    return int(_run(["status"])[1]["total_insights"])


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_command_keeps_the_json_contract_under_hostile_values(data: st.DataObject, example_vault: Path,
                                                                    tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # an export --out lands here, never in the checkout
    argv = data.draw(_command(str(example_vault)), label="argv")
    before = _memories() if argv[0] == "remember" else None
    code, doc, err = _run(argv)
    assert err == "", f"{argv!r} wrote to stderr: {err[:500]}"
    failed = isinstance(doc, dict) and doc.get("ok") is False
    if failed:
        assert code != 0, f"{argv!r}: an error envelope with exit 0"
        assert isinstance(doc["error"]["code"], str) and isinstance(doc["error"]["message"], str)
        assert doc["error"]["message"] and doc["error"]["code"] != "internal", f"{argv!r}: {doc}"
        if before is not None:
            assert _memories() == before, f"{argv!r} was refused but stored something"
    else:
        assert code == 0, f"{argv!r}: exit {code} without an error envelope: {str(doc)[:300]}"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4), max_leaves=12)
ODD_DOCUMENTS = ["", " ", "{", "[" * 5000 + "]" * 5000, '{"a":' + "9" * 5000 + "}", '"\\ud800"', '{"a": NaN}',
                 "\ufeff{}", '{"a":1}{"b":2}', "null", "[]", "{}", '{"insights": 5}', '{"insights": [null]}',
                 '{"source_path": "mneme://x", "nodes": [{"ref": "n"}]}', '{"sense_type": "manual"}']
documents = st.one_of(st.sampled_from(ODD_DOCUMENTS), json_values.map(lambda v: json.dumps(v, allow_nan=True)),
                      st.fixed_dictionaries({}, optional={"source_path": texts, "nodes": json_values,
                                                          "insights": json_values, "sense_type": texts,
                                                          "title": texts, "edges": json_values}).map(json.dumps))
READERS = [["remember", "--payload", "-"], ["import", "-"], ["sense", "add", "--file", "-"],
           ["predict", "add", "--file", "-"], ["state", "assert", "--file", "-"], ["action", "record"],
           ["remember", "--payload", "-", "--dry-run"]]


@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(reader=st.sampled_from(READERS), doc=documents)
def test_every_json_reader_keeps_the_contract_under_hostile_documents(reader: list[str], doc: str) -> None:
    """What a --file, --payload or import reads on stdin: any JSON value, or none, nested past the parser's depth,
    numbers too long to read, NaN, a lone surrogate escape. One document out, never `internal`; a refused
    document stores no memory."""
    before = _memories()
    code, out, err = _run(reader, doc)
    assert err == "", f"{reader!r} wrote to stderr: {err[:500]}"
    if isinstance(out, dict) and out.get("ok") is False:
        assert code != 0 and out["error"]["code"] != "internal", f"{reader!r} {doc[:200]!r}: {out}"
        assert _memories() == before, f"{reader!r} refused {doc[:200]!r} but stored a memory"
    else:
        assert code == 0, f"{reader!r}: exit {code} without an error envelope: {str(out)[:300]}"
