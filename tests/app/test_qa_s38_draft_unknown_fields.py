"""QA round (session 38): a draft field the import does not read is named, not dropped without a word.

A hand-edited (or LLM-written) draft `{"insights": [{"content": "…", "importanc": 5}], "edge": [...]}` was imported
at importance 3 with no edges, `errors: 0`, nothing said. An export's unknown member was already a warning; a
draft's unknown member, insight field or edge field now is too, naming the rows, with the field it resembles."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.transfer import unknown_fields
from mnemon.core.errors import InvalidInput

KNOWN = {"content", "category", "importance", "tags", "entities", "source", "entity_mode", "created_at"}


def test_a_misspelt_field_is_named_with_the_one_it_resembles(mem: Mnemon) -> None:
    draft = {"insights": [{"content": "the ferry leaves at nine", "importanc": 5},
                          {"content": "the ferry is late on Sundays", "importanc": 4, "tags": ["ferry"]}],
             "edge": [{"source_index": 0, "target_index": 1, "edge_type": "causal"}]}
    for dry_run in (True, False):
        out = mem.import_json(json.dumps(draft), dry_run=dry_run)
        warnings = out.get("warnings", [])
        assert any("insights 0, 1: 'importanc'" in w and "'importance'?" in w for w in warnings), warnings
        assert any("'edge'" in w and "'edges'?" in w for w in warnings), warnings


def test_a_draft_of_known_fields_has_no_warning(mem: Mnemon) -> None:
    draft = {"schema_version": "1", "source": "chat", "insights": [
        {"content": "the ferry leaves at nine", "importance": 4, "tags": ["ferry"], "category": "fact"},
        {"content": "the ferry is late on Sundays", "created_at": "2025-01-02T03:04:05Z"}],
        "edges": [{"source_index": 0, "target_index": 1, "edge_type": "causal", "weight": 0.7, "reason": "x"}]}
    assert "warnings" not in mem.import_json(json.dumps(draft))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(extra=st.dictionaries(st.text(min_size=1, max_size=12), st.integers(), max_size=4))
def test_every_field_the_import_does_not_read_is_named_and_no_other(extra: dict[str, int]) -> None:
    item = {"content": "a memory", **extra}
    warnings = unknown_fields({"insights": [item]})
    unread = [k for k in extra if k not in KNOWN]
    assert len(warnings) == len(unread)
    assert all(f"{k!r} is not a field" in w for k, w in zip(unread, warnings))


def test_the_cli_says_it(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    draft = tmp_path / "draft.json"
    draft.write_text(json.dumps({"insights": [{"content": "the ferry leaves at nine", "importanc": 5}]}))
    code, out = cli_run(["import", str(draft)])
    assert code == 0 and out["imported"] == 1 and "'importanc'" in out["warnings"][0], out


def test_a_draft_refused_whole_names_them_in_its_details_and_no_later_reply(mem: Mnemon) -> None:
    with pytest.raises(InvalidInput) as err:
        mem.import_json(json.dumps({"insights": [{"content": "", "importanc": 5}]}))
    assert any("'importanc'" in w for w in err.value.details["warnings"])
    assert "warnings" not in mem.remember("the ferry leaves at nine")
