"""`retrieve` keeps to the notes its prompt names by path (Mneme's path filter, without its false matches)."""
from __future__ import annotations

from pathlib import Path

import pytest

from mnemon.app.memory import Mnemon

from conftest import EXAMPLE_VAULT


@pytest.fixture
def vault_mem(mem: Mnemon, example_vault: Path) -> Mnemon:
    """`mem` after ingesting its own copy of the example vault with embed=False (`example_vault_mem` embeds)."""
    mem.ingest(str(example_vault), embed=False)
    return mem


def _memory_paths(pack: dict) -> set[str]:
    return {i["source_path"] for i in pack["items"] if i["item_type"] != "edge"}


def test_a_folder_in_the_prompt_keeps_the_pack_to_its_notes(vault_mem: Mnemon) -> None:
    everywhere = vault_mem.retrieve("battery supplier overdue", max_items=8)
    assert any(not p.startswith("Meetings/") for p in _memory_paths(everywhere))  # the filter has work to do
    scoped = vault_mem.retrieve("battery supplier overdue in Meetings/", max_items=8)
    paths = _memory_paths(scoped)
    assert paths and all(p.startswith("Meetings/") for p in paths)
    meetings = len(list((EXAMPLE_VAULT / "Meetings").glob("*.md")))
    assert scoped["retrieval"]["matched_paths"] == {"Meetings/": meetings}
    assert scoped["retrieval"]["path_filter_active"] is True
    assert scoped["retrieval"]["path_node_count"] == meetings
    for edge in (i for i in scoped["items"] if i["item_type"] == "edge"):  # an edge has an end inside the scope
        assert any(end["id"].startswith("note:Meetings/") or end["id"].startswith("vault:Meetings/")
                   for end in (edge["src"], edge["dst"]))


@pytest.mark.parametrize("mention", ["`Meetings/2026-04-01 Review.md`", '"meetings/2026-04-01 review"'])
def test_a_quoted_note_path_with_spaces_names_that_note(vault_mem: Mnemon, mention: str) -> None:
    pack = vault_mem.retrieve(f"battery {mention}", max_items=8)
    assert _memory_paths(pack) == {"Meetings/2026-04-01 Review.md"}
    assert pack["retrieval"]["path_node_count"] == 1


def test_a_file_name_names_its_note(vault_mem: Mnemon) -> None:
    pack = vault_mem.retrieve("what is the battery risk in lighthouse.md?", max_items=8)
    assert _memory_paths(pack) == {"Projects/lighthouse.md"}
    assert pack["retrieval"]["matched_paths"] == {"lighthouse.md": 1}


def test_words_and_unknown_paths_never_scope_a_prompt(vault_mem: Mnemon) -> None:
    plain = vault_mem.retrieve("battery projects people", max_items=8)  # folder names as words: no filter
    assert plain["retrieval"]["path_filter_active"] is False and plain["retrieval"]["matched_paths"] == {}
    odd = vault_mem.retrieve("battery and/or Archive/ nowhere.md", max_items=8)
    assert odd["retrieval"]["path_filter_active"] is False
    assert odd["retrieval"]["unmatched_paths"] == ["and/or", "Archive/", "nowhere.md"]
    assert len({p.split("/")[0] for p in _memory_paths(odd)}) > 1  # notes from several folders, as unscoped


def test_a_scoped_prompt_with_nothing_inside_says_so(vault_mem: Mnemon) -> None:
    pack = vault_mem.retrieve("quantum chromodynamics People/", max_items=8)
    assert pack["retrieval"]["path_filter_active"] is True
    assert pack["items"] == [] and pack["empty_reason"] == "no_matching_memories"


def test_a_path_that_names_notes_is_not_searched_for_as_words(vault_mem: Mnemon) -> None:
    pack = vault_mem.retrieve("battery risk in `Projects/lighthouse.md`", max_items=8)
    assert pack["tokens"] == ["batteri", "risk"]  # not "project", "lighthous", "md"
    unknown = vault_mem.retrieve("battery risk in Nowhere/", max_items=8)
    assert "nowher" in unknown["tokens"]  # a mention that named nothing stays a word of the prompt


def test_a_prompt_that_is_only_a_path_searches_by_its_words(vault_mem: Mnemon) -> None:
    pack = vault_mem.retrieve("Projects/lighthouse.md", max_items=8)
    assert pack["retrieval"]["path_filter_active"] is True
    assert pack["items"] and _memory_paths(pack) == {"Projects/lighthouse.md"}


@pytest.mark.parametrize("prompt", ["summarize Projects/lighthouse.md", "what does Projects/lighthouse.md say"])
def test_a_request_about_a_named_note_returns_that_note(vault_mem: Mnemon, prompt: str) -> None:
    bare = _memory_paths(vault_mem.retrieve("Projects/lighthouse.md", max_items=8))
    pack = vault_mem.retrieve(prompt, max_items=8)  # "summarize" occurs nowhere in the note
    assert pack["empty_reason"] is None and _memory_paths(pack) == bare == {"Projects/lighthouse.md"}



def test_a_scoped_pack_holds_only_the_edges_of_the_named_notes(vault_mem: Mnemon) -> None:
    # finding #5: "Ada Quill —links_to→ Lighthouse" (People/ada-quill.md) filled a `Projects/` pack; the docs say a
    # path "keeps the pack to those notes", so an edge must be one those notes hold (its `source_path`)
    scoped = vault_mem.retrieve("open risks in Projects/", max_items=12, budget=5000)
    assert scoped["retrieval"]["path_filter_active"] is True
    assert scoped["items"] and all(str(i["source_path"]).startswith("Projects/") for i in scoped["items"])
    outside = [s for s in scoped["skipped"] if s["reason"] == "outside_path_scope"]
    assert outside and all(s["kind"] == "edge" for s in outside)


def test_a_wikilink_in_the_prompt_keeps_the_pack_to_its_note(vault_mem: Mnemon) -> None:
    pack = vault_mem.retrieve("what is the battery risk in [[lighthouse|the Lighthouse project]]?", max_items=8)
    assert _memory_paths(pack) == {"Projects/lighthouse.md"}
    assert pack["retrieval"]["matched_paths"] == {"lighthouse": 1}
