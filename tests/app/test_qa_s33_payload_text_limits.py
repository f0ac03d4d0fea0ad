"""A scoped payload's texts are bounded. Unbounded, one 2 MB observation (a pasted blob) kept `remember --payload`
busy for minutes, with the agent waiting on the call. Now an observation text or node summary over
`MAX_PAYLOAD_TEXT_CHARS`, or a ref or name over `MAX_PAYLOAD_NAME_CHARS`, is refused whole with `invalid_input`
naming the field and the limit, and nothing is written; texts at the limit are stored."""
from __future__ import annotations

import copy
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.vault.payload import MAX_PAYLOAD_NAME_CHARS, MAX_PAYLOAD_TEXT_CHARS
from mnemon.core.errors import InvalidInput

SCOPE = "mneme://agent/limits"
BASE: dict[str, Any] = {"source_path": SCOPE, "nodes": [{"ref": "task", "name": "Validate retrieval"}],
                        "observations": [{"node": "task", "kind": "blocked", "text": "Waiting on the invoice"}]}


def _with(path: tuple[str, int, str], value: str) -> dict[str, Any]:
    out = copy.deepcopy(BASE)
    key, index, field = path
    out[key][index][field] = value
    return out


@pytest.mark.parametrize(("path", "limit"), [
    (("observations", 0, "text"), MAX_PAYLOAD_TEXT_CHARS),
    (("nodes", 0, "summary"), MAX_PAYLOAD_TEXT_CHARS),
    (("nodes", 0, "name"), MAX_PAYLOAD_NAME_CHARS),
])
def test_a_payload_text_over_its_limit_is_refused_and_nothing_is_written(mem: Mnemon, path: tuple[str, int, str],
                                                                              limit: int) -> None:
    blob = "y" * 2_000_000  # one long word: the case that hung
    for dry_run in (True, False):
        with pytest.raises(InvalidInput) as refused:
            mem.remember_payload(_with(path, blob), dry_run=dry_run)
        assert f"{path[0]}[0].{path[2]}" in refused.value.message and str(limit) in refused.value.message
    assert mem.rt.store.get_node(f"{SCOPE}#task") is None


def test_a_ref_over_its_limit_is_refused_and_texts_at_the_limits_are_stored(mem: Mnemon) -> None:
    long_ref = "r" * (MAX_PAYLOAD_NAME_CHARS + 1)
    with pytest.raises(InvalidInput) as refused:
        mem.remember_payload(dict(copy.deepcopy(BASE), nodes=[{"ref": long_ref}], observations=[]))
    assert "nodes[0].ref" in refused.value.message

    at_limit = _with(("observations", 0, "text"), "word " * (MAX_PAYLOAD_TEXT_CHARS // 5))
    at_limit["nodes"][0]["name"] = "n" * MAX_PAYLOAD_NAME_CHARS
    out = mem.remember_payload(at_limit)
    assert len(out["observations"][0]["text"]) <= MAX_PAYLOAD_TEXT_CHARS
    assert mem.rt.store.get_node(out["observations"][0]["id"]) is not None
