"""ALL-CAPS emphasis is not a list of acronyms.

`NOTE THAT THE BUILD IS BROKEN, WE MUST FIX IT ASAP` used to give the entities NOTE, THAT, BUILD, BROKEN, MUST, FIX
and ASAP, which then linked every other memory that shouted the same words. A run of three or more ALL-CAPS words
(only spaces and punctuation between them) now yields no acronym from the run, and common shouting and chat words
are on the stoplist; acronyms in ordinary text are still found."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from mnemon.core.entities import SHOUTING_RUN, TECH_TERMS, extract_entities

# common English words: upper-cased, none is a dictionary term ("rest" would be REST)
COMMON_WORDS = """the be to of and a in that have it for not on with he as you do at this but his by from they we
say her she or an will my one all would there their what so up out if about who get which go me when make can like
time no just him know take people into year your good some could them see other than then now look only come its
over think also back after use two how our work first well way even new want because any these give day most us is
was are been has had were said did build broken must fix note asap please never always really very still again
today tomorrow team meeting lunch coffee deploy release server fire stop wait need done keep sure okay big huge
problem urgent important everyone anyone nothing something here why where while before since until""".split()


def test_the_shouted_sentence_from_the_report_yields_no_entities() -> None:
    assert extract_entities("NOTE THAT THE BUILD IS BROKEN, WE MUST FIX IT ASAP") == []
    assert extract_entities("NOTE THAT THE BUILD IS BROKEN, WE MUST FIX IT ASAP", known=lambda words: set()) == []


@pytest.mark.parametrize(("text", "expected"), [
    ("We moved the RDS to AWS", ["RDS", "AWS"]),
    ("NASA and ESA signed", ["NASA", "ESA"]),
    ("the EKS job on GKE failed", ["EKS", "GKE"]),
    ("the SQS and the SNS", ["SQS", "SNS"]),
    ("NOTE: the SQS is down", ["SQS"]),
    ("Publish it over SQS/SNS/EKS", ["SQS", "SNS", "EKS"]),  # joined without spaces: names, not shouting
    ("Run it on EC2 with RDS and S3", ["RDS"]),
    ("IBM GCP were considered", ["GCP", "IBM"]),  # two in a row are not a run (GCP: the dictionary, first by place)
])
def test_real_acronyms_are_still_found(text: str, expected: list[str]) -> None:
    found = extract_entities(text)
    assert sorted(found) == sorted(expected), (text, found)


@pytest.mark.parametrize("text", [
    "THIS IS REALLY URGENT", "PLEASE READ THIS NOW", "DO NOT MERGE THIS PR YET", "WE DON'T KNOW WHY IT FAILED",
    "STOP. DEPLOYING. FRIDAYS.", "FIX THE BUILD — NOW!!!", "WHY IS CI RED AGAIN",
])
def test_a_run_of_three_or_more_caps_words_gives_no_acronym(text: str) -> None:
    assert extract_entities(text) == [], text


@pytest.mark.parametrize("word", ["ASAP", "LGTM", "THIS", "NOTE", "MUST", "IMHO", "FWIW", "TBH", "FIXME", "URGENT"])
def test_shouting_and_chat_words_alone_are_no_acronyms(word: str) -> None:
    assert extract_entities(f"the reviewer said {word} on the pull request") == []


def test_a_shouted_run_leaves_the_rest_of_the_text_alone() -> None:
    found = extract_entities("Our PaymentService runs on GKE behind the NGINX gateway; WE MUST NOT BREAK PROD AGAIN")
    assert found == ["PaymentService", "GKE", "NGINX"]
    # a dictionary term keeps being found inside shouting: it is a name whatever its case
    assert "Kubernetes" in extract_entities("THE Kubernetes CLUSTER IS DOWN")


def test_the_run_length_is_three() -> None:
    assert SHOUTING_RUN == 3
    assert extract_entities("ship BUILD BOARD today") == ["BUILD", "BOARD"]
    assert extract_entities("ship BUILD BOARD CODE today") == []


_SEPARATORS = st.sampled_from([" ", " ", " ", ", ", ". ", "! ", "? ", ": ", "; ", " - ", " — ", "... ", "\n"])


@given(words=st.lists(st.sampled_from(COMMON_WORDS), min_size=SHOUTING_RUN, max_size=25),
       seps=st.lists(_SEPARATORS, min_size=25, max_size=25), end=st.sampled_from(["", ".", "!", "!!!", "?"]))
def test_upper_casing_a_sentence_of_common_words_yields_no_entities(
        words: list[str], seps: list[str], end: str) -> None:
    assert not {w.upper() for w in COMMON_WORDS} & TECH_TERMS  # the invariant's premise
    text = "".join(word + sep for word, sep in zip(words, seps[: len(words) - 1])) + words[-1] + end
    assert extract_entities(text.upper()) == [], text.upper()
    assert extract_entities(text.upper(), known=lambda cands: set()) == []


@given(before=st.lists(st.sampled_from(COMMON_WORDS), min_size=1, max_size=8),
       acronym=st.sampled_from(["SQS", "NASA", "ESA", "GKE", "EKS", "SNS", "RDS", "IBM"]),
       after=st.lists(st.sampled_from(COMMON_WORDS), min_size=1, max_size=8),
       shouted=st.lists(st.sampled_from(COMMON_WORDS), min_size=SHOUTING_RUN, max_size=10))
def test_an_acronym_among_lower_case_words_survives_a_shouted_sentence_elsewhere(
        before: list[str], acronym: str, after: list[str], shouted: list[str]) -> None:
    text = f"{' '.join(before)} {acronym} {' '.join(after)} and then {' '.join(shouted).upper()}"
    assert extract_entities(text) == [acronym], text


@pytest.mark.parametrize(("text", "expected"), [
    ("Deploy to GKE. DO NOT TOUCH PROD", ["GKE"]),  # the acronym ends its own sentence of ordinary words
    ("Deploy to AWS RDS! NEVER EVER DROP TABLES", ["AWS", "RDS"]),
    ("DO NOT TOUCH PROD. GKE is fine though", ["GKE"]),  # ...or starts one
    ("We use EC2 GKE. DO NOT TOUCH PROD", ["GKE"]),  # a name before it in the sentence is enough
])
def test_an_acronym_in_a_sentence_of_its_own_next_to_a_shouted_one_survives(text: str, expected: list[str]) -> None:
    assert sorted(extract_entities(text)) == sorted(expected), text


@pytest.mark.parametrize("text", ["WARNING! DO NOT TOUCH PROD", "DO NOT TOUCH PROD. SERIOUSLY.",
                                  "HEY. LISTEN. DO NOT MERGE", "PROD IS DOWN. OPS KNOWS."])
def test_a_whole_caps_sentence_next_to_a_shouted_one_is_shouting_too(text: str) -> None:
    assert extract_entities(text) == [], text


@given(before=st.lists(st.sampled_from(COMMON_WORDS), min_size=1, max_size=6),
       acronym=st.sampled_from(["SQS", "NASA", "ESA", "GKE", "SNS", "RDS", "IBM"]),
       end=st.sampled_from([".", "!", "?", "..."]),
       shouted=st.lists(st.sampled_from(COMMON_WORDS), min_size=SHOUTING_RUN, max_size=10))
def test_an_acronym_ending_a_lower_case_sentence_survives_the_shouted_sentence_after_it(
        before: list[str], acronym: str, end: str, shouted: list[str]) -> None:
    text = f"{' '.join(before)} {acronym}{end} {' '.join(shouted).upper()}"
    assert extract_entities(text) == [acronym], text
