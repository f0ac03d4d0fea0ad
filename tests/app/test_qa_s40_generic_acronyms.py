"""A common acronym for a kind of thing is no entity: 'mnemon remember "The LB in front of checkout drops idle
connections"' stored the entity LB, and so did a note on search's load balancer, linking the two; an SLA, a PDF, an
OOM or the RCA of one outage linked every other memory using the word. An acronym naming one product or team stays."""
from __future__ import annotations

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.entities import GENERIC_ACRONYMS, extract_entities

PAIRS = [
    ("The LB in front of checkout drops idle connections after 60 s", "Search's LB health check points at /ready"),
    ("The billing SLA is 99.9% monthly", "Support promised the SLA credits to Globex by Friday"),
    ("Invoices are exported as PDF from the admin page", "The onboarding guide PDF is out of date"),
    ("The image worker got OOM killed twice tonight", "Raised the memory limit after the OOM in the test runner"),
    ("The RCA for the checkout outage is due Monday", "Wrote the RCA of the DNS cache incident"),
    ("Set a TTL of 300 s on the session cache", "Feature flags are cached without a TTL"),
    ("Enabled SSO for the admin console", "Contractors cannot use SSO yet"),
]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_memories_sharing_only_a_generic_acronym_are_not_linked(mem: Mnemon, first: str, second: str) -> None:
    mem.remember(first)
    out = mem.remember(second)
    assert out["edges_created"]["entity"] == 0
    assert mem.show(out["id"])["entities"] == []


def test_a_question_about_the_lb_is_no_entity_question(mem: Mnemon) -> None:
    mem.remember("The LB in front of checkout drops idle connections after 60 s")
    anchors = next(s for s in mem.recall("why does the LB drop connections", explain=True)["trace"]
                   if s["stage"] == "anchors")
    assert anchors["entities"] == []


@pytest.mark.parametrize("acronym", ["LB", "DB", "PR", "VM", "OS", "UI", "SLA", "KPI", "PDF", "OOM", "MVP", "ETL"])
def test_common_kinds_are_generic(acronym: str) -> None:
    assert acronym in GENERIC_ACRONYMS
    assert extract_entities(f"We talked about the {acronym} yesterday", known=lambda words: set()) == []


def test_acronyms_naming_one_thing_stay() -> None:
    text = "The ALB on AWS fronts the GKE ingress; SRE owns it"
    assert extract_entities(text, known=lambda words: set()) == ["ALB", "AWS", "GKE", "SRE"]


def test_a_generic_acronym_known_in_lower_case_links_nothing(mem: Mnemon) -> None:
    # given on purpose in lower case, it stays on its memory, but a later "api" or "utc" is the word, not that entity
    first = mem.remember("the api gateway config lives in infra/", entities=["api", "utc"])
    assert mem.show(first["id"])["entities"] == ["api", "utc"]
    out = mem.remember("the api returns 500 for /users since the 09:00 utc deploy")
    assert mem.show(out["id"])["entities"] == [] and out["edges_created"]["entity"] == 0
    anchors = next(s for s in mem.recall("why is the api slow", explain=True)["trace"] if s["stage"] == "anchors")
    assert anchors["entities"] == []


def test_a_name_spelt_like_a_generic_acronym_stays_a_name(mem: Mnemon) -> None:
    mem.remember("Dom reviewed the budget", entities=["Dom"])
    out = mem.remember("Dom said the DOM diffing is slow")
    assert mem.show(out["id"])["entities"] == ["Dom"] and out["edges_created"]["entity"] == 1
