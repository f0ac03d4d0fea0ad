"""What a Logseq block carries that Logseq does not show: its `id:: 64a1…` and `collapsed:: true` lines were in the
section's text (and so in the keyword index: a search for the uuid's pieces found the page), and a reference
`((64a1…))` to a block of the same page stayed a raw uuid in the item's text where Logseq shows the block's text.
Now the hidden properties are left out of the text and a reference to a block of the note reads as that block; one to
a block elsewhere stays as written."""
from __future__ import annotations

from mnemon.core.vault import parse_note
from mnemon.core.vault.logseq import LogseqGraph

UUID = "64a1c2d3-1111-4222-8333-444455556666"
OTHER = "64a1c2d3-1111-4222-8333-999999999999"
PAGE = f"""- Kickoff with [[Ada Quill]]
  id:: {UUID}
  collapsed:: true
\t- Budget approved
\t  owner:: Ada
- See (({UUID.upper()})) for the decision
- Elsewhere (({OTHER}))
- ```
  id:: {UUID}
  ```
"""


def test_hidden_block_properties_are_no_text_and_a_reference_reads_as_its_block() -> None:
    note = parse_note("pages/Falcon.md", PAGE, logseq=LogseqGraph())
    body = note.sections[0].body
    assert "collapsed::" not in body and body.count(UUID) == 1  # (the one in the code block: code is as written)
    assert "owner:: Ada" in body  # (a property Logseq shows)
    assert (note.sections[0].line_start, note.sections[0].line_end) == (1, 10)
    assert [item.text for item in note.list_items][2:4] == ["See Kickoff with [[Ada Quill]] for the decision",
                                                            f"Elsewhere (({OTHER}))"]
    assert f"See Kickoff with [[Ada Quill]] for the decision" in body
    assert [link.target for link in note.wikilinks] == ["Ada Quill"]  # (the reference is no second link)


def test_a_plain_vault_keeps_its_text() -> None:
    note = parse_note("Falcon.md", PAGE)
    assert "collapsed:: true" in note.sections[0].body and f"See (({UUID.upper()}))" in note.sections[0].body
