"""QA round (session 39): `resolve --dry-run` says a claim requested a status only when the claim asked for one.

`mnemon resolve --file research.json --dry-run` of a claim with no `status` answered `"requested_status":
"candidate"` (a qualified one `"active"`): the gate's verdict read as the user's wish, and a claim that asked for
`"status": "active"` but lacked evidence read as having asked for a candidate. `requested_status` is now the
claim's own `status` (trimmed, lower case), null when it gave none, as `remember --payload`'s edges say it; `status`
and `reasons` stay the gate's verdict."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

_QUALIFIED = {"confidence": 0.95, "certainty": "confirmed", "source_type": "email", "evidence": "the supplier's mail"}


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    target = tmp_path / "vault"
    target.mkdir()
    (target / "Lighthouse.md").write_text("# Lighthouse\n\n- the battery project\n", encoding="utf-8")
    return target


def _claim(**extra: Any) -> dict[str, Any]:
    return {"subject": "Lighthouse", "predicate": "depends_on", "object": "Northwind", **extra}


@pytest.mark.parametrize(("claim", "requested", "status"), [
    (_claim(confidence=0.5), None, "candidate"),
    (_claim(**_QUALIFIED), None, "active"),
    (_claim(confidence=0.5, status="active"), "active", "candidate"),
    (_claim(**_QUALIFIED, status=" Candidate "), "candidate", "candidate"),
    (_claim(**_QUALIFIED, status=""), None, "active"),
    (_claim(confidence=0.5, predicate="links to"), None, "refused"),  # a relation the ingest owns
], ids=["none-weak", "none-qualified", "asked-active", "asked-candidate", "blank", "refused"])
def test_requested_status_is_what_the_claim_asked(make_mem: Callable[..., Mnemon], vault: Path,
                                                  claim: dict[str, Any], requested: str | None, status: str) -> None:
    mem = make_mem("hash")
    mem.ingest(str(vault))
    out = mem.resolve(str(vault), {"title": "Battery", "claims": [claim]}, dry_run=True)
    [entry] = out["claims"]
    assert (entry["requested_status"], entry["status"]) == (requested, status), entry
    real = mem.resolve(str(vault), {"title": "Battery", "claims": [claim]})
    assert real["edges"][0]["status"] == status, real["edges"]


def test_the_cli_dry_run_says_nothing_was_requested(cli_run: Callable[..., tuple[int, Any]], vault: Path,
                                                    tmp_path: Path) -> None:
    path = tmp_path / "research.json"
    path.write_text('{"title": "Battery", "claims": [{"subject": "Lighthouse", "predicate": "depends_on", '
                    '"object": "Northwind", "confidence": 0.5}]}', encoding="utf-8")
    code, out = cli_run(["resolve", "--vault", str(vault), "--file", str(path), "--dry-run"])
    assert code == 0, out
    assert out["claims"][0]["requested_status"] is None and out["claims"][0]["status"] == "candidate", out
