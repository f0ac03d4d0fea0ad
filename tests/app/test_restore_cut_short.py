"""An export file cut short (an interrupted copy, a full disk, a download stopped) is refused saying so, at whatever
point it was cut, and nothing of it is written. The refusal read "import file is not valid JSON: Unterminated string
starting at at line 36" — the decoder's words with a dangling "at", and not a word that the file ends too soon.

The store restored into is `make_mem()`, so each test runs once per backend (SQLite, PostgreSQL)."""
from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput


def _export(make_mem: Callable[..., Mnemon], tmp_path: Path) -> str:
    src = make_mem("hash", db=tmp_path / "src.db")
    for text in ("The staging database moved to Frankfurt", "Deploys take 20 minutes since the move",
                 "Ana prefers morning standups"):
        src.remember(text)
    src.sense_add({"sense_type": "manual", "source_id": "p-1", "observed_at": "2026-01-02T10:00:00Z",
                   "title": "parcel", "text": "The parcel arrived"})
    return "".join(src.export_stream())


def _refusal(dst: Mnemon, text: str) -> str:
    with pytest.raises(InvalidInput) as caught:
        dst.import_json(io.StringIO(text))
    return caught.value.message


def _holds_nothing(dst: Mnemon) -> bool:
    status = dst.status()
    return status["total_insights"] == 0 and status["edge_count"] == 0 and not dst.state_list()["assertions"] \
        and not list(dst.rt.store.iter_nodes(kind=None, include_deleted=True))


CUT = re.compile(r"^import file is not valid JSON: it ends before the document does \(.+ at line \d+\): the file "
                 r"was cut short")


def test_an_export_cut_short_says_so_wherever_it_was_cut(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    text = _export(make_mem, tmp_path)
    dst = make_mem()
    inside_a_string = text.index('"content":"') + 20
    for end in (inside_a_string, text.index('"world_sense_events"') + 40, len(text) - 3, text.index("[") + 1):
        message = _refusal(dst, text[:end])
        assert CUT.match(message), message
        assert " at at " not in message
    assert _holds_nothing(dst)


def test_a_mistake_inside_the_file_is_not_called_cut_short(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    text = _export(make_mem, tmp_path)
    dst = make_mem()
    broken = text.replace('"content":"', '"content":x"', 1)
    message = _refusal(dst, broken)
    assert "cut short" not in message and message.startswith("import file is not valid JSON: Expecting value at line")
    assert _holds_nothing(dst)


def test_any_cut_is_refused_whole(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    text = _export(make_mem, tmp_path)
    dst = make_mem()

    @settings(max_examples=40)
    @given(end=st.integers(min_value=0, max_value=len(text) - 2))
    def cut_at(end: int) -> None:
        assert CUT.match(message := _refusal(dst, text[:end])), message

    cut_at()
    assert _holds_nothing(dst)


def test_a_draft_cut_short_says_so_too(make_mem: Callable[..., Mnemon]) -> None:
    dst = make_mem()
    text = json.dumps({"schema_version": "1", "insights": [{"content": "abc"}]})
    for cut in (text[:-8], text[:-1]):
        assert CUT.match(message := _refusal(dst, cut)), message
        with pytest.raises(InvalidInput) as whole:  # the same text handed over whole, not as a stream
            dst.import_json(cut)
        assert CUT.match(whole.value.message), whole.value.message
    with pytest.raises(InvalidInput) as broken:
        dst.import_json(text.replace(":", ";", 1))
    assert broken.value.message == "import file is not valid JSON: Expecting ':' delimiter at line 1"
    assert _holds_nothing(dst)


@pytest.mark.parametrize("text", ["{bad", '{"schema_version": "1", "insights": [}', "[1, 2 3]", "{\"a\": tru e}"])
def test_a_mistake_in_a_small_file_is_not_called_cut_short(cli_run, tmp_path: Path, text: str) -> None:
    """A file only a few characters long has every mistake near its end: that is no sign it was cut."""
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    code, out = cli_run(["import", str(path)])
    assert code != 0 and out["error"]["code"] == "invalid_input" and "cut short" not in out["error"]["message"]


@pytest.mark.parametrize("text", ['{"schema_version": "1", "insights": [{"content": "a"', '[{"content": "a", "x": tr',
                                  '[{"content": "a", "importance": -1.', '{"schema_version": "1", "insights": ['])
def test_a_small_file_cut_short_is_called_so(cli_run, tmp_path: Path, text: str) -> None:
    path = tmp_path / "cut.json"
    path.write_text(text, encoding="utf-8")
    code, out = cli_run(["import", str(path)])
    assert code != 0 and "cut short" in out["error"]["message"]
