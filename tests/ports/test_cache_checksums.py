"""The checksums of the caches saved beside a database: the word sum both files use, and the named-array file the
recall graph is saved in (`array_file.py`), which loads as no file at all when it is cut short or changed."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mnemon.ports.array_file import load_arrays, save_arrays, word_sum


def test_the_sum_of_the_parts_is_the_sum_of_the_whole_at_any_offset():
    """An append adds its own sum wherever it lands: odd widths, rows that are not whole 64-bit words."""
    data = np.random.default_rng(3).integers(0, 256, 61, dtype=np.uint8).tobytes()
    whole = word_sum(data)
    for cut in range(len(data) + 1):
        assert (word_sum(data[:cut]) + word_sum(data[cut:], cut)) % 2**64 == whole, cut
    rows = np.random.default_rng(4).standard_normal((7, 5)).astype("<f4")
    assert word_sum(rows.data.cast("B")) == word_sum(rows.tobytes() + b"\0\0\0\0")  # a partial word: zero padded
    for k in range(len(data)):
        for bit in (0, 3, 7):
            flipped = bytearray(data)
            flipped[k] ^= 1 << bit
            assert word_sum(bytes(flipped)) != whole, (k, bit)


def _saved(tmp_path: Path) -> tuple[Path, dict[str, np.ndarray]]:
    arrays = {"indptr": np.array([0, 2, 3, 3], dtype=np.int64), "dst": np.array([1, 2, 0], dtype=np.int32),
              "flag": np.array([True, False, True]), "weight": np.array([0.5, 1.0, 0.25], dtype=np.float64)}
    path = tmp_path / "m.db-graph"
    save_arrays(str(path), {"format": "test/1", "generation": [1, 2]}, arrays)
    return path, arrays


def test_saved_arrays_read_back_exactly_with_the_callers_header(tmp_path):
    path, arrays = _saved(tmp_path)
    got = load_arrays(str(path))
    assert got is not None
    head, loaded = got
    assert head == {"format": "test/1", "generation": [1, 2]}
    assert set(loaded) == set(arrays) and all(np.array_equal(loaded[k], arrays[k]) for k in arrays)


@pytest.mark.parametrize("damage", ["cut short", "a flipped bit in an array", "a zeroed array", "header changed",
                                    "the layout before checksums", "empty"])
def test_a_damaged_array_file_loads_as_none(tmp_path, damage):
    """A damaged recall-graph file used to be walked: a flipped bit in `dst` made a recall fail with an IndexError."""
    path, arrays = _saved(tmp_path)
    raw = bytearray(path.read_bytes())
    start = raw.index(b"\n") + 1
    start += -start % 8
    if damage == "cut short":
        raw = raw[:-8]
    elif damage == "a flipped bit in an array":
        raw[start + 32 + 1] ^= 0x40  # dst[0]: 1 → 16385
    elif damage == "a zeroed array":
        raw[start : start + 32] = bytes(32)
    elif damage == "header changed":
        at = raw.index(b"test/1")
        raw[at : at + 6] = b"test/2"
    elif damage == "the layout before checksums":
        body = json.loads(json.loads(raw[: raw.index(b"\n")])["body"])
        old = json.dumps({k: v for k, v in body.items() if k not in ("bytes", "sum")}).encode() + b"\n"
        old = old.ljust(len(old) + (-len(old) % 8), b" ")
        raw = bytearray(old) + raw[start:]
        assert np.array_equal(np.frombuffer(raw, dtype=np.int32, count=3, offset=len(old) + 32), arrays["dst"])
    else:
        raw = bytearray()
    path.write_bytes(bytes(raw))
    assert load_arrays(str(path)) is None


def test_a_recall_over_damaged_caches_answers_from_the_store_says_so_once_and_saves_them_anew(
        tmp_path: Path, cli_run) -> None:  # type: ignore[no-untyped-def]
    """The reported danger: a cache file damaged on disk served as vectors (a wrong recall, silently) or walked as a
    graph (an IndexError out of `recall`)."""
    db = str(tmp_path / "m.db")
    texts = ["the cat sat on the mat", "quarterly revenue grew twelve percent", "deploy the service on friday",
             "the dog chased a ball in the park"]
    for text in texts:
        assert cli_run(["--db", db, "remember", text])[0] == 0
    code, clean = cli_run(["--db", db, "recall", "cat on the mat"])
    assert code == 0 and clean["results"][0]["insight"]["content"] == texts[0]
    ids = Path(f"{db}-vectors.ids")
    token, rest = ids.read_bytes().split(b"\n", 1)
    names = rest.split(b"\0")[:-1]
    names[0], names[3] = names[3], names[0]  # the cat's row under the dog's id: well-formed, every count right
    ids.write_bytes(token + b"\n" + b"".join(n + b"\0" for n in names))
    graph = Path(f"{db}-graph")
    raw = bytearray(graph.read_bytes())
    raw[-64:] = bytes(b ^ 0x5A for b in raw[-64:])
    graph.write_bytes(bytes(raw))
    code, damaged = cli_run(["--db", db, "recall", "cat on the mat"])
    assert code == 0 and damaged["results"] == clean["results"]
    assert [w for w in damaged["warnings"] if "vector matrix" in w] == [
        "the vector matrix saved beside the database is damaged (its ids fail their checksum): read from the store "
        "instead, and saved anew when this process is done"]
    code, again = cli_run(["--db", db, "recall", "cat on the mat"])
    assert code == 0 and again["results"] == clean["results"] and "warnings" not in again
