"""A `resolve` payload's texts were unbounded where a scoped payload's are not: a claim whose evidence was a 3 MB
pasted thread was written whole into the evidence pack (7 MB of text and base64 in the user's vault, read again at
every ingest) and into the belief (`state explain` printed 3 MB). Its texts now have the scoped payload's limits
(evidence and list items `MAX_PAYLOAD_TEXT_CHARS`, the title and a claim's names `MAX_PAYLOAD_NAME_CHARS`): over
them the payload is refused whole, naming the field and the limit, and nothing is written."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.app.vault.payload import MAX_PAYLOAD_NAME_CHARS, MAX_PAYLOAD_TEXT_CHARS
from mnemon.core.errors import InvalidInput

RESEARCH: dict[str, Any] = {
    "slug": "firmware", "title": "Firmware owner", "date": "2026-05-02", "sources_checked": ["email"],
    "unresolved": ["Who signs off?"],
    "claims": [{"subject": "Ada", "predicate": "owns", "object": "Firmware", "confidence": 0.95,
                "certainty": "confirmed", "source_type": "email", "evidence": "The thread says so."}]}


def _with(path: tuple[Any, ...], value: str) -> dict[str, Any]:
    out = copy.deepcopy(RESEARCH)
    *parents, last = path
    target = out
    for step in parents:
        target = target[step]
    target[last] = value
    return out


@pytest.mark.parametrize(("path", "where", "limit"), [
    (("claims", 0, "evidence"), "claims[0].evidence", MAX_PAYLOAD_TEXT_CHARS),
    (("unresolved", 0), "unresolved[0]", MAX_PAYLOAD_TEXT_CHARS),
    (("sources_checked", 0), "sources_checked[0]", MAX_PAYLOAD_TEXT_CHARS),
    (("claims", 0, "object"), "claims[0].object", MAX_PAYLOAD_NAME_CHARS),
    (("title",), "title", MAX_PAYLOAD_NAME_CHARS),
])
def test_a_resolution_text_over_its_limit_is_refused_and_nothing_written(mem: Mnemon, tmp_path: Path,
                                                                          path: tuple[Any, ...], where: str,
                                                                          limit: int) -> None:
    blob = "firmware ownership discussed at length. " * (limit // 20)
    for dry_run in (True, False):
        with pytest.raises(InvalidInput) as refused:
            mem.resolve(str(tmp_path), _with(path, blob), dry_run=dry_run)
        assert where in refused.value.message and f"{limit:,}" in refused.value.message
        assert refused.value.details["field"] == where
    assert not (tmp_path / "Sources").exists()
    assert list(mem.rt.store.iter_edges()) == []


def test_texts_at_the_limits_are_written(mem: Mnemon, tmp_path: Path) -> None:
    research = _with(("claims", 0, "evidence"), "e" * MAX_PAYLOAD_TEXT_CHARS)
    research["claims"][0]["object"] = "o" * MAX_PAYLOAD_NAME_CHARS
    out = mem.resolve(str(tmp_path), research)
    assert out["written"] and [e["status"] for e in out["edges"]] == ["active"]
