"""The exact vector scan (each row's cosine the same floats wherever it sits) and the matrix saved beside the
database for the next process."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mnemon.core.model import Memory, content_hash, iso, utcnow
from mnemon.ports import vector_file, vector_index
from mnemon.ports.store.sqlite import SQLiteStore
from mnemon.ports.vector_index import VectorIndex, cosines


@pytest.mark.parametrize("rows", [1, 7, 5000])
def test_scan_gives_each_row_the_plain_product_and_the_same_floats_wherever_it_sits(rows):
    rng = np.random.default_rng(rows)
    mat = rng.standard_normal((rows, 384))
    mat = (mat / np.linalg.norm(mat, axis=1, keepdims=True)).astype(np.float32)
    q = mat[0]
    full = cosines(mat, q)
    assert full.dtype == np.float32 and np.allclose(full, mat @ q, rtol=0, atol=1e-6)
    for size in (1, 2, 3, 5, 9):
        rows_of = rng.integers(0, rows, size)
        assert np.array_equal(cosines(np.ascontiguousarray(mat[rows_of]), q), full[rows_of])


# ── the matrix saved beside the database ─────────────────────────────────────

PROVIDER = "test:unit:8"


def _put(store: SQLiteStore, mid: str, vec: np.ndarray) -> None:
    m = Memory(id=mid, content=f"memory {mid}", created_at=iso(utcnow()), updated_at=iso(utcnow()))
    with store.transaction():
        store.insert_node(m)
        store.put_vector(mid, PROVIDER, vec, content_hash(m.content), m.created_at)


def _unit(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(8).astype(np.float32)
    return v / np.linalg.norm(v)


def _store_with(tmp_path: Path, n: int) -> SQLiteStore:
    store = SQLiteStore(str(tmp_path / "m.db"))
    for k in range(n):
        _put(store, f"m{k}", _unit(k))
    return store


def _read(store: SQLiteStore, query: np.ndarray, k: int) -> list[tuple[str, float]]:
    """What one process does: search, then save what it read when it is done."""
    index = VectorIndex(store, PROVIDER)
    try:
        return index.search(query, k)
    finally:
        index.persist()


def test_a_new_process_maps_the_saved_matrix_instead_of_reading_every_vector(tmp_path, monkeypatch):
    store = _store_with(tmp_path, 6)
    first = _read(store, _unit(3), 3)
    assert Path(f"{store.path}-vectors").exists() and first[0][0] == "m3"

    def no_reads(*_a, **_k):
        raise AssertionError("read every vector from the store")

    monkeypatch.setattr(store, "load_vectors", no_reads)
    assert _read(store, _unit(3), 3) == first


def test_a_saved_matrix_of_another_state_is_never_used(tmp_path):
    store = _store_with(tmp_path, 4)
    _read(store, _unit(0), 1)  # saves the matrix of 4
    other = SQLiteStore(store.path)  # another process writes: a new vector, then a forget
    _put(other, "late", _unit(99))
    assert _read(store, _unit(99), 1)[0][0] == "late"
    with other.transaction():
        other.soft_delete(["late"], iso(utcnow()))
    assert "late" not in {i for i, _ in _read(store, _unit(99), 5)}
    other.close()


def test_a_process_whose_matrix_fell_behind_the_store_saves_none(tmp_path):
    store = _store_with(tmp_path, 3)
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(1), 1)
    _put(store, "new", _unit(5))  # written without telling the index (as another process would)
    index.persist()
    assert not Path(f"{store.path}-vectors").exists()


def test_a_writer_that_keeps_its_matrix_in_step_saves_the_state_after_its_writes(tmp_path, monkeypatch):
    store = _store_with(tmp_path, 3)
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(1), 1)
    m = Memory(id="new", content="memory new", created_at=iso(utcnow()), updated_at=iso(utcnow()))
    with store.transaction():
        store.insert_node(m)
        before = store.vector_generation()
        store.put_vector("new", PROVIDER, _unit(5), content_hash(m.content), m.created_at)
        index.note_write("new", _unit(5), before)
        index.persist()  # not from inside the transaction
        assert not Path(f"{store.path}-vectors").exists()
    with store.transaction():
        before = store.vector_generation()
        store.soft_delete(["m0"], iso(utcnow()))
        index.note_delete(["m0"], before)
    index.persist()
    monkeypatch.setattr(store, "load_vectors", lambda *_a: (_ for _ in ()).throw(AssertionError("read the store")))
    found = [i for i, _ in VectorIndex(store, PROVIDER).search(_unit(5), 5)]
    assert found[0] == "new" and "m0" not in found and len(found) == 3


def test_nothing_is_saved_from_inside_a_write_transaction_that_may_roll_back(tmp_path):
    store = _store_with(tmp_path, 3)
    saved = Path(f"{store.path}-vectors")
    with pytest.raises(RuntimeError):
        with store.transaction():
            _m = Memory(id="ghost", content="ghost", created_at=iso(utcnow()), updated_at=iso(utcnow()))
            store.insert_node(_m)
            store.put_vector("ghost", PROVIDER, _unit(7), content_hash("ghost"), _m.created_at)
            assert _read(store, _unit(7), 1)[0][0] == "ghost"  # its own write, not committed
            assert not saved.exists()
            raise RuntimeError("roll back")
    assert "ghost" not in {i for i, _ in _read(store, _unit(7), 5)}
    assert saved.exists()  # now saved, from the committed state


def test_a_damaged_or_foreign_saved_file_is_ignored(tmp_path):
    store = _store_with(tmp_path, 3)
    saved = Path(f"{store.path}-vectors")
    for content, damaged in ((b"", True), (b"not json\n", True),
                             (b'{"format": "mnemon-vectors/1", "provider": "x", "state": "y"}\n', False)):
        saved.write_bytes(content)
        warnings: list[str] = []
        assert VectorIndex(store, PROVIDER, warn=warnings.append).search(_unit(1), 1)[0][0] == "m1"
        assert len(warnings) == damaged, content


def test_a_read_only_store_maps_a_current_saved_matrix_and_writes_none(tmp_path, monkeypatch):
    store = _store_with(tmp_path, 3)
    store.close()
    ro = SQLiteStore(str(tmp_path / "m.db"), readonly=True)
    assert _read(ro, _unit(2), 1)[0][0] == "m2"
    assert not Path(f"{ro.path}-vectors").exists()  # a read-only open writes nothing, beside the store either
    _read(SQLiteStore(str(tmp_path / "m.db")), _unit(2), 1)
    monkeypatch.setattr(ro, "load_vectors", lambda *_a: (_ for _ in ()).throw(AssertionError("read the store")))
    assert _read(ro, _unit(2), 1)[0][0] == "m2"
    ro.close()


def test_a_write_rolled_back_after_the_index_saw_it_is_never_saved(tmp_path):
    store = _store_with(tmp_path, 3)
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(1), 1)
    with pytest.raises(RuntimeError):
        with store.transaction():
            m = Memory(id="ghost", content="ghost", created_at=iso(utcnow()), updated_at=iso(utcnow()))
            store.insert_node(m)
            before = store.vector_generation()
            store.put_vector("ghost", PROVIDER, _unit(7), content_hash("ghost"), m.created_at)
            index.note_write("ghost", _unit(7), before)
            raise RuntimeError("roll back")
    index.persist()
    assert "ghost" not in {i for i, _ in index.search(_unit(7), 5)}  # the index reloads: the store moved back
    assert "ghost" not in {i for i, _ in _read(store, _unit(7), 5)}


# ── growing the saved matrix in place ────────────────────────────────────────

def _write_through(index: VectorIndex, store: SQLiteStore, mid: str, vec: np.ndarray, *, save: bool = True) -> None:
    """What `remember` does: write the memory and its vector, tell the index, and save when done (unless the same
    process goes on)."""
    m = Memory(id=mid, content=f"memory {mid}", created_at=iso(utcnow()), updated_at=iso(utcnow()))
    with store.transaction():
        store.insert_node(m)
        before = store.vector_generation()
        store.put_vector(mid, PROVIDER, vec, content_hash(m.content), m.created_at)
        index.note_write(mid, vec, before)
    if save:
        index.persist()


def _saved_rows(store: SQLiteStore) -> tuple[int, int]:
    """(header row count, bytes of rows) of the saved matrix."""
    head = vector_file._read_header(Path(f"{store.path}-vectors").read_bytes()[: vector_file.HEAD_BYTES])
    assert head is not None
    return head["rows"], Path(f"{store.path}-vectors").stat().st_size - vector_file.HEAD_BYTES


def _no_store_reads(store: SQLiteStore, monkeypatch) -> None:
    monkeypatch.setattr(store, "load_vectors", lambda *_a: (_ for _ in ()).throw(AssertionError("read the store")))


def test_a_process_that_only_adds_memories_appends_their_rows_instead_of_rewriting_the_matrix(tmp_path, monkeypatch):
    store = _store_with(tmp_path, 5)
    _read(store, _unit(0), 1)  # saved whole: 5 rows
    saved = Path(f"{store.path}-vectors")
    inode = saved.stat().st_ino
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(0), 1)  # mapped from the saved file
    _write_through(index, store, "new1", _unit(50))
    _write_through(index, store, "new2", _unit(51))
    assert saved.stat().st_ino == inode  # grown in place, not written anew and renamed
    assert _saved_rows(store) == (7, 7 * 8 * 4)
    _no_store_reads(store, monkeypatch)
    fresh = VectorIndex(store, PROVIDER)
    assert fresh.search(_unit(51), 1)[0][0] == "new2" and len(fresh) == 7
    ids, mat, _, _ = vector_file.load(str(saved), PROVIDER, store.vector_state())  # type: ignore[misc, arg-type]
    assert ids == [f"m{k}" for k in range(5)] + ["new1", "new2"]
    assert np.array_equal(mat[6], _unit(51))


def _forget(index: VectorIndex, store: SQLiteStore, ids: list[str]) -> None:
    with store.transaction():
        before = store.vector_generation()
        store.soft_delete(ids, iso(utcnow()))
        index.note_delete(ids, before)
    index.persist()


def test_a_forget_tombstones_the_row_in_place_and_keeps_every_position(tmp_path, monkeypatch):
    store = _store_with(tmp_path, 4)
    _read(store, _unit(0), 1)
    saved = Path(f"{store.path}-vectors")
    inode = saved.stat().st_ino
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(0), 1)
    _forget(index, store, ["m1"])
    assert saved.stat().st_ino == inode and _saved_rows(store) == (4, 4 * 8 * 4), "a few bytes, not the matrix"
    _no_store_reads(store, monkeypatch)
    fresh = VectorIndex(store, PROVIDER)
    assert "m1" not in {i for i, _ in fresh.search(_unit(1), 5)} and len(fresh) == 3
    assert fresh.vector("m1") is None and fresh.vector("m2") is not None
    ids, _, _, dead = vector_file.load(str(saved), PROVIDER, store.vector_state())  # type: ignore[misc, arg-type]
    assert dead == [1] and ids[0] == "m0" and ids[2:] == ["m2", "m3"]


def test_a_memory_added_and_forgotten_in_one_process_is_saved_dead(tmp_path, monkeypatch):
    store = _store_with(tmp_path, 3)
    _read(store, _unit(0), 1)
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(0), 1)
    _write_through(index, store, "brief", _unit(77), save=False)
    _forget(index, store, ["brief"])  # one save, after both
    ids, _, _, dead = vector_file.load(f"{store.path}-vectors", PROVIDER, store.vector_state())  # type: ignore[misc, arg-type]
    assert dead == [3], "its row is saved as a tombstone, and counted as one"
    _no_store_reads(store, monkeypatch)
    fresh = VectorIndex(store, PROVIDER)
    found = [i for i, _ in fresh.search(_unit(77), 4)]
    assert len(fresh) == 3 and sorted(found) == ["m0", "m1", "m2"], "no row under a tombstone's name comes back"


def test_a_reader_whose_header_predates_a_forget_never_takes_the_tombstoned_row_for_a_live_one(tmp_path):
    """Between an appender's writes (ids tombstoned in place, the header not yet rewritten) the ids fail the old
    header's checksum: the reader waits for the appender's lock and then finds the copy of a newer state."""
    import fcntl
    import threading

    store = _store_with(tmp_path, 4)
    _read(store, _unit(0), 1)
    saved = Path(f"{store.path}-vectors")
    old_state, old_head = store.vector_state(), saved.read_bytes()[: vector_file.HEAD_BYTES]
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(0), 1)
    _forget(index, store, ["m2"])
    new_head = saved.read_bytes()[: vector_file.HEAD_BYTES]
    with saved.open("r+b") as fh:  # the appender at the moment between the ids written and the header rewritten
        fcntl.flock(fh, fcntl.LOCK_EX)
        fh.write(old_head)
        fh.flush()

        def finish() -> None:
            fh.seek(0)
            fh.write(new_head)
            fh.flush()
            fcntl.flock(fh, fcntl.LOCK_UN)

        writer = threading.Timer(0.2, finish)
        writer.start()
        assert vector_file.load(str(saved), PROVIDER, old_state) is None  # of another state by the time it looked
        writer.join()
    with saved.open("r+b") as fh:  # left so (no writer at it): the ids are not what this header counted
        fh.write(old_head)
    with pytest.raises(vector_file.Damaged, match="ids fail their checksum"):
        vector_file.load(str(saved), PROVIDER, old_state)


def test_a_changed_vector_is_appended_and_its_old_row_tombstoned(tmp_path, monkeypatch):
    store = _store_with(tmp_path, 4)
    _read(store, _unit(0), 1)
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(0), 1)
    with store.transaction():
        before = store.vector_generation()
        store.put_vector("m2", PROVIDER, _unit(90), content_hash("memory m2"), iso(utcnow()))
        index.note_write("m2", _unit(90), before)
    assert index.search(_unit(90), 1)[0] == ("m2", pytest.approx(1.0, abs=1e-6))
    index.persist()
    assert _saved_rows(store)[0] == 5
    _no_store_reads(store, monkeypatch)
    fresh = VectorIndex(store, PROVIDER)
    assert fresh.search(_unit(90), 1)[0][0] == "m2" and len(fresh) == 4
    assert np.array_equal(fresh.vector("m2"), _unit(90))  # type: ignore[arg-type]
    assert "m2" not in {i for i, c in fresh.search(_unit(2), 4) if c > 0.999}, "the old vector is gone"


def test_once_tombstones_pass_a_tenth_of_the_rows_the_matrix_is_saved_whole_without_them(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_index, "COMPACT_MIN_DEAD", 2)
    store = _store_with(tmp_path, 8)
    _read(store, _unit(0), 1)
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(0), 1)
    _forget(index, store, ["m1", "m2"])
    assert _saved_rows(store)[0] == 8  # two tombstones: still within the allowance
    _forget(index, store, ["m5"])
    assert _saved_rows(store) == (5, 5 * 8 * 4), "compacted"
    _no_store_reads(store, monkeypatch)
    fresh = VectorIndex(store, PROVIDER)
    assert {i for i, _ in fresh.search(_unit(0), 10)} == {"m0", "m3", "m4", "m6", "m7"}
    _write_through(index, store, "after", _unit(80))  # the compacting process reloads from the new file
    assert VectorIndex(store, PROVIDER).search(_unit(80), 1)[0][0] == "after"


def test_an_append_onto_a_file_another_process_replaced_saves_whole_and_stays_true(tmp_path):
    store = _store_with(tmp_path, 3)
    _read(store, _unit(0), 1)
    mine = VectorIndex(store, PROVIDER)
    mine.search(_unit(0), 1)
    other = SQLiteStore(store.path)
    _put(other, "theirs", _unit(60))  # another process writes and saves the file anew
    _read(other, _unit(60), 1)
    mine.search(_unit(0), 1)  # sees the other write: reloads
    _write_through(mine, store, "mine", _unit(61))
    found = {i for i, _ in VectorIndex(store, PROVIDER).search(_unit(0), 10)}
    assert found == {"m0", "m1", "m2", "theirs", "mine"}
    assert _saved_rows(store)[0] == 5
    other.close()


def test_while_another_process_holds_the_file_an_append_gives_way_to_a_whole_save(tmp_path):
    import fcntl

    store = _store_with(tmp_path, 3)
    _read(store, _unit(0), 1)
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(0), 1)
    with open(f"{store.path}-vectors", "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        _write_through(index, store, "new", _unit(70))
    assert _saved_rows(store)[0] == 4
    assert VectorIndex(store, PROVIDER).search(_unit(70), 1)[0][0] == "new"


def _swap_ids(ids: Path, a: int, b: int) -> None:
    """Two ids of the same length trade places: the file stays well-formed, every count right."""
    token, rest = ids.read_bytes().split(b"\n", 1)
    names = rest.split(b"\0")[:-1]
    names[a], names[b] = names[b], names[a]
    ids.write_bytes(token + b"\n" + b"".join(n + b"\0" for n in names))


DAMAGES = {  # what befell the saved files → what the reader says
    "header byte": "header fails its checksum",
    "header gone": "header is unreadable",
    "ids cut short": "ids are cut short",
    "ids swapped": "ids fail their checksum",
    "ids byte flipped": "ids fail their checksum",
    "rows cut short": "rows are cut short",
    "row bit flipped": "rows fail their checksum",
    "row zeroed": "rows fail their checksum",
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_saved_matrix_damaged_anywhere_is_read_from_the_store_with_a_warning_and_saved_anew(tmp_path, damage):
    store = _store_with(tmp_path, 4)
    _read(store, _unit(0), 1)
    saved, ids = Path(f"{store.path}-vectors"), Path(f"{store.path}-vectors.ids")
    raw = bytearray(saved.read_bytes())
    if damage == "header byte":
        at = raw.index(b'\\"dim\\": 8') + 9
        raw[at] = ord("4")  # a torn header: valid JSON, every count plausible, the checksum wrong
    elif damage == "header gone":
        raw[:64] = bytes(64)  # (a crash that left a block of zeros)
    elif damage == "ids cut short":
        ids.write_bytes(ids.read_bytes()[:-4])
    elif damage == "ids swapped":
        _swap_ids(ids, 0, 3)  # row 0 would be taken for m3's and row 3 for m0's: a wrong recall, silently
    elif damage == "ids byte flipped":
        blob = bytearray(ids.read_bytes())
        blob[-2] ^= 0x02  # "m3" → "m1": a second row under m1's name
        ids.write_bytes(bytes(blob))
    elif damage == "rows cut short":
        raw = raw[:-8]
    elif damage == "row bit flipped":
        raw[vector_file.HEAD_BYTES + 2 * 8 * 4 + 1] ^= 0x08
    else:
        raw[vector_file.HEAD_BYTES + 8 * 4 : vector_file.HEAD_BYTES + 2 * 8 * 4] = bytes(8 * 4)
    saved.write_bytes(bytes(raw))
    with pytest.raises(vector_file.Damaged, match=DAMAGES[damage]):
        vector_file.load(str(saved), PROVIDER, store.vector_state())  # type: ignore[arg-type]
    warnings: list[str] = []
    index = VectorIndex(store, PROVIDER, warn=warnings.append)
    assert [i for i, _ in index.search(_unit(2), 4)][0] == "m2" and len(index) == 4  # read from the store instead
    assert len(warnings) == 1 and DAMAGES[damage] in warnings[0] and "saved anew" in warnings[0]
    index.persist()
    assert vector_file.load(str(saved), PROVIDER, store.vector_state()) is not None  # type: ignore[arg-type]
    again: list[str] = []
    assert VectorIndex(store, PROVIDER, warn=again.append).search(_unit(2), 1)[0][0] == "m2" and not again


def test_a_saved_matrix_of_another_save_or_an_older_format_is_stale_not_damaged(tmp_path):
    """Files of two different saves (a reader between the renames of a whole save) and files an older mnemon wrote
    are copies of another moment: passed over without a warning, and replaced by the next save."""
    import json
    import zlib

    store = _store_with(tmp_path, 3)
    _read(store, _unit(0), 1)
    saved, ids = Path(f"{store.path}-vectors"), Path(f"{store.path}-vectors.ids")
    ids.write_bytes(b"0000000000000000" + ids.read_bytes()[16:])  # another save's token
    assert vector_file.load(str(saved), PROVIDER, store.vector_state()) is None  # type: ignore[arg-type]
    head = vector_file._read_header(saved.read_bytes()[: vector_file.HEAD_BYTES])
    assert head is not None
    v2 = {k: v for k, v in head.items() if k not in ("ids_crc", "rows_sum")} | {"format": "mnemon-vectors/2"}
    body = json.dumps(v2, sort_keys=True)
    second = (json.dumps({"crc": zlib.crc32(body.encode()), "body": body}).encode() + b"\n").ljust(4096, b" ")
    first = json.dumps({"format": "mnemon-vectors/1", "provider": PROVIDER, "state": head["state"]}).encode() + b"\n"
    for old in (second, first):
        saved.write_bytes(old + saved.read_bytes()[vector_file.HEAD_BYTES :])
        assert vector_file.load(str(saved), PROVIDER, store.vector_state()) is None  # type: ignore[arg-type]
        warnings: list[str] = []
        assert _read_warned(store, warnings)[0][0] == "m1" and not warnings
        state = store.vector_state()
        assert vector_file.load(str(saved), PROVIDER, state) is not None, "saved anew"  # type: ignore[arg-type]


def _read_warned(store: SQLiteStore, warnings: list[str]) -> list[tuple[str, float]]:
    index = VectorIndex(store, PROVIDER, warn=warnings.append)
    try:
        return index.search(_unit(1), 1)
    finally:
        index.persist()


def test_an_append_never_makes_a_damaged_copy_pass(tmp_path, monkeypatch):
    """Checksums are carried forward by appends, not recomputed from the files: rows damaged before an append stay
    detected after it, and ids damaged before a forget make the forget save whole instead of tombstoning them."""
    store = _store_with(tmp_path, 4)
    _read(store, _unit(0), 1)
    saved, ids = Path(f"{store.path}-vectors"), Path(f"{store.path}-vectors.ids")
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(0), 1)  # mapped from the saved copy
    raw = bytearray(saved.read_bytes())
    raw[vector_file.HEAD_BYTES + 5] ^= 0x01
    with saved.open("r+b") as fh:  # damaged in place (the same file: an append goes on with it)
        fh.write(bytes(raw))
    _write_through(index, store, "new", _unit(40))
    assert _saved_rows(store)[0] == 5, "appended"
    with pytest.raises(vector_file.Damaged, match="rows fail their checksum"):
        vector_file.load(str(saved), PROVIDER, store.vector_state())  # type: ignore[arg-type]

    store2 = _store_with(tmp_path / "two", 4)
    _read(store2, _unit(0), 1)
    saved2, ids2 = Path(f"{store2.path}-vectors"), Path(f"{store2.path}-vectors.ids")
    inode = saved2.stat().st_ino
    index2 = VectorIndex(store2, PROVIDER)
    index2.search(_unit(0), 1)
    _swap_ids(ids2, 0, 3)
    _forget(index2, store2, ["m1"])
    assert saved2.stat().st_ino != inode, "saved whole, not tombstoned into ids that fail their checksum"
    loaded = vector_file.load(str(saved2), PROVIDER, store2.vector_state())  # type: ignore[arg-type]
    assert loaded is not None and loaded[0] == ["m0", "m2", "m3"]


def test_ids_that_cannot_be_saved_leave_no_file(tmp_path):
    store = _store_with(tmp_path, 0)
    _put(store, "bad\0id", _unit(1))
    assert _read(store, _unit(1), 1)[0][0] == "bad\0id"
    assert not Path(f"{store.path}-vectors").exists()


def test_rows_at_gives_each_position_its_live_row(tmp_path):
    store = _store_with(tmp_path, 5)
    index = VectorIndex(store, PROVIDER)
    with store.transaction():
        before = store.vector_generation()
        store.soft_delete(["m2"], iso(utcnow()))
        index.note_delete(["m2"], before)
    positions = {"m4": 0, "no-vector": 1, "m2": 2, "m0": 3, "m9": 7}  # position 7 is past n: ignored
    rows = index.rows_at(positions, 5)
    assert rows.tolist()[:4] == [index._pos["m4"], -1, -1, index._pos["m0"]] and rows[4] == -1
    assert index.scores(_unit(4)).sims[rows[0]] == pytest.approx(float(_unit(4) @ _unit(4)), abs=1e-6)


def test_without_file_locks_a_process_saves_the_matrix_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_file, "fcntl", None)  # a platform without flock (Windows)
    store = _store_with(tmp_path, 3)
    _read(store, _unit(0), 1)
    index = VectorIndex(store, PROVIDER)
    index.search(_unit(0), 1)
    inode = Path(f"{store.path}-vectors").stat().st_ino
    _write_through(index, store, "new", _unit(80))
    assert _saved_rows(store)[0] == 4 and Path(f"{store.path}-vectors").stat().st_ino != inode  # written anew
    assert VectorIndex(store, PROVIDER).search(_unit(80), 1)[0][0] == "new"


def test_from_verify_rows_up_to_rows_the_rows_sum_is_left_unchecked(tmp_path):
    """The documented trade-off: where a process answers from the approximate index, summing every row would read
    the matrix the index avoids; the header, sizes and ids are still checked there."""
    store = _store_with(tmp_path, 4)
    _read(store, _unit(0), 1)
    saved = Path(f"{store.path}-vectors")
    raw = bytearray(saved.read_bytes())
    raw[vector_file.HEAD_BYTES + 3] ^= 0x01
    saved.write_bytes(bytes(raw))
    state = store.vector_state()
    assert vector_file.load(str(saved), PROVIDER, state, verify_rows_up_to=4) is not None  # type: ignore[arg-type]
    with pytest.raises(vector_file.Damaged, match="rows fail their checksum"):
        vector_file.load(str(saved), PROVIDER, state, verify_rows_up_to=5)  # type: ignore[arg-type]
    _swap_ids(Path(f"{store.path}-vectors.ids"), 0, 3)
    with pytest.raises(vector_file.Damaged, match="ids fail their checksum"):
        vector_file.load(str(saved), PROVIDER, state, verify_rows_up_to=4)  # type: ignore[arg-type]
