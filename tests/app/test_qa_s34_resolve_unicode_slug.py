"""Research written back under a title in another script: `resolve` refused a payload titled "東京オフィス移転" (or
with that slug) — "the resolution payload needs a 'slug' made of letters or digits", though it is nothing but
letters — because a slug kept ASCII letters and digits only. A slug with no ASCII letter or digit now keeps the
title's own letters; one with any keeps the ASCII spelling it had (a replayed payload finds its pack again)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)

CLAIM = {"subject": "東京オフィス", "subject_type": "place", "predicate": "located_in", "object": "日本",
         "object_type": "place", "confidence": 0.95, "certainty": "confirmed", "source_type": "document",
         "evidence": "The lease names the Tokyo office (fictional)."}


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(T0))


@pytest.mark.parametrize(("payload", "pack"), [
    ({"title": "東京オフィス移転"}, "Sources/2026-05-02-東京オフィス移転.md"),
    ({"title": "Office move", "slug": "Σύμβαση Γραφείου"}, "Sources/2026-05-02-σύμβαση-γραφείου.md"),
    ({"title": "Zoë's résumé"}, "Sources/2026-05-02-zo-s-r-sum.md"),  # the ASCII spelling it always had
])
def test_a_title_in_another_script_is_written_back_and_survives_ingest(mem: Mnemon, tmp_path: Path,
                                                                       payload: dict, pack: str) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    data = {**payload, "date": "2026-05-02", "claims": [CLAIM]}
    out = mem.resolve(str(vault), data)
    assert out["note_path"] == pack and (vault / pack).is_file()
    [edge] = out["edges"]
    assert edge["status"] == "active"
    mem.ingest(str(vault))  # the pack's comment is read back: the claim survives the rebuild
    assert mem.rt.store.get_edge(edge["id"]).status == "active"
    again = mem.resolve(str(vault), data)  # the same research again: the same pack, no second one
    assert again["note_path"] == pack and [e["id"] for e in again["edges"]] == [edge["id"]]
    assert len(list((vault / "Sources").iterdir())) == 1


def test_a_title_without_letters_or_digits_is_still_refused(mem: Mnemon, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="slug"):
        mem.resolve(str(tmp_path), {"title": "!!! ???", "claims": [CLAIM]})
