"""`mnemon export` of a big store as gzip, and `mnemon import` of it as it is.

A 50k-memory store exports to ≈ 900 MB of JSON (≈ 20 times less as gzip), and `mnemon import backup.json.gz` answered
"import file is not UTF-8 text": a user had to gunzip to a temporary file of the full size first. `export --out
NAME.gz` (or `--gzip`, also to stdout) now writes gzip as it reads the store, `import` reads gzip whatever the file's
name (by its first bytes, a pipe too), and a gzip file cut short or damaged is `invalid_input` saying so, with
nothing of it written, in a dry run too."""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app import backup, transfer
from mnemon.ports import json_stream

from conftest import SRC

CliRun = Callable[..., tuple[int, Any]]


def _store(cli_run: CliRun) -> None:
    for text in ("the harbour crane was serviced on Monday by Mira", "Mira ordered new cables for the harbour crane",
                 "the ferry schedule changed because of the tide tables", "Tom checked the tide tables with Mira"):
        assert cli_run(["remember", text, "--entities", "Mira"])[0] == 0
    claim = {"subject": "Mira", "predicate": "works_at", "object": "Harbour", "confidence": 0.9,
             "certainty": "confirmed", "source_path": "mneme://r/mira"}
    assert cli_run(["state", "assert", "--file", "-"], input=json.dumps(claim))[0] == 0


def _without_time(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in doc.items() if k != "exported_at"}


def _memories(cli_run: CliRun, store: str) -> int:
    code, status = cli_run(["--store", store, "status"])
    assert code == 0
    return int(status["nodes_by_kind"].get("memory", 0))


def _proc(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH", "")]))}
    return subprocess.run([sys.executable, "-m", "mnemon", *args], input=stdin, capture_output=True, env=env,
                          timeout=120)


def test_export_out_gz_writes_gzip_of_the_same_document(cli_run: CliRun, tmp_path: Path) -> None:
    _store(cli_run)
    plain, packed, forced = tmp_path / "b.json", tmp_path / "b.json.gz", tmp_path / "forced.json"
    code, said = cli_run(["export", "--out", plain])
    assert code == 0 and said["gzip"] is False
    code, said = cli_run(["export", "--out", packed])
    assert code == 0 and said["gzip"] is True and said["bytes"] == packed.stat().st_size
    assert packed.read_bytes()[:2] == b"\x1f\x8b"
    code, said = cli_run(["export", "--gzip", "--out", forced])  # any name, when asked
    assert code == 0 and said["gzip"] is True and forced.read_bytes()[:2] == b"\x1f\x8b"
    expected = _without_time(json.loads(plain.read_text(encoding="utf-8")))
    for path in (packed, forced):
        assert _without_time(json.loads(gzip.decompress(path.read_bytes()))) == expected
    assert packed.stat().st_size < plain.stat().st_size / 2


def test_import_reads_gzip_whatever_its_name_and_the_dry_run_says_the_same(cli_run: CliRun, tmp_path: Path) -> None:
    _store(cli_run)
    plain, packed = tmp_path / "b.json", tmp_path / "renamed.json"  # gzip under a plain name: read by its bytes
    assert cli_run(["export", "--out", plain])[0] == 0
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    for name in ("a", "b"):
        assert cli_run(["store", "create", name])[0] == 0
    code, dry_plain = cli_run(["--store", "a", "import", plain, "--dry-run"])
    assert code == 0
    code, dry_packed = cli_run(["--store", "b", "import", packed, "--dry-run"])
    assert code == 0 and dry_packed == dry_plain
    assert dry_packed["would_import"] == 4 and dry_packed["world"]
    code, done_plain = cli_run(["--store", "a", "import", plain])
    code2, done_packed = cli_run(["--store", "b", "import", packed])
    assert (code, code2) == (0, 0)
    ids = lambda doc: [(r["index"], r.get("id"), r["action"]) for r in doc["results"]]  # noqa: E731
    assert ids(done_packed) == ids(done_plain) and done_packed["edges_inserted"] == done_plain["edges_inserted"] > 0
    a, b = tmp_path / "a.json", tmp_path / "b2.json"
    assert cli_run(["--store", "a", "export", "--out", a])[0] == cli_run(["--store", "b", "export", "--out", b])[0] == 0
    assert _without_time(json.loads(a.read_text(encoding="utf-8"))) == _without_time(
        json.loads(b.read_text(encoding="utf-8")))


def test_export_gzip_to_stdout_and_import_from_a_pipe(cli_run: CliRun, tmp_path: Path) -> None:
    _store(cli_run)
    plain = _proc(["export"])
    assert plain.returncode == 0 and plain.stdout.startswith(b"{")  # stdout stays JSON unless asked
    packed = _proc(["export", "--gzip"])
    assert packed.returncode == 0 and packed.stdout[:2] == b"\x1f\x8b" and packed.stderr == b""
    assert _without_time(json.loads(gzip.decompress(packed.stdout))) == _without_time(json.loads(plain.stdout))
    done = _proc(["--store", "piped", "import", "-"], stdin=packed.stdout)
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout)["imported"] == 4


def test_a_gzip_draft_imports_too(cli_run: CliRun, tmp_path: Path) -> None:
    draft = tmp_path / "draft.json.gz"
    draft.write_bytes(gzip.compress(json.dumps({"schema_version": "1", "insights": [
        {"content": "the crane's cables arrived on Tuesday"}, {"content": "Mira signed for the crane's cables"}]})
        .encode()))
    code, doc = cli_run(["import", draft])
    assert code == 0 and doc["imported"] == 2


def _cut(data: bytes) -> bytes:
    return data[: len(data) * 2 // 3]


def _damaged(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes(b ^ 0x5A for b in data[middle: middle + 64]) + data[middle + 64:]


def _bad_crc(data: bytes) -> bytes:  # the text whole, its checksum wrong: found only at the very end
    return data[:-8] + bytes(b ^ 0xFF for b in data[-8:-4]) + data[-4:]


@pytest.mark.parametrize(("spoil", "said"), [(_cut, "cut short"), (_damaged, "damaged"), (_bad_crc, "damaged")])
@pytest.mark.parametrize("dry_run", [False, True])
def test_a_spoiled_gzip_is_one_error_and_writes_nothing(cli_run: CliRun, tmp_path: Path,
                                                        spoil: Callable[[bytes], bytes], said: str, dry_run: bool,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps({"insights": [{"content": f"harbour log {k}: the crane {k} was serviced"}
                                              for k in range(150)]}), encoding="utf-8")
    assert cli_run(["import", draft])[0] == 0
    # small reads and batches: the restore has written rows when it meets the damage, and takes them back
    monkeypatch.setattr(backup, "BATCH", 5)
    monkeypatch.setattr(json_stream, "CHUNK", 2048)
    monkeypatch.setattr(transfer, "CHUNK", 2048)
    packed = tmp_path / "b.json.gz"
    assert cli_run(["export", "--out", packed])[0] == 0
    spoiled = tmp_path / "spoiled.json.gz"
    spoiled.write_bytes(spoil(packed.read_bytes()))
    assert cli_run(["store", "create", "target"])[0] == 0
    code, doc = cli_run(["--store", "target", "import", spoiled, *(["--dry-run"] if dry_run else [])])
    assert code != 0
    assert doc["error"]["code"] == "invalid_input"
    assert "gzip" in doc["error"]["message"] and said in doc["error"]["message"]
    assert _memories(cli_run, "target") == 0
    # the whole file is still there to restore from
    code, out = cli_run(["--store", "target", "import", packed])
    assert code == 0 and out["imported"] == 150


def test_gzip_of_text_that_is_not_utf8_is_said(cli_run: CliRun, tmp_path: Path) -> None:
    path = tmp_path / "latin1.json.gz"
    path.write_bytes(gzip.compress('{"insights": [{"content": "caf\u00e9"}]}'.encode("latin-1")))
    code, doc = cli_run(["import", path])
    assert code != 0 and doc["error"]["code"] == "invalid_input" and "UTF-8" in doc["error"]["message"]
