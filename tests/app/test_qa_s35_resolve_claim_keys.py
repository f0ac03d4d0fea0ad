"""A misspelt key inside a `resolve` claim passed silently: `"confidnce": 0.95` was read as confidence 0.5 and
`"sorce": "email"` as an unsourced claim, so research the agent meant as confirmed became a candidate edge, with no
belief, and the reply said `written`. A claim now refuses a key no rule reads, as a scoped payload's items do,
naming the claim and the closest known key; nothing is written (no pack, no edge). A pack already in the vault,
replayed by ingest, is read as it is."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.resolve import render_pack
from mnemon.app.vault.resolve_input import CLAIM_KEYS
from mnemon.core.errors import InvalidInput

CLAIM = {"subject": "Acme", "predicate": "located_in", "object": "Porto", "confidence": 0.95, "certainty": "confirmed",
         "source_type": "document", "evidence": "The lease names Porto."}


def _research(**claim: Any) -> dict[str, Any]:
    return {"slug": "warehouse", "title": "Warehouse", "date": "2026-05-02", "claims": [dict(CLAIM), claim]}


@pytest.mark.parametrize(("typo", "meant"), [("confidnce", "confidence"), ("sorce", "source_type"),
                                             ("certainity", "certainty")])
def test_a_misspelt_claim_key_is_refused_naming_the_claim(mem: Mnemon, tmp_path: Path, typo: str, meant: str) -> None:
    claim = {k: v for k, v in CLAIM.items() if k != meant}
    research = _research(**{**claim, "object": "Lisbon", typo: CLAIM[meant]})
    for dry_run in (True, False):
        with pytest.raises(InvalidInput) as refused:
            mem.resolve(str(tmp_path), research, dry_run=dry_run)
        assert f"claims[1]: unknown field {typo!r} (did you mean {meant!r}?)" in refused.value.message
        assert refused.value.details["did_you_mean"] == {typo: meant}
    assert not (tmp_path / "Sources").exists()  # no pack
    assert list(mem.rt.store.iter_edges()) == []  # and no edge, not even the first, well-spelt claim's


def test_every_key_a_claim_reads_is_accepted(mem: Mnemon, tmp_path: Path) -> None:
    claim = {**CLAIM, "subject_type": "organization", "object_type": "place", "strength": 0.9, "status": "active",
             "date": "2026-05-01", "valid_from": "2026-05-01", "valid_until": "2027-05-01", "metadata": {"via": "x"}}
    assert set(claim) == set(CLAIM_KEYS)
    out = mem.resolve(str(tmp_path), {"slug": "w", "title": "W", "date": "2026-05-02", "claims": [claim]})
    assert [e["status"] for e in out["edges"]] == ["active"]
    assert out["edges"][0]["assertion_id"]


@settings(max_examples=30, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(min_size=1, max_size=12).filter(lambda k: k not in CLAIM_KEYS and "\x00" not in k))
def test_any_unknown_claim_key_is_refused(mem: Mnemon, tmp_path: Path, extra: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        mem.resolve(str(tmp_path), _research(**{**CLAIM, extra: "x"}), dry_run=True)
    assert refused.value.details["unknown"] == [extra]


def test_a_stored_pack_with_an_unknown_claim_key_is_replayed_by_ingest(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    (vault / "Sources").mkdir(parents=True)
    research = {**_research(**{**CLAIM, "object": "Lisbon", "source_url": "https://example.org"}), "slug": "w"}
    (vault / "Sources" / "2026-05-02-w.md").write_text(render_pack(research, 0.9), encoding="utf-8")
    mem.ingest(str(vault))
    claims = [e for e in mem.rt.store.iter_edges() if e.origin == "resolve"]
    assert sorted(e.dst for e in claims) == ["placeholder:lisbon", "placeholder:porto"]
