"""A note's front-matter properties were not searchable: with `client: Northwind Traders` in its YAML front matter,
`retrieve "Northwind Traders"` answered `no_matching_memories` (Obsidian users keep a note's key facts in its
properties). Ingest now writes a note's scalar and list property values — not `title`, `aliases` or `tags`, which
already name and tag the note — as one section memory of the note, `key: value` a line, found by keyword search,
recall and retrieve like its other sections."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, strategies as st

import re

from mnemon.app.memory import Mnemon

NOTE = """---
title: Acme deal
aliases: [Acme]
tags: [client, sales]
client: Northwind Traders
contacts:
  - Priya Raman
  - Olu Bello
budget: 40000
signed: false
due: 2026-12-10
---
# Acme deal

We sent the proposal.
"""


def _ingest(mem: Mnemon, tmp_path: Path, notes: dict[str, str]) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    for name, text in notes.items():
        (vault / name).write_text(text, encoding="utf-8")
    mem.ingest(str(vault), embed=False)


def test_a_property_value_is_found_by_retrieve_and_search(mem: Mnemon, tmp_path: Path) -> None:
    _ingest(mem, tmp_path, {"Acme.md": NOTE})
    pack = mem.retrieve("Northwind Traders")
    assert pack.get("empty_reason") is None
    [item] = [i for i in pack["items"] if i["item_type"] == "memory" and "Northwind" in i["text"]]
    assert item["text"] == "client: Northwind Traders\ncontacts: Priya Raman, Olu Bello\nbudget: 40000"
    assert item["title"] == "Acme deal" and item["source_path"] == "Acme.md" and item["line"] == 5  # "client:"
    found = mem.search("Olu Bello")["results"]
    assert [r["id"] for r in found] == [item["id"]]


def test_a_note_whose_properties_are_all_used_already_gets_no_row(mem: Mnemon, tmp_path: Path) -> None:
    plain = "---\ntitle: Plain\ntags: [x]\naliases: [P]\nsigned: true\ncreated: 2026-01-02\n---\nSome words.\n"
    _ingest(mem, tmp_path, {"Plain.md": plain})
    memories = mem.export_json(include_vectors=False)["insights"]
    assert [m["content"] for m in memories] == ["Some words."]


@given(st.dictionaries(st.sampled_from(["title", "aliases", "alias", "tags", "tag", "client", "owner", "n"]),
                       st.one_of(st.text(max_size=20), st.integers(), st.booleans(), st.none(),
                                 st.lists(st.text(max_size=10), max_size=3),
                                 st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=2))))
def test_property_text_holds_each_other_scalar_value_once(raw: dict) -> None:
    from mnemon.core.vault.frontmatter import property_text

    text = property_text(raw)
    lines = text.split("\n") if text else []
    keys = [line.split(": ", 1)[0] for line in lines]
    assert not set(keys) & {"title", "aliases", "alias", "tags", "tag"}
    assert len(keys) == len(set(keys))
    for key, value in raw.items():
        if key in ("client", "owner", "n") and isinstance(value, (str, int)) and not isinstance(value, bool) \
                and " ".join(str(value).split()) and not re.match(r"\d{4}-\d\d-\d\d", str(value).strip()):
            assert f"{key}: {' '.join(str(value).split())}" in lines


def test_a_key_the_note_does_not_read_as_its_name_is_a_property(mem: Mnemon, tmp_path: Path) -> None:
    # the title is `title:` as written; a `Title:` key names nothing, so its value is only findable as a property
    _ingest(mem, tmp_path, {"Q.md": "---\nTitle: Quarterly Zanzibar Review\n---\nBody words.\n"})
    found = mem.search("Zanzibar")["results"]
    assert [r["content"] for r in found] == ["Title: Quarterly Zanzibar Review"]
