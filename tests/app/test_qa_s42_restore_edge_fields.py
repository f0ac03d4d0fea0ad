"""An export's edge row is checked the same on the fast paths a large restore takes (`backup_rows.parse_edge`):
metadata of plain ASCII text and numbers is taken as it is, anything else still encoded to find a lone surrogate;
an edge time not in mnemon's own form is normalised once and read from the cache after, a bad one refused each time."""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.backup_rows import parse_edge
from mnemon.core.errors import InvalidInput
from mnemon.core.model import iso, parse_iso

NOW = "2026-03-01T00:00:00.000000Z"
_ANY_TEXT = st.text(alphabet=st.characters(blacklist_categories=()), max_size=6)  # lone surrogates included
_VALUES = st.one_of(_ANY_TEXT, st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
                    st.lists(_ANY_TEXT, max_size=2))


def _row(**fields: Any) -> dict[str, Any]:
    return {"source_id": "a-1", "target_id": "b-2", "edge_type": "semantic", **fields}


def _encodes(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _refused_exactly_when_unstorable(meta: dict[str, Any]) -> None:
    if _encodes(meta):
        assert parse_edge(_row(metadata=meta), 0, NOW).metadata == meta
    else:
        with pytest.raises(InvalidInput, match="export edge 0: metadata holds text that is not valid Unicode"):
            parse_edge(_row(metadata=meta), 0, NOW)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_ANY_TEXT, _VALUES, max_size=3))
def test_metadata_is_refused_exactly_when_it_cannot_be_stored(meta: dict[str, Any]) -> None:
    _refused_exactly_when_unstorable(meta)


@pytest.mark.parametrize("text", ["\ud800", "caf\udce9", "ok", "café"])
def test_a_lone_surrogate_in_a_flat_metadata_value_or_key_is_refused(text: str) -> None:
    for meta in ({"reason": text}, {text: 0.5}, {"nested": {"reason": text}}):
        _refused_exactly_when_unstorable(meta)
    assert _encodes(text) == (text in ("ok", "café"))


@pytest.mark.parametrize("when", ["2026-01-05T00:00:00Z", "2026-01-05T01:00:00+01:00", "2026-01-05 00:00:00.5Z"])
def test_an_edge_time_in_another_form_is_normalised_every_time(when: str) -> None:
    want = iso(parse_iso(when))
    for _ in range(3):  # the first parse and the cached ones agree
        edge = parse_edge(_row(created_at=when, updated_at=when), 0, NOW)
        assert (edge.created_at, edge.updated_at) == (want, want)


@pytest.mark.parametrize("when", ["2026-13-05T00:00:00Z", "yesterday", "2026-02-30T00:00:00Z"])
def test_a_bad_edge_time_is_refused_every_time(when: str) -> None:
    for _ in range(2):
        with pytest.raises(InvalidInput, match="created_at .* is not an RFC 3339 timestamp"):
            parse_edge(_row(created_at=when), 0, NOW)


@pytest.mark.parametrize("field", ["sub_type", "evidence", "origin", "rule", "source_path"])
def test_edge_text_fields_are_checked_as_before(field: str) -> None:
    assert getattr(parse_edge(_row(**{field: "plain"}), 0, NOW), field) == "plain"
    assert getattr(parse_edge(_row(**{field: "café"}), 0, NOW), field) == "café"
    for bad, why in ((3, "must be a string"), (None, "must be a string"), ("x\ud800", "not valid Unicode")):
        with pytest.raises(InvalidInput, match=f"{field} .*{why}|{field} {why}"):
            parse_edge(_row(**{field: bad}), 0, NOW)
