"""The evidence pack's claim lines said the status each claim asked for, not the one the store holds: a claim a
payload killed once and no longer kills stays killed (a tombstone), yet the rewritten pack read "active"; an edge a
person weakened, kept a candidate by the replay, read "active" too. The pack is what a person reads: each line now
states the stored status and why it differs (killed earlier, a person's decision), and each claim of the reply
says what it asked for beside what it got."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


def claim(obj: str, **extra: Any) -> dict[str, Any]:
    return {"subject": "Acme", "predicate": "acquired", "object": obj, "confidence": 0.95,
            "certainty": "confirmed", "source_type": "web", "evidence": f"press release on {obj}", **extra}


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(T0))


def _claim_line(vault: Path, obj: str) -> str:
    text = (vault / "Sources" / "acquisitions.md").read_text()
    return next(line for line in text.splitlines() if line.startswith("- ") and f"[[{obj}]]" in line)


@pytest.mark.parametrize("dry_run", [False, True])
def test_a_claim_killed_earlier_reads_killed_in_the_pack_and_the_reply(mem: Mnemon, tmp_path: Path,
                                                                       dry_run: bool) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    mem.resolve(str(vault), {"title": "Acquisitions", "claims": [claim("Globex", status="killed"), claim("Initech")]})
    assert "killed" in _claim_line(vault, "Globex")
    out = mem.resolve(str(vault), {"title": "Acquisitions", "claims": [claim("Globex"), claim("Initech")]},
                      dry_run=dry_run)
    text = out["markdown"] if dry_run else (vault / "Sources" / "acquisitions.md").read_text()
    [line] = [line for line in text.splitlines() if line.startswith("- ") and "[[Globex]]" in line]
    assert "active" not in line and "killed earlier" in line and "tombstone" in line
    assert "(confidence 0.95, confirmed, source web, active)" in _claim_line(vault, "Initech") or dry_run
    replied = (out["claims"] if dry_run else out["edges"])[0]
    assert replied["status"] == "killed" and replied["requested_status"] is None
    assert "killed earlier" in replied["note"]
    assert "note" not in (out["claims"] if dry_run else out["edges"])[1]


def test_a_weakened_claim_reads_as_a_person_left_it(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    first = mem.resolve(str(vault), {"title": "Acquisitions", "claims": [claim("Globex")]})
    mem.weaken_edge(first["edges"][0]["id"], factor=0.5)
    stored = mem.rt.store.get_edge(first["edges"][0]["id"]).status
    out = mem.resolve(str(vault), {"title": "Acquisitions", "claims": [claim("Globex", evidence="a second look")]})
    line = _claim_line(vault, "Globex")
    assert f", {stored}; weakened by a person" in line
    assert out["edges"][0]["status"] == stored and "weakened by a person" in out["edges"][0]["note"]


def test_a_pack_rewritten_with_a_stored_status_carries_no_claim_line_twice(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    mem.resolve(str(vault), {"title": "Acquisitions", "claims": [claim("Globex", status="killed")]})
    mem.resolve(str(vault), {"title": "Acquisitions", "claims": [claim("Globex")]})
    out = mem.resolve(str(vault), {"title": "Acquisitions", "claims": [claim("Globex", confidence=0.5)]})
    text = (vault / "Sources" / "acquisitions.md").read_text()
    assert sum("[[Globex]]" in line for line in text.splitlines()) == 1
    assert "kept_lines" not in out
