"""The array steps of extending a recall-graph snapshot agree with their plain definitions, and its saved strings
read back as they were (hypothesis)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from mnemon.ports import graph_index
from mnemon.ports.graph_index import _pack_strings, _ranks_with, _resegment, _unpack_strings


def _plain_resegment(indptr, columns, n, clear, owner, fresh):
    """Owner by owner: its old entries unless cleared, then its fresh ones in their given order."""
    out_cols = [[] for _ in columns]
    ends = [0]
    for o in range(n):
        if o < len(indptr) - 1 and o not in set(clear.tolist()):
            for c, col in zip(out_cols, columns):
                c.extend(col[indptr[o]:indptr[o + 1]].tolist())
        for k in np.flatnonzero(owner == o).tolist():
            for c, f in zip(out_cols, fresh):
                c.append(f[k].item())
        ends.append(len(out_cols[0]))
    return ends, out_cols


@st.composite
def csr_change(draw):
    lens = draw(st.lists(st.integers(0, 4), max_size=12))
    n = len(lens) + draw(st.integers(0, 3))
    indptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    total = int(indptr[-1])
    cols = (np.array(draw(st.lists(st.integers(0, 99), min_size=total, max_size=total)), dtype=np.int32),
            np.arange(total, dtype=np.float64) / 7)
    clear = np.array(sorted(draw(st.sets(st.integers(0, max(0, len(lens) - 1)), max_size=4))) if lens else [],
                     dtype=np.int64)
    m = draw(st.integers(0, 8)) if n else 0
    owner = np.array(draw(st.lists(st.integers(0, max(0, n - 1)), min_size=m, max_size=m)), dtype=np.int64)
    fresh = (np.arange(m, dtype=np.int32) + 1000, np.arange(m, dtype=np.float64) + 0.5)
    return indptr, cols, n, clear, owner, fresh


@pytest.mark.parametrize("runs_up_to", [0, 5_000])  # the bulk way and the runs way
@settings(max_examples=150, deadline=None)
@given(change=csr_change())
def test_resegment_is_old_entries_then_fresh_ones_per_owner(change, runs_up_to):
    indptr, cols, n, clear, owner, fresh = change
    default, graph_index.RUNS_UP_TO = graph_index.RUNS_UP_TO, runs_up_to
    try:
        ends, got = _resegment(indptr, cols, n, clear, owner, fresh)
    finally:
        graph_index.RUNS_UP_TO = default
    want_ends, want = _plain_resegment(indptr, cols, n, clear, owner, fresh)
    assert ends.tolist() == want_ends
    assert [g.tolist() for g in got] == want
    assert [g.dtype for g in got] == [c.dtype for c in cols] or not len(cols[0])


@settings(max_examples=200, deadline=None)
@given(ids=st.lists(st.text("abcé", min_size=1, max_size=5), unique=True, max_size=20), data=st.data())
def test_ranks_with_new_ids_are_the_ranks_of_a_full_sort(ids, data):
    n_old = data.draw(st.integers(0, len(ids)))
    old = np.empty(n_old, dtype=np.int64)
    old[sorted(range(n_old), key=ids.__getitem__)] = np.arange(n_old)
    want = np.empty(len(ids), dtype=np.int64)
    want[sorted(range(len(ids)), key=ids.__getitem__)] = np.arange(len(ids))
    assert _ranks_with(old, ids, n_old).tolist() == want.tolist()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=3), unique=True, max_size=30),
       st.lists(st.text(min_size=1, max_size=3), max_size=40))
def test_token_codes_are_the_vocabulary_map_s_codes_with_or_without_the_map(vocab, asked):
    snap = graph_index.GraphSnapshot.empty()
    snap.vocab = list(vocab)
    want = {t: vocab.index(t) for t in asked if t in vocab}
    assert snap.token_codes(asked) == want  # many words: through the map
    fresh = graph_index.GraphSnapshot.empty()
    fresh.vocab = list(vocab)
    assert fresh.token_codes(asked[:16]) == {t: c for t, c in want.items() if t in asked[:16]}
    assert fresh._vocab_code is None, "a few words never build the whole map"


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.text(), max_size=12) | st.lists(st.sampled_from(["", "a", "é\0", "2026-01-01"]), max_size=12))
def test_saved_strings_read_back_exactly(values):
    # (a numpy string array, the format before, dropped a value's trailing NULs; repeated values are saved once)
    arrays = _pack_strings("w", values)
    assert _unpack_strings("w", dict(arrays)) == values
    saved = {k: np.frombuffer(a.tobytes(), dtype=a.dtype) for k, a in arrays.items()}  # read-only, as mapped
    assert _unpack_strings("w", saved) == values and not saved  # every array it saved taken out
