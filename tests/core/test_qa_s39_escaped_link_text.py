"""An escaped link is text, all of it: after 'See \\[x](2026-03-04.md) and \\[mail](bob@example.com) here.' (which
renders as the text '[x](2026-03-04.md)'), 'mnemon ingest --vault V' then 'mnemon show note:Esc.md' answered only
has_section — the day and the address in the brackets were still blanked as a link's destination, where a reader
sees them written. An escaped wikilink's name is text the same way; a real link's destination still is no mention."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import blanked_links, parse_note

ESCAPED = "See \\[x](2026-03-04.md) and \\[mail](bob@example.com) here, and \\[[2026-03-05]].\n"


def test_an_escaped_link_s_day_and_address_are_mentions() -> None:
    note = parse_note("Esc.md", ESCAPED)
    assert [date.text for date in note.dates] == ["2026-03-04", "2026-03-05"]
    assert [email.address for email in note.emails] == ["bob@example.com"]


def test_a_real_link_s_are_not() -> None:
    note = parse_note("a.md", "See [x](2026-03-04.md), \\\\[y](ann@example.com) and [[2026-03-05]].\n")
    assert note.dates == () and note.emails == ()


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=5), st.booleans())
def test_an_odd_run_of_backslashes_leaves_the_destination_as_text(run: int, wiki: bool) -> None:
    link = "[[2026-03-04]]" if wiki else "[x](2026-03-04.md)"
    kept = "2026-03-04" in blanked_links("See " + "\\" * run + link + ".")
    assert kept == (run % 2 == 1)


def test_ingest_mentions_them(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Esc.md").write_text("# Esc\n\n" + ESCAPED, encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Esc.md"])
    assert code == 0
    mentions = [edge for edge in shown["edges"] if edge["edge_type"] != "has_section"]
    assert sorted((edge["edge_type"], edge["target_id"]) for edge in mentions) == [
        ("mentions_date", "date:2026-03-04"), ("mentions_date", "date:2026-03-05"),
        ("mentions_email", "email:bob@example.com")]
