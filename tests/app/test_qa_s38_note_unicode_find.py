"""QA round 38: `note replace --find` and `note search-content` find text whatever its Unicode form.

macOS and the sync tools that copy its files write "é" as "e" plus a combining accent (NFD); a keyboard or an agent
types the single code point (NFC). `note replace --find Café` answered `not_found` on such a note and `note
search-content café` missed it, though the reader sees the same word. A match is now a run of whole characters
canonically equivalent to the text looked for; a replace rewrites that span only, every other byte stays the
note's own, and the diff is exact."""
from __future__ import annotations

import unicodedata
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mnemon.app import note_match, note_tools, notes
from mnemon.core.errors import NotFound

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def test_replace_finds_nfc_text_in_an_nfd_note_and_keeps_the_rest_as_it_was(tmp_path: Path) -> None:
    stored = nfd("# N\n\nCafé au lait\n- Crème brûlée\n")
    (tmp_path / "n.md").write_bytes(stored.encode("utf-8"))
    dry = notes.replace_in_note(tmp_path, "n.md", nfc("Café"), "Tea", dry_run=True, clock=CLOCK)
    assert dry["replacements"] == 1
    assert dry["diff"] == (f"--- a/n.md\n+++ b/n.md\n@@ -1,4 +1,4 @@\n # N\n \n-{nfd('Café')} au lait\n"
                           f"+Tea au lait\n {nfd('- Crème brûlée')}\n")
    out = notes.replace_in_note(tmp_path, "n.md", nfc("Café"), "Tea", clock=CLOCK)
    assert out["changed"] and out["replacements"] == 1
    # the line not touched keeps its decomposed bytes
    assert (tmp_path / "n.md").read_bytes() == nfd("# N\n\n").encode() + b"Tea au lait\n" + \
        nfd("- Crème brûlée\n").encode()


def test_replace_finds_nfd_text_in_an_nfc_note(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_text(nfc("## Über\n- Zürich\n"), encoding="utf-8")
    notes.replace_in_note(tmp_path, "n.md", nfd("Zürich"), nfc("Genève"), clock=CLOCK)
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == nfc("## Über\n- Genève\n")


def test_a_note_in_both_forms_counts_both_and_all_replaces_both(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_text(f"{nfc('café')} one\n{nfd('café')} two\n", encoding="utf-8")
    with pytest.raises(Exception) as twice:
        notes.replace_in_note(tmp_path, "n.md", nfc("café"), "tea", clock=CLOCK)
    assert twice.value.details["occurrences"] == 2  # type: ignore[attr-defined]
    out = notes.replace_in_note(tmp_path, "n.md", nfc("café"), "tea", all_matches=True, clock=CLOCK)
    assert out["replacements"] == 2
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == "tea one\ntea two\n"


def test_part_of_a_character_is_not_a_match(tmp_path: Path) -> None:
    """'Cafe' is not in 'Café' whichever form it is in: replacing it left the accent on the next letter."""
    for form in (nfc, nfd):
        (tmp_path / "n.md").write_text(form("Café\n"), encoding="utf-8")
        with pytest.raises(NotFound):
            notes.replace_in_note(tmp_path, "n.md", "Cafe", "Tea", clock=CLOCK)
        assert (tmp_path / "n.md").read_text(encoding="utf-8") == form("Café\n")


def test_a_lone_accent_is_still_found_as_written(tmp_path: Path) -> None:
    (tmp_path / "n.md").write_text("Cafe\u0301\u0301\n", encoding="utf-8")  # a doubled accent: removing one
    notes.replace_in_note(tmp_path, "n.md", "\u0301\u0301", "\u0301", clock=CLOCK)
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == "Cafe\u0301\n"


@pytest.mark.parametrize("regex", [False, True])
@pytest.mark.parametrize("case_sensitive", [False, True])
def test_search_content_finds_either_form(tmp_path: Path, regex: bool, case_sensitive: bool) -> None:
    (tmp_path / "a.md").write_text(nfd("# A\nCafé au lait\n"), encoding="utf-8")
    (tmp_path / "b.md").write_text(nfc("# B\nCafé noir\n"), encoding="utf-8")
    for query in (nfc("Café"), nfd("Café")):
        out = note_tools.search_content(tmp_path, query, regex=regex, case_sensitive=case_sensitive)
        assert [(m["path"], m["line"]) for m in out["matches"]] == [("a.md", 2), ("b.md", 2)]
        assert out["matches"][0]["text"] == nfd("Café au lait")  # the line as stored
    if not case_sensitive:
        assert note_tools.search_content(tmp_path, nfc("CAFÉ"), regex=regex)["count"] == 2


def test_the_cli_replace_answers_the_replacement(tmp_path: Path, cli_run) -> None:
    (tmp_path / "n.md").write_text(nfd("Café\n"), encoding="utf-8")
    code, out = cli_run(["note", "replace", "n.md", "--vault", str(tmp_path), "--find", nfc("Café"),
                         "--replace", "Tea"])
    assert code == 0 and out["replacements"] == 1
    assert (tmp_path / "n.md").read_text(encoding="utf-8") == "Tea\n"


WORDS = ["café", "Crème", "brûlée", "Zürich", "naïve", "e", "x", " ", "\n", "한국", "ﬁ", "Å"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WORDS), st.booleans()), max_size=12), st.sampled_from(WORDS[:6]),
       st.booleans())
def test_spans_are_whole_equivalent_characters_and_the_rest_is_kept(parts: list[tuple[str, bool]], word: str,
                                                                    as_nfd: bool) -> None:
    text = "".join(nfd(w) if d else nfc(w) for w, d in parts)
    find = nfd(word) if as_nfd else nfc(word)
    found = note_match.spans(text, find)
    for (start, end), (later, _) in zip(found, found[1:]):
        assert end <= later
    for start, end in found:
        assert nfd(text[start:end]) == nfd(find)
        assert end == len(text) or not unicodedata.combining(text[end])
    # every occurrence of the word as a whole word the reader sees is found (the words never run into each other)
    expected = sum(1 for w, _ in parts if nfc(w) == nfc(word))
    if word not in ("e", "x"):  # (single letters also occur inside other words)
        assert len(found) >= expected
    rewritten = note_match.replaced(text, found, "#")
    assert rewritten.count("#") == len(found)
    kept = [text[a:b] for a, b in zip([0, *(e for _, e in found)], [*(s for s, _ in found), len(text)])]
    assert rewritten.split("#") == kept
