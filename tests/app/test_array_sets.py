"""The recall graph's sort-based set operations give exactly numpy's arrays (values, dtype, order)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, strategies as st

from mnemon.app.array_sets import contains, distinct_sorted, union_sorted

ints = st.lists(st.integers(min_value=-2**40, max_value=2**40), max_size=300)
small_ints = st.lists(st.integers(min_value=0, max_value=30), max_size=300)


def _same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want)


@given(st.one_of(ints, small_ints), st.sampled_from([np.int64, np.int32]))
def test_distinct_sorted_is_numpy_unique(values: list[int], dtype: type) -> None:
    a = np.array(values, dtype=np.int64).astype(dtype)
    _same(distinct_sorted(a.copy()), np.unique(a))


@given(st.one_of(ints, small_ints), st.one_of(ints, small_ints))
def test_union_sorted_is_numpy_union1d(a: list[int], b: list[int]) -> None:
    x, y = np.array(a, dtype=np.int64), np.array(b, dtype=np.int64)
    _same(union_sorted(x, y), np.union1d(x, y))


@given(st.one_of(ints, small_ints), st.one_of(ints, small_ints))
def test_contains_is_numpy_isin(values: list[int], members: list[int]) -> None:
    x, y = np.array(values, dtype=np.int64), np.array(members, dtype=np.int64)
    _same(contains(x, y), np.isin(x, y))


def test_union_leaves_its_inputs_untouched() -> None:
    seen, new = np.array([9, 1, 4], dtype=np.int64), np.array([4, 2], dtype=np.int64)
    assert union_sorted(seen, new).tolist() == [1, 2, 4, 9]
    assert seen.tolist() == [9, 1, 4] and new.tolist() == [4, 2]
