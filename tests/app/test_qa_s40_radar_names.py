"""The contradiction radar read a graph edge's claim by the names of the nodes it joins, not by the names the research
wrote: a claim whose subject was an alias ("Bobby" for Bob) was never compared with Bob's belief (a contradiction
missed), a claim naming a note by one of its aliases ("Madrid City" for the note Madrid) was reported as challenging
the very value it repeats (a contradiction invented), and a placeholder's folded name was shown ('porto')."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon

from conftest import FakeClock


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(datetime(2026, 12, 7, 9, 0, tzinfo=timezone.utc)))


def belief(subject: str, obj: str) -> dict[str, Any]:
    return {"subject": subject, "predicate": "lives_in", "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "evidence": f"{subject}'s lease in {obj} (fictional)", "source_path": "chat://lease",
            "metadata": {"validated": True}}


def weak_claim(slug: str, subject: str, obj: str) -> dict[str, Any]:
    """A research claim below the write gate: it stays a candidate edge, the radar's challenger."""
    return {"slug": slug, "title": slug, "date": "2026-12-01", "claims": [
        {"subject": subject, "subject_type": "person", "predicate": "lives_in", "object": obj, "object_type": "place",
         "confidence": 0.7, "strength": 0.6, "certainty": "likely", "source_type": "email",
         "evidence": f"{subject} mentioned {obj} (fictional)"}]}


@pytest.fixture
def vault(mem: Mnemon, tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / "Places").mkdir(parents=True)
    (root / "Places" / "Madrid.md").write_text("---\naliases: [Madrid City]\n---\n# Madrid\n", encoding="utf-8")
    mem.ingest(str(root))
    return root


def summaries(mem: Mnemon, **kwargs: Any) -> list[str]:
    return [c["summary"] for c in mem.state_conflicts(**kwargs)["conflicts"]]


def test_a_claim_about_an_alias_of_the_subject_challenges_its_belief(mem: Mnemon, vault: Path) -> None:
    mem.state_assert(belief("Bob", "Lisbon"))
    mem.alias_add("Bobby", "Bob")
    mem.resolve(str(vault), weak_claim("bobby-moved", "Bobby", "Faro"))
    [conflict] = mem.state_conflicts()["conflicts"]
    assert (conflict["kind"], conflict["subject"], conflict["challenger"]["object"]) == (
        "evidence_conflict", "Bob", "Faro")
    preflight = mem.agent_preflight("Where does Bob live?")
    assert [c["challenger"]["object"] for c in preflight["world"]["contradictions"]] == ["Faro"]


def test_a_claim_naming_the_same_note_by_its_alias_agrees(mem: Mnemon, vault: Path) -> None:
    mem.state_assert(belief("Dave", "Madrid City"))
    mem.resolve(str(vault), weak_claim("dave-home", "Dave", "Madrid City"))
    assert summaries(mem) == []
    mem.state_assert(belief("Erin", "Madrid"))  # the note's title: the alias names the same place
    mem.resolve(str(vault), weak_claim("erin-home", "Erin", "Madrid City"))
    assert summaries(mem) == []


def test_the_challenger_is_named_as_the_research_wrote_it(mem: Mnemon, vault: Path) -> None:
    mem.state_assert(belief("Bob", "Lisbon"))
    mem.resolve(str(vault), weak_claim("bob-porto", "Bob", "Porto"))
    [conflict] = mem.state_conflicts()["conflicts"]
    assert conflict["challenger"]["object"] == "Porto"
    assert "'Porto'" in conflict["summary"]
