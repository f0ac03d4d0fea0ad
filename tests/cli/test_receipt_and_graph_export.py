"""The two commands the real mnemon has and this one lacked: `receipt` (its hashed audit export of the log) and
`viz`, here `graph --format dot|html --out FILE`. Each prints one JSON document: the receipt itself, or what the
drawing written to the file holds. DOT or HTML never goes to stdout, so `--out -` and a drawing without a file are
refused, as is a file the drawing would wrongly replace."""
from __future__ import annotations

import hashlib
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


def test_receipt_prints_the_hashed_log(cli_run: CliRun) -> None:
    code, stored = cli_run(["remember", "The vault password hint is blue-otter", "--cat", "fact"])
    assert code == 0
    code, doc = cli_run(["receipt", "--limit", "3"])
    assert code == 0 and doc["schema"] == "mnemon.memory.receipt.v1" and doc["store"] == "default"
    assert doc["count"] == 1 and doc["limit"] == 3
    event = doc["events"][0]
    assert event["operation"] == "remember"
    assert event["insight_id_hash"] == hashlib.sha256(stored["id"].encode()).hexdigest()
    assert "blue-otter" not in str(doc) and stored["id"] not in str(doc)


@pytest.mark.parametrize(("limit", "code", "error"), [("0", 1, "invalid_input"), ("10001", 1, "invalid_input"),
                                                      ("x", 2, "usage")])
def test_receipt_limit_is_checked_as_logs(cli_run: CliRun, limit: str, code: int, error: str) -> None:
    for command in ("receipt", "log"):
        got, doc = cli_run([command, "--limit", limit])
        assert (got, doc["error"]["code"]) == (code, error), command


def test_receipt_of_a_mistyped_db_creates_nothing(cli_run: CliRun, tmp_path: Path) -> None:
    code, doc = cli_run(["--db", tmp_path / "typo" / "m.db", "receipt"])
    assert code == 1 and doc["error"]["code"] == "not_found" and not (tmp_path / "typo").exists()


@pytest.fixture
def linked(cli_run: CliRun) -> tuple[str, str]:
    a = cli_run(["remember", 'Chose "Qdrant" as the vector\\database', "--cat", "decision"])[1]["id"]
    b = cli_run(["remember", "Qdrant runs on the staging cluster", "--cat", "fact"])[1]["id"]
    assert cli_run(["link", a, b, "--type", "causal"])[0] == 0
    return a, b


@pytest.mark.parametrize("fmt", ["dot", "html"])
def test_graph_writes_the_drawing_and_prints_what_it_wrote(cli_run: CliRun, tmp_path: Path, linked: tuple[str, str],
                                                           fmt: str) -> None:
    out = tmp_path / f"g.{fmt}"
    code, doc = cli_run(["graph", "--format", fmt, "--out", out])
    assert code == 0, doc
    _, view = cli_run(["graph"])
    assert doc["ok"] is True and doc["format"] == fmt and doc["path"] == str(out)
    assert doc["bytes"] == out.stat().st_size > 0
    assert (doc["nodes"], doc["links"]) == (view["stats"]["nodes"], view["stats"]["links"])
    assert doc["nodes"] == 2 and "causal" in {link["type"] for link in view["links"]}
    assert doc["truncated"] is False and doc["limits"] == view["limits"]
    text = out.read_text(encoding="utf-8")
    assert text.startswith("digraph mnemon {" if fmt == "dot" else "<!DOCTYPE html>")
    for node in linked:
        assert node in text


def test_graph_takes_graphs_bounds(cli_run: CliRun, tmp_path: Path, linked: tuple[str, str]) -> None:
    code, doc = cli_run(["graph", "--format", "dot", "-o", tmp_path / "g.dot", "--focus", linked[0],
                         "--max-nodes", "1"])
    assert code == 0 and doc["nodes"] == 1 and doc["links"] == 0 and doc["truncated"] is True
    assert doc["focus"] == linked[0]
    code, doc = cli_run(["graph", "--format", "html", "--out", tmp_path / "g.html", "--depth", "2"])
    assert code == 2 and doc["error"]["code"] == "usage"  # depth without a focus, as for the JSON graph


@pytest.mark.parametrize("args", [["--format", "dot"], ["--format", "html", "--out", "-"], ["--out", "g.dot"],
                                  ["--format", "json", "--out", "g.json"], ["--format", "svg", "--out", "g.svg"]])
def test_a_drawing_needs_a_file_and_a_file_needs_a_drawing(cli_run: CliRun, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    cli_run(["remember", "Alice owns the payment service"])
    code, doc = cli_run(["graph", *args])
    assert code == 2 and doc["error"]["code"] == "usage"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mnemon-home"]


def test_graph_refuses_to_replace_its_own_database_or_a_folder(cli_run: CliRun, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    assert cli_run(["--db", db, "remember", "Alice owns the payment service"])[0] == 0
    before = db.read_bytes()
    for target in (db, Path(f"{db}-wal"), tmp_path, Path("  ")):
        code, doc = cli_run(["--db", db, "graph", "--format", "dot", "--out", target])
        assert code == 1 and doc["error"]["code"] == "invalid_input", target
    assert db.read_bytes() == before


def test_graph_of_a_mistyped_db_creates_nothing(cli_run: CliRun, tmp_path: Path) -> None:
    code, doc = cli_run(["--db", tmp_path / "typo" / "m.db", "graph", "--format", "dot", "--out", tmp_path / "g.dot"])
    assert code == 1 and doc["error"]["code"] == "not_found"
    assert not (tmp_path / "typo").exists() and not (tmp_path / "g.dot").exists()


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed (apt-get install graphviz)")
def test_graphviz_reads_the_dot_file(cli_run: CliRun, tmp_path: Path, linked: tuple[str, str]) -> None:
    out = tmp_path / "g.dot"
    assert cli_run(["graph", "--format", "dot", "--out", out])[0] == 0
    done = subprocess.run(["dot", "-Tsvg", str(out)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "" and "vector\\database" in done.stdout


def test_viz_is_taken_as_the_real_mnemons_name_for_it(cli_run: CliRun, cli_raw: Callable[..., tuple[int, str, str]],
                                                     tmp_path: Path, linked: tuple[str, str]) -> None:
    code, doc = cli_run(["viz", "--format", "dot", "-o", tmp_path / "v.dot"])
    assert code == 0 and doc["format"] == "dot" and doc["nodes"] == 2
    assert cli_run(["graph", "--format", "dot", "-o", tmp_path / "g.dot"])[0] == 0
    assert (tmp_path / "v.dot").read_bytes() == (tmp_path / "g.dot").read_bytes()
    assert cli_run(["viz", "--format", "dot"])[1]["error"]["code"] == "usage"  # stdout stays one JSON document
    listed = cli_raw(["--help"])[1]
    assert " graph " in listed and " viz " not in listed  # one command, listed once
