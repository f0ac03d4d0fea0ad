"""QA round (session 39): after "Bob Chen owns the deployment pipeline" and "Bob Chen left the team; Ana Ruiz now owns
the deployment pipeline", `recall "who owns the deployment pipeline"` put Bob first until an agent linked the two.
The hand-over retires Bob's memory as a correction does: demoted, flagged superseded with `corrected_by`, never
hidden; the remember that wrote it answered CONFLICT naming it."""
from __future__ import annotations

from mnemon.app.memory import Mnemon


def test_the_new_holder_comes_first_and_the_old_one_is_marked(mem: Mnemon) -> None:
    bob = mem.remember("Bob Chen owns the deployment pipeline")["id"]
    handed = mem.remember("Bob Chen left the team; Ana Ruiz now owns the deployment pipeline")
    assert handed["diff_suggestion"] == "CONFLICT" and handed["diff_matches"][0]["id"] == bob
    results = mem.recall("who owns the deployment pipeline")["results"]
    assert [r["insight"]["id"] for r in results] == [handed["id"], bob]
    assert results[1].get("superseded") is True and results[1].get("corrected_by") == handed["id"]


def test_a_shared_role_leaves_both_holders_current(mem: Mnemon) -> None:
    bob = mem.remember("Bob Chen owns the deployment pipeline")["id"]
    also = mem.remember("Bob Chen now also reviews the deployment pipeline")
    assert also["diff_suggestion"] != "CONFLICT"
    results = mem.recall("who owns the deployment pipeline")["results"]
    assert not any(r.get("superseded") for r in results) and bob in [r["insight"]["id"] for r in results]
