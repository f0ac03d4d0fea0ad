"""A focus view cut at --max-nodes draws the same nodes on both backends. The walk ranked a node's links by strength,
then by edge id; SQLite numbers a note's edges to its own sections and headings below zero and PostgreSQL does not,
so among equally strong links each backend reached other nodes first: on the example vault
`mnemon graph --focus note:Projects/lighthouse.md --max-nodes 18` drew the `## Firmware` heading and a section of
Harbour Station on SQLite, two Lighthouse sections instead on PostgreSQL. Ties now go by what a link joins."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Run = Callable[..., tuple[int, Any]]
FOCUS = "note:Projects/lighthouse.md"


def _view(cli_run: Run, db: str, *args: str) -> dict[str, Any]:
    code, out = cli_run(["--db", db, "graph", "--focus", FOCUS, *args])
    assert code == 0, out
    return out


@pytest.mark.postgres
def test_a_cut_focus_view_is_the_same_on_sqlite_and_postgresql(cli_run: Run, example_vault: Path, tmp_path: Path,
                                                              pg_db_url: str) -> None:
    sqlite_db = str(tmp_path / "laptop.db")
    for db in (sqlite_db, pg_db_url):
        code, out = cli_run(["--db", db, "ingest", "--vault", str(example_vault)])
        assert code == 0, out
    for cut in ("8", "14", "18", "22", "30"):
        laptop, team = _view(cli_run, sqlite_db, "--max-nodes", cut), _view(cli_run, pg_db_url, "--max-nodes", cut)
        assert [n["id"] for n in laptop["nodes"]] == [n["id"] for n in team["nodes"]], cut
        assert ([(x["src"], x["dst"], x["type"]) for x in laptop["links"]]
                == [(x["src"], x["dst"], x["type"]) for x in team["links"]]), cut
    laptop, team = _view(cli_run, sqlite_db, "--max-links", "12"), _view(cli_run, pg_db_url, "--max-links", "12")
    assert [(x["src"], x["dst"], x["type"]) for x in laptop["links"]] == [(x["src"], x["dst"], x["type"])
                                                                           for x in team["links"]]
