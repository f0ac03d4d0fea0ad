"""The exact vector scan: one BLAS thread for ordinary stores, the same floats as a plain product, and the
caller's BLAS thread count left as it was."""
from __future__ import annotations

import numpy as np
import pytest

from mnemon.ports import vector_index
from mnemon.ports.vector_index import _blas_threads_setter, _scan


@pytest.mark.parametrize("rows", [1, 7, 5000])
def test_scan_gives_the_plain_products_floats_and_restores_the_thread_count(rows, monkeypatch):
    rng = np.random.default_rng(rows)
    mat = rng.standard_normal((rows, 384)).astype(np.float32)
    q = rng.standard_normal(384).astype(np.float32)
    plain = mat @ q
    set_threads = _blas_threads_setter()
    before = set_threads(2) if set_threads is not None else None
    try:
        assert np.array_equal(_scan(mat, q), plain)
        monkeypatch.setattr(vector_index, "SINGLE_THREAD_SCAN_CELLS", 0)  # a large store keeps its BLAS threads
        assert np.array_equal(_scan(mat, q), plain)
        if set_threads is not None:
            assert set_threads(2) == 2
    finally:
        if set_threads is not None:
            set_threads(before)
