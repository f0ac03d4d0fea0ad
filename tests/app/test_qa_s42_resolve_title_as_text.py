"""A research titled "[[Acme]] pricing #urgent" wrote that title into its evidence pack as Markdown — the front matter's
`title:` (whose wikilinks the parser reads, as Obsidian draws a property's links) and the `# H1` line — so the ingested
pack linked to the note Acme and carried the tag `urgent`, edges the research never claimed. The H1 is now written
as text (brackets and `#` escaped, as a claim's evidence is) and the front matter title with its brackets as YAML
escapes: the note's title is still the research's, exactly. A pack written before, with the old H1, is not taken
for a line of the person's when the research is resolved again."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mnemon.app.memory import Mnemon
from mnemon.app.vault.pack_status import pack_line
from mnemon.app.vault.resolve import render_pack, validate_payload
from mnemon.core.vault.parser import parse_note

from conftest import FakeClock
from app.conftest import WORLD_T0

TITLE = "[[Acme]] pricing #urgent"
CLAIM = {"subject": "Globex", "predicate": "buys_from", "object": "Initech", "confidence": 0.95,
         "certainty": "confirmed", "source_type": "email", "evidence": "the order"}
PACK = "Sources/pricing.md"


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir()
    for name in ("Acme", "Globex", "Initech"):
        (vault / f"{name}.md").write_text(f"# {name}\nA company.\n")
    return vault


def test_a_title_makes_no_link_or_tag_of_the_pack(make_mem: Callable[..., Mnemon], tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    mem = make_mem("hash", clock=FakeClock(WORLD_T0))
    mem.ingest(str(vault))
    mem.resolve(str(vault), {"title": TITLE, "slug": "pricing", "claims": [CLAIM]})
    text = (vault / PACK).read_text()
    assert "# \\[\\[Acme\\]\\] pricing \\#urgent" in text.split("\n")  # a person still reads the title
    mem.ingest(str(vault))
    edges = mem.rt.store.vault.edges_touching([f"note:{PACK}"])
    linked = {e.dst for e in edges if e.src == f"note:{PACK}" and e.type != "has_tag"}
    assert "note:Acme.md" not in linked and {"note:Globex.md", "note:Initech.md"} <= linked
    assert {e.dst for e in edges if e.type == "has_tag"} == {"tag:research"}
    assert mem.rt.store.vault.files()[PACK].title == TITLE  # the note is still called what the research is


def test_a_pack_with_the_earlier_title_line_is_rewritten_without_a_second_title(make_mem: Callable[..., Mnemon],
                                                                                tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    mem = make_mem("hash", clock=FakeClock(WORLD_T0))
    mem.ingest(str(vault))
    research = {"title": TITLE, "slug": "pricing", "claims": [CLAIM]}
    mem.resolve(str(vault), research)
    pack = vault / PACK
    lines = pack.read_text().split("\n")
    heading = next(i for i, line in enumerate(lines) if line.startswith("# "))
    lines[heading] = f"# {pack_line(TITLE)}"  # as resolve wrote it before the title was escaped
    pack.write_text("\n".join(lines))
    out = mem.resolve(str(vault), research)
    assert "kept_lines" not in out  # the earlier H1 was resolve's, not a line of the person's
    assert [line for line in pack.read_text().split("\n") if line.startswith("# ")] == [
        "# \\[\\[Acme\\]\\] pricing \\#urgent"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=st.text(st.sampled_from("[]#!|^()Acme x/:.-_\\\"'"), min_size=1, max_size=30).filter(str.strip))
def test_no_title_becomes_a_link_or_a_tag(title: str) -> None:
    note = parse_note(PACK, render_pack(validate_payload({"title": title, "slug": "p", "claims": [CLAIM]}), 0.9))
    assert {link.target for link in note.wikilinks} == {"Globex", "Initech"} and note.markdown_links == ()
    assert {tag.name for tag in note.tags} == {"research"}
    assert note.title == title.strip()
