"""Names asked for in part: "who is Mira" names the entity "Mira Chen" (core.entities.names_in_query)."""
from __future__ import annotations

from mnemon.core.entities import PARTIAL_NAME_MAX, NamesInQuery, name_parts, names_in_query

PEOPLE = name_parts(["Mira Chen", "Miranda Lopez", "Jean-Luc Picard", "Platform Team", "The Beatles", "Kafka",
                     "Node.js", "src/app.py", "GPT 4o"])


def partial(query: str) -> dict[str, tuple[str, ...]]:
    return dict(names_in_query(query, PEOPLE).partial)


def test_a_first_name_names_the_full_name_and_only_as_a_whole_word() -> None:
    assert partial("who is Mira") == {"mira": ("mira chen",)}
    assert partial("who is Miranda") == {"miranda": ("miranda lopez",)}
    assert partial("who is Mir") == {}


def test_a_surname_and_a_possessive_name_the_same_entity() -> None:
    assert partial("what did Chen approve") == {"chen": ("mira chen",)}
    assert partial("what did Mira's team ship") == {"mira": ("mira chen",)}
    assert partial("Mira’s rotation") == {"mira": ("mira chen",)}


def test_a_lower_case_question_may_name_someone() -> None:
    assert partial("who is mira") == {"mira": ("mira chen",)}
    assert partial("Who is mira") == {"mira": ("mira chen",)}  # only its first word is capitalised


def test_a_lower_case_word_beside_capitalised_names_is_not_a_name() -> None:
    assert partial("did Mira join the platform group") == {"mira": ("mira chen",)}


def test_a_name_in_full_is_whole_and_its_words_are_not_asked_again() -> None:
    assert names_in_query("who is Mira Chen?", PEOPLE) == NamesInQuery(("mira chen",), ())
    assert names_in_query("who leads the Platform Team", PEOPLE) == NamesInQuery(("platform team",), ())
    assert names_in_query("what did jean-luc picard say", PEOPLE) == NamesInQuery(("jean-luc picard",), ())


def test_hyphenated_first_names_match_whole() -> None:
    assert partial("who is Jean-Luc") == {"jean-luc": ("jean-luc picard",)}
    assert partial("who is Jean") == {}


def test_stopwords_and_things_that_are_not_names_never_match() -> None:
    assert partial("Beatles songs") == {"beatles": ("the beatles",)}
    assert partial("what is the plan") == {}  # "the" is a stopword, never "The Beatles"
    assert partial("is Node fast") == {} and partial("open app") == {}  # Node.js, src/app.py are no names
    assert partial("GPT") == {}  # a word with a digit is no name: "GPT 4o" is not indexed


def test_a_word_in_too_many_names_is_a_common_word() -> None:
    teams = name_parts([f"Team {chr(65 + k)}{'x' * k}" for k in range(PARTIAL_NAME_MAX + 1)])
    assert dict(names_in_query("who is on the Team", teams).partial) == {}
    fewer = name_parts([f"Team {chr(65 + k)}{'x' * k}" for k in range(PARTIAL_NAME_MAX)])
    assert len(dict(names_in_query("who is on the Team", fewer).partial)["team"]) == PARTIAL_NAME_MAX


def test_two_words_of_one_name_ask_about_it_once() -> None:
    assert names_in_query("did Mira and Chen meet", PEOPLE).partial == (("mira", ("mira chen",)),)


def test_nothing_to_match_against() -> None:
    assert names_in_query("who is Mira", {}) == NamesInQuery((), ())
