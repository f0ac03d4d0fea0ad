"""A claim's evidence (and its certainty and source type) went into its line of the evidence pack as written, so an
evidence quoting "[[Acme]] confirmed it #urgent, see [the spec](Acme.md)" made the pack link to the note Acme and
carry the tag `urgent` once the vault was ingested: graph edges the research never claimed (its claims are edges of
their own). They are now written so they read as text — the brackets and `#` backslash-escaped, as CommonMark escapes
punctuation, a URL left clickable — as the pack's `sources_checked` entries are; the claim's own subject and object
stay the links they are."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.resolve import render_pack, validate_payload
from mnemon.core.vault.parser import parse_note

from conftest import FakeClock
from app.conftest import WORLD_T0

EVIDENCE = "[[Acme]] confirmed it #urgent, see [the spec](Acme.md) and ![[Acme]] at https://example.com/a#b"
CLAIM = {"subject": "Globex", "predicate": "acquired", "object": "Initech", "confidence": 0.95,
         "certainty": "confirmed", "source_type": "[[Acme]] #press", "evidence": EVIDENCE}


def test_a_claims_evidence_makes_no_link_or_tag_of_the_pack(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    for name in ("Acme", "Globex", "Initech"):
        (vault / f"{name}.md").write_text(f"# {name}\nA company.\n")
    mem = make_mem("hash", clock=FakeClock(WORLD_T0))
    mem.ingest(str(vault))
    mem.resolve(str(vault), {"title": "Acquisitions", "claims": [CLAIM]})
    text = (vault / "Sources" / "acquisitions.md").read_text()
    # a person still reads the evidence: escaped as CommonMark escapes it, the URL as written
    assert "\\[\\[Acme\\]\\] confirmed it \\#urgent, see \\[the spec\\](Acme.md)" in text
    assert "https://example.com/a#b" in text
    mem.ingest(str(vault))
    edges = mem.rt.store.vault.edges_touching(["note:Sources/acquisitions.md"])
    linked = {e.dst for e in edges if e.src == "note:Sources/acquisitions.md" and e.type != "has_tag"}
    tags = {e.dst for e in edges if e.type == "has_tag"}
    assert "note:Acme.md" not in linked and tags == {"tag:research"}
    assert {"note:Globex.md", "note:Initech.md"} <= linked  # the claim's own ends, linked as before
    [claim] = [e for e in mem.rt.store.vault.edges_touching(["note:Globex.md"]) if e.type == "acquired"]
    assert (claim.dst, claim.evidence) == ("note:Initech.md", EVIDENCE)  # the edge keeps the evidence as given


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(st.sampled_from("[]#!|^()Acme x/:.-_\\"), min_size=1, max_size=30))
def test_no_evidence_becomes_a_link_or_a_tag(text: str) -> None:
    claim = {"subject": "Globex", "predicate": "acquired", "object": "Initech", "evidence": text,
             "certainty": text, "source_type": text}
    note = parse_note("Sources/acquisitions.md", render_pack(validate_payload({"title": "Acq", "claims": [claim]}),
                                                             0.9))
    assert {link.target for link in note.wikilinks} == {"Globex", "Initech"} and note.markdown_links == ()
    assert {tag.name for tag in note.tags} <= {"research"}
