"""Path mentions in a prompt and the notes they name (`core.vault.scope`)."""
from __future__ import annotations

from hypothesis import given, strategies as st

from mnemon.core.vault.links import normalise_link_key
from mnemon.core.vault.scope import MAX_MENTIONS, path_mentions, resolve_mentions

NOTES = ["Projects/lighthouse.md", "Projects/sub/deep-note.md", "Projects2/other.md", "Areas/suppliers.md",
         "Meetings/2026-04-01 Review.md", "README.md"]


def test_mentions_are_path_syntax_only() -> None:
    prompt = ("What is open in Projects/, `Meetings/2026-04-01 Review.md` and lighthouse.md? and/or see "
              "https://example.org/a/b, mail ada@example.org/x, projects people")
    assert path_mentions(prompt) == ["Meetings/2026-04-01 Review.md", "Projects/", "lighthouse.md", "and/or"]


def test_a_sentence_stop_and_brackets_are_not_part_of_the_path() -> None:
    assert path_mentions("Summarise (Areas/suppliers.md).") == ["Areas/suppliers.md"]
    assert path_mentions("Look in Projects/lighthouse.") == ["Projects/lighthouse"]


def test_a_mention_names_a_folder_a_path_a_trailing_part_or_a_file_name() -> None:
    scope = resolve_mentions(["Projects/", "sub/deep_note", "README", "lighthouse.md", "projects/LIGHTHOUSE"], NOTES)
    assert scope.matched == {
        "Projects/": ("Projects/lighthouse.md", "Projects/sub/deep-note.md"),
        "sub/deep_note": ("Projects/sub/deep-note.md",),
        "README": ("README.md",),
        "lighthouse.md": ("Projects/lighthouse.md",),
        "projects/LIGHTHOUSE": ("Projects/lighthouse.md",),
    }
    assert scope.paths == ("Projects/lighthouse.md", "Projects/sub/deep-note.md", "README.md")


def test_names_stop_at_path_boundaries() -> None:
    scope = resolve_mentions(["Proj/", "ouse.md", "Projects2/", "and/or"], NOTES)
    assert scope.matched == {"Projects2/": ("Projects2/other.md",)}
    assert scope.unmatched == ("Proj/", "ouse.md", "and/or") and scope.active


@given(st.text(alphabet=st.characters(blacklist_characters="/"), max_size=200))
def test_a_prompt_without_a_slash_or_md_names_no_path(prompt: str) -> None:
    if ".md" not in prompt.lower():
        assert path_mentions(prompt) == []


@given(st.text(max_size=300))
def test_mentions_are_few_distinct_and_from_the_prompt(prompt: str) -> None:
    found = path_mentions(prompt)
    assert len(found) <= MAX_MENTIONS and len(found) == len(set(found))
    assert all(m in prompt for m in found)


@given(st.lists(st.text(min_size=1, max_size=30), max_size=6))
def test_resolution_names_only_notes_that_exist_and_relate_to_the_mention(mentions: list[str]) -> None:
    scope = resolve_mentions(mentions, NOTES)
    assert set(scope.matched) | set(scope.unmatched) == set(mentions)
    for mention, paths in scope.matched.items():
        key = normalise_link_key(mention)
        for path in paths:
            assert path in NOTES
            note_key = normalise_link_key(path)
            assert note_key == key or note_key.startswith(key + "/") or note_key.endswith("/" + key)


def test_mentions_that_named_notes_leave_the_search_text() -> None:
    prompt = "risks in `Meetings/2026-04-01 Review.md` and Projects/ but not and/or"
    scope = resolve_mentions(path_mentions(prompt), NOTES)
    assert scope.without_mentions(prompt).split() == ["risks", "in", "and", "but", "not", "and/or"]


def test_a_wikilink_names_its_target_as_a_path_mention() -> None:
    # agents write notes' names as the vault does: "[[Meeting Notes 2026]]" names that note, as a path would
    assert path_mentions("what is open in [[2026-04-01 Review]] and [[lighthouse#Risks|the risks]]?") == [
        "2026-04-01 Review", "lighthouse"]
    assert path_mentions("see [[Projects/lighthouse]] and [[README^block-1]]") == ["Projects/lighthouse", "README"]
    scope = resolve_mentions(path_mentions("what is open in [[2026-04-01 Review]]?"), NOTES)
    assert scope.matched == {"2026-04-01 Review": ("Meetings/2026-04-01 Review.md",)}


def test_a_wikilink_to_no_note_scopes_nothing() -> None:
    scope = resolve_mentions(path_mentions("compare [[Nowhere Plan]] with the budget"), NOTES)
    assert not scope.matched and scope.unmatched == ("Nowhere Plan",)
