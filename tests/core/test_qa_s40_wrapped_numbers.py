"""A hard-wrapped sentence whose next line starts with a number and a full stop ('We shipped the release in' over
'2024. Then the vendor was blocked on the contract.') is one paragraph, as CommonMark renders it: a numbered list
that does not start at 1 cannot interrupt a paragraph. The parser read '2024.' as a numbered item, so the rest of
the sentence became a bullet of its own — a has_blocked open loop in 'mnemon show note:N.md' after 'mnemon ingest'."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_note


def _items(text: str) -> list[tuple[int | None, str]]:
    return [(item.number, item.text) for item in parse_note("n.md", text).list_items]


def test_a_wrapped_number_is_the_paragraph_s_text() -> None:
    assert _items("We shipped the release in\n2024. Then the vendor was blocked.\n") == []
    assert _items("The budget grew by\n15. That is waiting on approval.\n16. And more.\n") == []
    assert _items("> We shipped the release in\n> 2024. Then the vendor was blocked.\n") == []


def test_a_list_starting_at_one_or_after_a_blank_line_is_a_list() -> None:
    assert _items("Steps:\n1. first step\n2. second step\n") == [(1, "first step"), (2, "second step")]
    assert _items("Steps:\n\n3. third step\n4. fourth step\n") == [(3, "third step"), (4, "fourth step")]
    assert _items("1. first\n   goes on here\n2. second\n") == [(1, "first"), (2, "second")]
    assert _items("- a bullet\nits lazy line\n2. a new list\n") == [(None, "a bullet"), (2, "a new list")]
    assert _items("## Heading\n5. fifth\n") == [(5, "fifth")]
    assert _items("Text:\n- bullet one\n") == [(None, "bullet one")]


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=2, max_value=999_999_999), st.integers(min_value=1, max_value=4))
def test_no_number_but_one_interrupts_a_paragraph(number: int, lines: int) -> None:
    paragraph = "\n".join(f"line {i} of the paragraph" for i in range(lines))
    assert _items(f"{paragraph}\n{number}. goes on the sentence\n") == []
    assert _items(f"{paragraph}\n1. starts a list\n") == [(1, "starts a list")]


def test_ingest_makes_no_open_loop_of_it(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "N.md").write_text("# Release\n\nWe shipped the release in\n2024. Then the vendor was blocked on the"
                                " contract.\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:N.md"])
    assert code == 0
    assert sorted({edge["edge_type"] for edge in shown["edges"]}) == ["has_section"]


def test_below_a_heading_or_rule_the_paragraph_is_as_plain() -> None:
    assert _items("## Heading\nWe shipped in\n2024. Then more.\n") == []
    assert _items("---\nWe shipped in\n2024. Then more.\n") == []
