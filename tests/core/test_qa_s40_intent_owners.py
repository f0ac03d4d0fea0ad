"""Who owns or answers for something asks for a person or team: 'mnemon recall "who owns the billing service"' was
GENERAL, as were "who's responsible for billing", "who maintains the payments API", 谁负责计费服务, "wem gehört der
Abrechnungsdienst?" and their French and Russian forms; they are ENTITY now, as "who is responsible" already was. A
"who owns" inside a sentence is a relative clause and leaves the question as it was."""
from __future__ import annotations

import pytest

from mnemon.core.intent import Intent, IntentDecision, detect_intent

WHY, ENTITY, GENERAL = Intent.WHY, Intent.ENTITY, Intent.GENERAL


@pytest.mark.parametrize(("query", "cues"), [
    ("who owns the billing service", ("en:who owns",)),
    ("Who owned the auth service before the reorg?", ("en:who owns", "en:before")),  # the ENTITY tie-break
    ("billing is down again - who owns it?", ("en:who owns",)),
    ("who maintains the payments API", ("en:who maintains",)),
    ("who's responsible for the billing service?", ("en:who is",)),
    ("Who’s in charge of on-call this week?", ("en:who is",)),
    ("who is responsible for the billing service", ("en:who is",)),
    ("who was responsible for the March outage?", ("en:who was responsible",)),
    ("谁负责计费服务？", ("zh:谁负责",)),
    ("誰負責計費服務？", ("zh:誰負責",)),
    ("计费服务谁负责？", ("zh:谁负责",)),
    ("谁维护支付接口", ("zh:谁维护",)),
    ("wem gehört der Abrechnungsdienst?", ("de:wem gehört",)),
    ("Wer ist für den Abrechnungsdienst verantwortlich?", ("de:wer ist",)),
    ("Qui est responsable du service de facturation ?", ("fr:qui est responsable",)),
    ("À qui appartient le service de facturation ?", ("fr:à qui appartient",)),
    ("Кто отвечает за биллинг?", ("ru:кто отвечает за",)),
])
def test_owner_questions_are_entity_questions(query: str, cues: tuple[str, ...]) -> None:
    assert detect_intent(query) == IntentDecision(ENTITY, "auto", cues)


@pytest.mark.parametrize(("query", "expected"), [
    ("why did the engineer who owns the cache drop Redis", WHY),  # a relative clause, not the question
    ("Mira, who maintains the cache, approved it", GENERAL),
    ("the team that owns billing is moving to Go", GENERAL),
    ("le service qui est responsable des factures est lent", GENERAL),  # fr: a relative clause
    ("Who invited Nate to join her on the trails?", GENERAL),  # who in general stays GENERAL
    ("whose turn is it to cook", GENERAL),
])
def test_neighbouring_questions_keep_their_intent(query: str, expected: Intent) -> None:
    assert detect_intent(query).intent == expected


def test_recall_explain_reports_an_owner_question_as_entity(cli_run) -> None:  # type: ignore[no-untyped-def]
    assert cli_run(["remember", "The billing service is owned by the payments team", "--entities",
                    "billing service"])[0] == 0
    code, out = cli_run(["recall", "who owns the billing service", "--explain"])
    assert code == 0 and out["meta"]["intent"] == "ENTITY"
    anchors = next(step for step in out["trace"] if step["stage"] == "anchors")
    assert anchors["entities"] == ["billing service"]
