"""A URL written without a scheme is no email: 'www.site.com/gil@example.com' gave a mentions_email edge to
gil@example.com ('mnemon show note:Mail.md' listed it), where 'https://www.site.com/gil@example.com' gave none.
GFM links "www." URLs as it links "https://" ones; an address right after a '/' is a path's too."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hypothesis import given, settings, strategies as st

from mnemon.core.vault.parser import parse_note


def test_a_www_url_path_holds_no_email_date_or_tag() -> None:
    note = parse_note("a.md", "See www.site.com/gil@example.com and (www.x.org/2026-03-04/p#frag) for details.\n"
                              "Also example.org/users/hal@example.com, but write to www.admin@example.com.\n")
    assert [email.address for email in note.emails] == ["www.admin@example.com"]
    assert note.dates == () and note.tags == ()


def test_an_address_beside_a_url_is_still_one() -> None:
    note = parse_note("a.md", "Mail ann@example.com about www.site.com (or bob@example.com).\n")
    assert [email.address for email in note.emails] == ["ann@example.com", "bob@example.com"]


@settings(max_examples=80, deadline=None)
@given(st.from_regex(r"[a-z]{1,8}(\.[a-z]{1,8}){0,2}", fullmatch=True),
       st.from_regex(r"[a-z0-9/._-]{0,12}", fullmatch=True))
def test_no_www_url_names_an_address(domain: str, path: str) -> None:
    note = parse_note("a.md", f"Link: www.{domain}.com/{path}ann@example.com here.\n")
    assert note.emails == ()


def test_ingest_makes_no_email_edge(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Mail.md").write_text("# Mail\nSee www.site.com/gil@example.com for details.\n", encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Mail.md"])
    assert code == 0
    assert [edge for edge in shown["edges"] if edge["edge_type"] == "mentions_email"] == []
