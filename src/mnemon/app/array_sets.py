"""Set operations on integer arrays by sorting, for the recall graph.

numpy's `unique` (and `union1d`, `intersect1d`, `setdiff1d`, the sort path of `isin`, which call it) looks up
`np.ma.is_masked` whenever it is asked for the values alone, and that imports the whole masked-array package:
≈ 10–15 ms of every one-shot CLI `recall`, for arrays that are never masked. These give the same arrays (same
values, dtype and order) from a sort and a comparison of neighbours.

    >>> import numpy as np
    >>> union_sorted(np.array([1, 4, 9]), np.array([4, 2, 2])).tolist()
    [1, 2, 4, 9]
    >>> contains(np.array([5, 3, 7, 3]), np.array([3, 8])).tolist()
    [False, True, False, True]
"""
from __future__ import annotations

import numpy as np


def distinct_sorted(values: np.ndarray) -> np.ndarray:
    """`np.unique(values)` of a 1-d array: its distinct values, ascending."""
    ordered = np.sort(values)
    if len(ordered) < 2:
        return ordered
    first = np.empty(len(ordered), dtype=bool)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first]


def union_sorted(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`np.union1d(a, b)` of 1-d arrays: the distinct values of both, ascending."""
    return distinct_sorted(np.concatenate((a, b)))


def contains(values: np.ndarray, members: np.ndarray) -> np.ndarray:
    """`np.isin(values, members)` of 1-d arrays: a mask along `values`, True where a value is among `members`."""
    if not len(members) or not len(values):
        return np.zeros(len(values), dtype=bool)
    ordered = np.sort(members)
    at = np.minimum(np.searchsorted(ordered, values), len(ordered) - 1)
    return ordered[at] == values
