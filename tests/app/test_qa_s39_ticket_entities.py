"""A ticket id is one entity: 'mnemon remember "JIRA-1234: users are logged out…"' stored the entity JIRA, and 'mnemon
show' of it listed an entity edge to 'JIRA-1187: flaky test…' (and to every other ticket of the project), while two
memories about JIRA-1234 were linked by nothing more specific than that."""
from __future__ import annotations

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities

BUG = "JIRA-1234: users are logged out after 5 minutes because the JWT expiry was set in seconds"
FLAKY = "JIRA-1187: flaky test test_concurrent_checkout fails about 1 in 20 runs"
FIX = "The fix for JIRA-1234 multiplies the expiry by 60 in auth/tokens.py"


def _entity_links(mem: Mnemon, node_id: str) -> dict[str, str]:
    return {e["target_id"] if e["source_id"] == node_id else e["source_id"]: e["metadata"]["entity"]
            for e in mem.show(node_id)["edges"] if e["edge_type"] == "entity"}


def test_tickets_of_one_project_are_not_linked_and_one_tickets_memories_are(mem: Mnemon) -> None:
    bug = mem.remember(BUG)
    flaky = mem.remember(FLAKY)
    fix = mem.remember(FIX)
    entities = mem.show(bug["id"])["entities"]
    assert "JIRA-1234" in entities and "JIRA" not in entities
    links = _entity_links(mem, bug["id"])
    assert flaky["id"] not in links
    assert links.get(fix["id"]) == "JIRA-1234"


def test_a_project_key_the_store_knows_links_no_ticket(mem: Mnemon) -> None:
    mem.remember("We moved the tracker from Linear to JIRA")  # JIRA is now a known entity
    bug = mem.remember(BUG)
    flaky = mem.remember(FLAKY)
    assert "JIRA" not in mem.show(flaky["id"])["entities"]
    assert flaky["id"] not in _entity_links(mem, bug["id"])


def test_a_ticket_id_is_taken_whole_and_other_acronyms_stay() -> None:
    assert extract_entities("see feature/PAY-87-refund and the AWS bill") == ["PAY-87", "AWS"]
    assert extract_entities("Q3-2024 plan, room A1-2") == []  # a key has two letters at least
