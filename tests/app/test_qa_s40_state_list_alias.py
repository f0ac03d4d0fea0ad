"""`alias add "the landlord" "St James"` says the two name one subject, and every later write about "the landlord" is
kept under St James; yet `state list --subject "the landlord"` listed nothing, as if nothing were believed of them.
A subject filter that is an alias now lists its canonical subject's assertions too."""
from __future__ import annotations

from typing import Any

from mnemon.app.memory import Mnemon


def claim(subject: str, predicate: str, obj: str) -> dict[str, Any]:
    return {"subject": subject, "predicate": predicate, "object": obj, "confidence": 0.95, "certainty": "confirmed",
            "evidence": f"{subject} {predicate} {obj} (fictional)", "source_path": "chat://notes",
            "metadata": {"validated": True}}


def subjects(mem: Mnemon, text: str) -> list[tuple[str, str]]:
    return [(a["subject_name"], a["object"]) for a in mem.state_list(subject=text)["assertions"]]


def test_an_alias_lists_what_is_believed_of_its_subject(mem: Mnemon) -> None:
    mem.state_assert(claim("St James", "located_in", "Leeds"))
    mem.alias_add("the landlord", "St James")
    mem.state_assert(claim("the landlord", "status", "awaiting deposit"))
    mem.state_assert(claim("Jameson", "located_in", "York"))
    assert subjects(mem, "The Landlord") == [("St James", "Leeds"), ("St James", "awaiting deposit")]
    assert subjects(mem, "landlord") == []  # (a part of an alias is no alias: the filter reads subjects only)
    assert subjects(mem, "St James") == [("St James", "Leeds"), ("St James", "awaiting deposit")]


def test_a_subject_still_stored_under_the_alias_is_listed_once(mem: Mnemon) -> None:
    mem.state_assert(claim("the landlord", "owns", "Flat 3"))  # written before the alias: kept as written
    mem.alias_add("the landlord", "St James")
    mem.state_assert(claim("St James", "located_in", "Leeds"))
    listed = mem.state_list(subject="the landlord")
    assert sorted(subjects(mem, "the landlord")) == [("St James", "Leeds"), ("the landlord", "Flat 3")]
    assert listed["count"] == 2
