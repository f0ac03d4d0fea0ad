"""`fit` decides how a coded edge row stores its metadata (coded_edges_sqlite.py); a cold ingest calls it for each of
the ~50k links, dates, emails and tags of the benchmark vault, whose JSON differs mostly by line. It now checks the
part before the line once per target and the line each time (about half the time): the answers must be exactly
what checking each JSON whole gives (`_fit`), or stored rows would read back other metadata."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.ports.store import coded_edges_sqlite as coded
from mnemon.ports.store.coded_edges_sqlite import VERBATIM, edge_metadata, fit

_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=10)
# lines as JSON writes them, and as it never does (leading zeros, other digits, signs, huge, empty)
_LINE = st.one_of(st.integers(0, 10**6).map(str), st.sampled_from(["007", "00", "", "-3", "+4", "٣", "²", "1_0",
                                                                   " 5", "9" * 30]))
_HEAD = st.one_of(
    st.builds(lambda t: json.dumps({"key": t.casefold(), "target": t}, separators=(",", ":"))[:-1], _TEXT),
    st.builds(lambda k, t: json.dumps({"key": k, "target": t}, separators=(",", ":"), ensure_ascii=False)[:-1],
              _TEXT, _TEXT),
    st.builds(lambda t: json.dumps({"text": t}, separators=(",", ":"))[:-1], _TEXT),
    st.builds(lambda t: json.dumps({"line": 1, "text": t}, separators=(",", ":"))[:-1], _TEXT),
    _TEXT)


@settings(max_examples=400, deadline=None)
@given(_HEAD, st.lists(_LINE, min_size=1, max_size=4), st.sampled_from(["}", "", "}}", " }"]))
def test_fit_answers_as_checking_the_whole_json_does(head: str, lines: list[str], end: str) -> None:
    coded._HEADS.clear()
    for line in lines:  # (the first line fills what the later ones read)
        text = f'{head},"line":{line}{end}'
        got = fit(text)
        assert got == coded._fit(text)
        assert edge_metadata(*got) == text
        if got[0] != VERBATIM:
            assert got[1] is not None and str(got[1]) == line


def test_links_to_one_target_are_checked_once_whatever_their_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    whole = coded._fit
    monkeypatch.setattr(coded, "_fit", lambda text: calls.append(text) or whole(text))
    coded._HEADS.clear()
    fitted = [fit(f'{{"key":"harbour plan","target":"Harbour Plan","line":{n}}}') for n in range(1, 200)]
    assert fitted == [("key,target,line", n, "Harbour Plan") for n in range(1, 200)]
    assert len(calls) == 1
