"""QA round (session 33): `vault:` sources are the vault ingest's.

Every rule reads a `vault:<path>` source as "a row of that note": no time of its own (left out of the recency anchor
and temporal proximity), never auto-pruned, never an exact repeat, and `forget` says it lives as long as its line in
the note. `remember --source vault:notes/a.md` (or a draft item with that source) was stored under it all the same,
so the same fact said twice was stored twice and a user's memory was treated as a line of a note it is not in. The
prefix is refused where a memory is written by hand (`remember`, draft `import`), as NUL is: nothing is stored."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput
from mnemon.core.validation import refuse_vault_source, validate_memory


def test_remember_refuses_a_vault_source_and_stores_nothing(mem: Mnemon) -> None:
    for source in ("vault:notes/a.md", "  vault:Projects/lighthouse.md "):
        with pytest.raises(InvalidInput) as refused:
            mem.remember("my own memory about lamps", source=source)
        assert refused.value.details["field"] == "source" and "vault:" in refused.value.message
    assert mem.status()["total_insights"] == 0
    first = mem.remember("my own memory about lamps", source="notes")
    assert mem.remember("my own memory about lamps", source="notes")["existing_id"] == first["id"]


def test_a_draft_item_with_a_vault_source_is_an_error_and_the_rest_is_imported(mem: Mnemon) -> None:
    draft = {"insights": [{"content": "kept memory about ferns", "source": "notes"},
                          {"content": "refused memory about ferns", "source": "vault:ferns.md"}]}
    out = mem.import_json(json.dumps(draft))
    assert out["imported"] == 1 and out["errors"] == 1
    assert out["results"][1]["error"]["details"]["field"] == "source"
    with pytest.raises(InvalidInput) as refused:  # every row refused: the import fails, saying why for each
        mem.import_json(json.dumps({"source": "vault:ferns.md", "insights": [{"content": "another one"}]}))
    assert refused.value.details["imported"] == 0 and refused.value.details["errors"] == 1
    assert mem.status()["total_insights"] == 1


def test_cli_remember_with_a_vault_source_exits_non_zero(cli_run: Callable[..., tuple[int, Any]]) -> None:
    code, out = cli_run(["remember", "my own memory about lamps", "--source", "vault:a.md"])
    assert code == 1 and out["error"]["code"] == "invalid_input"
    code, status = cli_run(["status"])
    assert code == 0 and status["total_insights"] == 0


@settings(max_examples=200)
@given(st.text(min_size=1, max_size=30).filter(lambda s: "\x00" not in s and s.strip()))
def test_a_source_is_refused_exactly_when_it_names_a_vault_note(source: str) -> None:
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:
        return  # refused for being no text at all (tests of validation cover it)
    for given_source in (source, "vault:" + source):
        try:
            inp = refuse_vault_source(validate_memory("a memory", source=given_source))
        except InvalidInput as exc:
            assert given_source.strip().startswith("vault:") or len(given_source) > 200, exc.message
        else:
            assert not inp.source.startswith("vault:")
