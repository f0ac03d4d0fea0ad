"""An entity the store knows ("Kubernetes", "Alice Chen") is the same entity when a later memory writes it in another
case ("kubernetes", "alice chen", "ALICE CHEN"): the later memory holds it under the stored spelling and links to its
holders (it was left out of the entity graph, or became a second entity). A single remember and a bulk import agree.
A lower-case word that is also an ordinary word ("rest", "will", "react") is not taken for a name spelt otherwise."""
from __future__ import annotations

from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.core.entities import extract_entities

LATER = [
    "yesterday alice chen said the kubernetes upgrade is blocked",
    "ALICE CHEN WANTS THE KUBERNETES NODES RESIZED",
    "Alice chen moved the Kubernetes ingress",
]


def _entities(mem: Mnemon) -> dict[str, list[str]]:
    return {m["content"]: m["entities"] for m in mem.export_json(include_vectors=False)["insights"]}


def test_a_known_entity_written_in_another_case_is_held_under_its_stored_spelling(mem: Mnemon) -> None:
    first = mem.remember("Alice Chen runs the Kubernetes cluster", entities=["Alice Chen"])
    assert mem.show(first["id"])["entities"] == ["Alice Chen", "Kubernetes"]
    for text in LATER:
        out = mem.remember(text)
        assert mem.show(out["id"])["entities"] == ["Alice Chen", "Kubernetes"], text
        assert out["edges_created"]["entity"] >= 1, text
    linked = mem.related(first["id"], depth=1, edge_type="entity")
    assert len(linked["related"]) == len(LATER)


def test_a_bulk_import_folds_the_case_as_a_single_remember_does(mem: Mnemon,
                                                               make_mem: Callable[..., Mnemon]) -> None:
    items = [{"content": "Alice Chen runs the Kubernetes cluster", "entities": ["Alice Chen"],
              "created_at": "2026-01-01T09:00:00Z"}]
    items += [{"content": text, "created_at": f"2026-01-0{k + 2}T09:00:00Z"} for k, text in enumerate(LATER)]
    assert mem.import_json({"schema_version": "1", "insights": items})["imported"] == len(items)
    one_by_one = make_mem("hash")
    for item in items:
        one_by_one.remember(item["content"], entities=item.get("entities"), created_at=item["created_at"])
    assert _entities(mem) == _entities(one_by_one)
    assert all(ents == ["Alice Chen", "Kubernetes"] for ents in _entities(mem).values())


def test_a_known_lower_case_name_is_found_capitalised(mem: Mnemon) -> None:
    mem.remember("We own the staging cluster", entities=["staging cluster", "athena"])
    out = mem.remember("Staging Cluster upgrades need Athena sign-off")
    assert mem.show(out["id"])["entities"] == ["staging cluster", "athena"]


def test_ordinary_lower_case_words_are_not_taken_for_names_spelt_otherwise(mem: Mnemon) -> None:
    mem.remember("Will set up the REST gateway in React", entities=["Will"])
    out = mem.remember("we will rest the team and react to the load later")
    assert mem.show(out["id"])["entities"] == []
    assert out["edges_created"]["entity"] == 0


def test_extraction_asks_for_the_stored_spelling_and_keeps_it() -> None:
    known = {"Kubernetes", "Alice Chen", "GitHub", "REST", "Mark"}

    def lookup(cands: set[str]) -> set[str]:
        return cands & known

    assert extract_entities("alice chen pushed to github", known=lookup) == ["Alice Chen", "GitHub"]
    assert extract_entities("KUBERNETES is down, ask ALICE CHEN", known=lookup) == ["Kubernetes", "Alice Chen"]
    assert extract_entities("O'BRIEN and jean-luc picard", known=lambda c: c & {"O'Brien", "Jean-Luc Picard"}) == [
        "O'Brien", "Jean-Luc Picard"]
    assert extract_entities("AWS Lambda timed out", known=lambda c: c & {"AWS Lambda"}) == ["AWS", "AWS Lambda"]
    # an ALL-CAPS spelling is matched only as written, a plain lower-case word only to a dictionary term
    assert extract_entities("mark the rest as done", known=lookup) == []
    assert extract_entities("Mark the REST calls", known=lookup) == ["Mark", "REST"]


def test_a_given_entity_in_another_case_is_the_stored_one_and_not_held_twice(mem: Mnemon) -> None:
    first = mem.remember("Alice Chen runs the cluster", entities=["Alice Chen"])
    out = mem.remember("alice chen wrote the runbook", entities=["alice chen", "ALICE CHEN"])
    assert mem.show(out["id"])["entities"] == ["Alice Chen"]
    assert [r["id"] for r in mem.related(out["id"], depth=1, edge_type="entity")["related"]] == [first["id"]]


def test_a_lower_case_query_word_still_asks_about_the_known_name(mem: Mnemon) -> None:
    # a query is read more freely than a memory: "stripe" in a question asks about Stripe (an everyday word a
    # memory written in lower case is not linked by)
    moved = mem.remember("We are migrating the payment service from Stripe to Adyen")
    rows = {r["insight"]["id"]: r for r in mem.recall("are we moving off stripe")["results"]}
    assert rows[moved["id"]]["signals"]["entity"] == 1.0


@given(first=st.sampled_from(["Ana", "Priya", "Jean-Luc", "Ünal", "Kofi", "O'Brien"]),
       last=st.sampled_from(["Lima", "Raman", "Okafor", "Müller", "Zhao"]),
       case=st.sampled_from([str.lower, str.upper, str.title, lambda s: s]),
       sentence=st.sampled_from(["{} approved it", "we asked {} twice", "ask {}, then ship", "{}'s team won"]))
def test_a_known_name_of_several_words_is_found_in_any_case(first: str, last: str, case: Callable[[str], str],
                                                          sentence: str) -> None:
    name = f"{first} {last}"
    text = sentence.format(case(name))
    assert extract_entities(text, known=lambda cands: cands & {name}) == [name]


def test_a_given_name_in_another_case_than_the_text_is_held_as_the_text_or_dictionary_spells_it(mem: Mnemon) -> None:
    # given "kubernetes" for a text saying "Kubernetes", on a store that knew neither: the memory held "kubernetes"
    # alone, and every later memory naming Kubernetes (the dictionary's spelling) missed it
    first = mem.remember("Kubernetes is down in staging", entities=["kubernetes", "alice chen"])
    assert mem.show(first["id"])["entities"] == ["Kubernetes", "alice chen"]
    later = mem.remember("The Kubernetes upgrade is done")
    assert later["edges_created"]["entity"] == 1
    only = mem.remember("Helm charts moved to the new repo", entities=["helm"], entity_mode="provided")
    assert mem.show(only["id"])["entities"] == ["Helm"]
