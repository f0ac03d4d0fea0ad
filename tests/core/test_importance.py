"""Effective importance: base × access × 30-day half-life × edge boost; immunity."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.core.importance import effective_importance, is_immune
from mnemon.core.model import iso

NOW = datetime(2026, 6, 1, tzinfo=timezone.utc)


def ei(imp: int = 3, access: int = 0, days: float = 0.0, edges: int = 0) -> float:
    return effective_importance(imp, access, iso(NOW - timedelta(days=days)), edges, NOW)


def test_base_values_by_importance() -> None:
    assert [ei(i) for i in (1, 2, 3, 4, 5)] == pytest.approx([0.15, 0.3, 0.5, 0.8, 1.0])


def test_thirty_day_half_life() -> None:
    assert ei(5, days=30) == pytest.approx(0.5)
    assert ei(5, days=60) == pytest.approx(0.25)


def test_access_boost_is_logarithmic_and_never_below_one() -> None:
    assert ei(3, access=1) == ei(3, access=0)  # ln(2) < 1
    assert ei(3, access=10) == pytest.approx(0.5 * __import__("math").log1p(10))


def test_edge_boost_caps_at_five_edges() -> None:
    assert ei(3, edges=1) == pytest.approx(0.55)
    assert ei(3, edges=5) == pytest.approx(0.75)
    assert ei(3, edges=50) == ei(3, edges=5)


def test_future_timestamps_do_not_inflate() -> None:
    assert ei(3, days=-10) == ei(3, days=0)


def test_immunity() -> None:
    assert is_immune(4, 0) and is_immune(5, 0) and is_immune(1, 3)
    assert not is_immune(3, 2)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.integers(0, 1000), st.floats(0, 3650), st.integers(0, 100))
def test_monotone_in_age_and_positive(imp: int, access: int, days: float, edges: int) -> None:
    now_v, later_v = ei(imp, access, days, edges), ei(imp, access, days + 1, edges)
    assert 0.0 < later_v <= now_v
    assert ei(imp, access, days, edges + 1) >= now_v
