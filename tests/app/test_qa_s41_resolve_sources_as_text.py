"""`sources_checked` (and `unresolved`) entries went into the evidence pack as written, so "[[Acme]] site" became a
link to the note Acme and "#secret" a tag once the vault was ingested: a research's list of what it read made graph
edges nobody claimed. They are now written so they read as text (the brackets and `#` backslash-escaped, as
CommonMark escapes punctuation) while a URL stays as written, clickable."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.resolve import render_pack, validate_payload
from mnemon.core.vault.parser import parse_note

from conftest import FakeClock

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
SOURCES = ["[[Acme]] company site", "#secret tag", "https://example.com/a#frag?q=[1]", "![[Acme]] embedded",
           "[Spec](Acme.md) and [[Acme|the supplier]]"]
CLAIM = {"subject": "Globex", "predicate": "acquired", "object": "Initech", "confidence": 0.95,
         "certainty": "confirmed", "source_type": "web", "evidence": "press release"}


@pytest.fixture
def mem(make_mem: Callable[..., Mnemon]) -> Mnemon:
    return make_mem("hash", clock=FakeClock(T0))


def test_sources_read_as_text_and_make_no_edge(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Acme.md").write_text("# Acme\nSupplier.\n")
    mem.ingest(str(vault))
    mem.resolve(str(vault), {"title": "Acquisitions", "claims": [CLAIM], "sources_checked": SOURCES,
                             "unresolved": ["is [[Acme]] involved? #open"]})
    text = (vault / "Sources" / "acquisitions.md").read_text()
    assert "- https://example.com/a#frag?q=[1]" in text  # the URL as written: clickable
    assert "\\[\\[Acme\\]\\] company site" in text and "\\#secret tag" in text
    mem.ingest(str(vault))
    edges = mem.rt.store.vault.edges_touching(["note:Sources/acquisitions.md"])
    assert not [e for e in edges if e.dst == "note:Acme.md" or (e.type == "has_tag" and e.dst != "tag:research")]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entry=st.text(st.sampled_from("[]#!|^()Acme x/:.-_"), min_size=1, max_size=30))
def test_no_entry_becomes_a_link_or_a_tag(entry: str) -> None:
    data = validate_payload({"title": "Acquisitions", "claims": [], "sources_checked": [entry], "unresolved": [entry]})
    note = parse_note("Sources/acquisitions.md", render_pack(data, 0.9))
    assert (note.wikilinks, note.markdown_links) == ((), ())
    assert {tag.name for tag in note.tags} <= {"research"}  # (the pack's own tag, in its front matter)


def test_a_pack_written_before_the_escaping_is_rewritten_without_its_old_lines(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    payload = {"title": "Acquisitions", "claims": [CLAIM], "sources_checked": ["[[Acme]] company site"]}
    mem.resolve(str(vault), payload)
    pack = vault / "Sources" / "acquisitions.md"
    pack.write_text(pack.read_text().replace("\\[\\[Acme\\]\\]", "[[Acme]]"))  # as an earlier release wrote it
    out = mem.resolve(str(vault), payload)
    assert "kept_lines" not in out and "[[Acme]]" not in pack.read_text().split("<!--")[0]
