"""A world document (`--file`) holding a lone surrogate (JSON "\\ud800") is refused naming the field that holds it,
as MCP and HTTP name the argument; it used to fail at the write with "surrogates not allowed at 49"."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

MATCH = '{"sense_type":"gws","observation_terms_all":["x"]}'


@pytest.mark.parametrize("command, document, field", [
    (["sense", "add"], '{"sense_type":"manual","observed_at":"2026-01-01T00:00:00Z","text":"a\\ud800b"}', "text"),
    (["predict", "add"], '{"title":"a\\ud800b","match_json":' + MATCH + ',"check_after":"2027-01-01",'
                         '"expires_at":"2027-02-01"}', "title"),
    (["action", "record"], '{"action_type":"email","title":"t","metadata":{"note":"a\\udc80"}}', "metadata.note"),
    (["state", "assert"], '{"subject":"a\\ud800b","predicate":"p","object":"o"}', "subject"),
])
def test_a_world_document_with_a_lone_surrogate_names_the_field(cli_run: Callable[..., tuple[int, Any]],
                                                                 tmp_path: Path, command: list[str], document: str,
                                                                 field: str) -> None:
    path = tmp_path / "doc.json"
    path.write_text(document, encoding="ascii")
    code, out = cli_run([*command, "--file", str(path)])
    assert code != 0 and out["ok"] is False
    assert out["error"]["code"] == "invalid_input"
    assert out["error"]["message"].split(": ", 1)[1].startswith(f"{field} is not valid UTF-8 text"), out
    assert out["error"]["details"]["field"] == field
