"""A heading's node id is `heading:<path>#<slug>`, and the slug dropped every character `re` counts as no word: the
combining accent of a heading macOS wrote decomposed (NFD) too. "## Café" typed so was `#cafe`, another node than the
composed "## Café" (`#café`), and the same id as a "## Cafe" in that note: the second heading got no node of its
own. A slug now keeps a letter's marks and is composed (NFC)."""
from __future__ import annotations

import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.plan import heading_slug


def _headings(mem: Mnemon) -> dict[str, str]:
    return {n.id: n.content for n in mem.rt.store.iter_nodes(kind="heading")}


def test_a_decomposed_heading_is_the_node_its_composed_twin_is(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a.md").write_text(unicodedata.normalize("NFD", "# A\n## Café\nbeans\n"), encoding="utf-8")
    (vault / "b.md").write_text("# B\n## Café\nbeans\n", encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    ids = sorted(_headings(mem))
    assert ids == ["heading:a.md#café", "heading:b.md#café"]


def test_an_accented_heading_and_its_unaccented_neighbour_are_two_headings(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "menu.md").write_text("# Menu\n" + unicodedata.normalize("NFD", "## Café\nbeans\n") + "## Cafe\ncups\n",
                                   encoding="utf-8")
    mem.ingest(str(vault), embed=False)
    assert sorted(_headings(mem)) == ["heading:menu.md#cafe", "heading:menu.md#café"]
    assert unicodedata.normalize("NFC", mem.show("heading:menu.md#café")["title"]) == "Café"


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(categories=["Ll", "Lu", "Zs"], max_codepoint=0x24F), min_size=1, max_size=16))
def test_a_heading_slug_is_the_same_in_either_unicode_form(text: str) -> None:
    slug = heading_slug(unicodedata.normalize("NFC", text))
    assert heading_slug(unicodedata.normalize("NFD", text)) == slug
    assert unicodedata.is_normalized("NFC", slug)
