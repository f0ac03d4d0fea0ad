"""A claim whose subject and object name one note ("Acme" acquired "ACME", or a note and one of its aliases) was
written as an edge from the note to itself, active, with a current belief "Acme acquired ACME" — where `remember
--payload` and `link` refuse an edge joining a node to itself. `resolve` now refuses it before anything is written,
naming the claim and the note."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


def claim(subject: str, obj: str) -> dict[str, object]:
    return {"subject": subject, "predicate": "acquired", "object": obj, "confidence": 0.95,
            "certainty": "confirmed", "source_type": "web", "evidence": "press release"}


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(T0))


@pytest.mark.parametrize(("subject", "obj"), [("Acme", "ACME"), ("Acme Corporation", "[[Acme]]"),
                                              ("Initech", "initech")])
@pytest.mark.parametrize("dry_run", [False, True])
def test_a_claim_joining_a_note_to_itself_is_refused(mem: Mnemon, tmp_path: Path, subject: str, obj: str,
                                                     dry_run: bool) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Acme.md").write_text("---\naliases: [Acme Corporation]\n---\n# Acme\nSupplier.\n")
    mem.ingest(str(vault))
    good = claim("Globex", "Acme")
    with pytest.raises(InvalidInput, match="same") as caught:
        mem.resolve(str(vault), {"title": "Acquisitions", "claims": [good, claim(subject, obj)]}, dry_run=dry_run)
    assert caught.value.details["field"] == "claims[1]"
    assert not (vault / "Sources").exists()
    assert mem.rt.store.vault.edges_by_keys([("placeholder:globex", "note:Acme.md", "acquired")]) == {}


def test_two_notes_are_still_claimed_about(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    out = mem.resolve(str(vault), {"title": "Acquisitions", "claims": [claim("Globex", "Acme")]})
    assert [e["status"] for e in out["edges"]] == ["active"]
