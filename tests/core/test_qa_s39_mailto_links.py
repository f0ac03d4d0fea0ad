"""A Markdown link to a ``mailto:`` address names that address, as the autolink ``<mailto:…>`` does: '[Write
Eve](mailto:eve@example.com)' gave no mentions_email edge ('mnemon show note:Mail.md' listed fay's, from
'<mailto:fay@example.com>', and not eve's), because a link's destination is blanked so its '@' or digits are not
read. Other destinations stay blanked."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from mnemon.core.vault.parser import parse_note


def test_a_mailto_link_names_its_address() -> None:
    note = parse_note("Mail.md", "Please [Write Eve](mailto:Eve@Example.com?subject=Hi) and <mailto:fay@example.com>"
                                 " or [Gil](<mailto:gil@example.com>) but not [site](https://x.example/a@b.com).\n")
    assert [(email.address, email.line) for email in note.emails] == [
        ("eve@example.com", 1), ("fay@example.com", 1), ("gil@example.com", 1)]


def test_a_reference_definition_to_a_mailto_address_names_it() -> None:
    note = parse_note("Mail.md",
                      "Ask [Hal][hal].\n\n[hal]: mailto:hal@example.com \"Hal\"\n[web]: https://a@b.example\n")
    assert [email.address for email in note.emails] == ["hal@example.com"]


def test_ingest_makes_an_email_edge_for_the_link(cli_run: Callable[..., tuple[int, Any]], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Mail.md").write_text("# Mail\n[Write Eve](mailto:eve@example.com) and <mailto:fay@example.com>.\n",
                                   encoding="utf-8")
    assert cli_run(["ingest", "--vault", vault, "--no-embed"])[0] == 0
    code, shown = cli_run(["show", "note:Mail.md"])
    assert code == 0
    assert sorted(edge["target_id"] for edge in shown["edges"] if edge["edge_type"] == "mentions_email") == [
        "email:eve@example.com", "email:fay@example.com"]
