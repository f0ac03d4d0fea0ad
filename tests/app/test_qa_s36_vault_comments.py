"""Obsidian `%% comments %%` and HTML comments are hidden from a reader, and nothing inside them was parsed — but a
section memory kept their text: `search`, `recall` and `retrieve` found words a person hid (an inline
`%%codeword%%`, a multi-line block of private notes), and a pack showed them. A section's text is now what a reader
sees, line for line, so its `text_line` and the lines a pack cites are still the note's."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, strategies as st

from mnemon.app.memory import Mnemon

NOTE = """---
owner: Ana
---
# Alpha plan

Intro about the launch. %%secret zebrafish codeword%% visible tail.

## Tasks
- [ ] Ship the beta on 2026-03-02
- [ ] Review budget %% hidden [[Carol]] #hiddentag %%
%%
- [ ] Hidden task for [[Dave]] on 2026-05-05
secret platypus words
%%
- Risk: the vendor may slip, blocked by [[Legal]]
The quokka review follows the hidden block.

## Private
%% only a comment: nothing for anyone %%

## Later
<!-- an html walrus comment -->
The later part mentions the narwhal roadmap.
"""


def _ingest(mem: Mnemon, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "Plan.md").write_text(NOTE, encoding="utf-8")
    mem.ingest(str(vault), embed=False)


def _sections(mem: Mnemon) -> list:
    return [n for n in mem.rt.store.iter_nodes(kind="memory") if n.metadata.get("memory_kind") == "section"]


def test_no_hidden_word_is_found_by_search_recall_or_retrieve(mem: Mnemon, tmp_path: Path) -> None:
    _ingest(mem, tmp_path)
    for word in ("zebrafish", "platypus", "walrus", "hiddentag", "Dave", "Carol"):
        assert mem.search(word)["results"] == [], word
        assert not any(word.lower() in json.dumps(r).lower() for r in mem.recall(word)["results"]), word
        pack = mem.retrieve(word)
        assert word.lower() not in json.dumps(pack["items"]).lower(), word
    assert mem.search("visible tail")["results"]  # the words around a comment are still found
    assert mem.search("narwhal")["results"]


def test_a_section_holds_what_a_reader_sees(mem: Mnemon, tmp_path: Path) -> None:
    _ingest(mem, tmp_path)
    texts = {n.metadata["heading_path"][-1] if n.metadata["heading_path"] else "": n.content for n in _sections(mem)}
    assert texts["Alpha plan"] == "Intro about the launch. visible tail."
    assert "%%" not in texts["Tasks"] and "platypus" not in texts["Tasks"] and "Carol" not in texts["Tasks"]
    assert texts["Tasks"].splitlines()[1] == "- [ ] Review budget"
    assert "Private" not in texts  # a section that is only a comment holds nothing to find
    assert texts["Later"] == "The later part mentions the narwhal roadmap."


def test_pack_lines_still_cite_the_note(mem: Mnemon, tmp_path: Path) -> None:
    _ingest(mem, tmp_path)
    lines = NOTE.splitlines()
    for word, expected in (("quokka", "The quokka review"), ("narwhal", "The later part")):
        [item] = [i for i in mem.retrieve(f"{word}")["items"] if i.get("kind") == "section"]
        shown = item["text"].lstrip("…").splitlines()
        at = next(k for k, line in enumerate(shown) if word in line)
        assert lines[item["text_line"] - 1 + at].startswith(expected)


_PIECES = ["", "plain words", "%%", "%% hidden %%", "a %%b%% c", "<!--", "-->", "<!-- x -->", "## Head",
           "- item", "tail %%", "%% head"]


@given(st.lists(st.sampled_from(_PIECES), max_size=20))
def test_each_section_line_is_its_note_line_without_comments(lines: list[str]) -> None:
    from mnemon.app.vault.plan import plan_note
    from mnemon.core.vault.parser import blank_comments

    seen = blank_comments("\n".join(lines)).split("\n")  # each line as a reader sees it
    plan = plan_note("N.md", "\n".join(lines).encode(), 0.0, ())
    for node in plan.nodes:
        meta = json.loads(node.metadata)
        if meta.get("memory_kind") != "section" or "body_line" not in meta:
            continue
        for offset, shown in enumerate(node.content.split("\n")):
            assert shown.split() == seen[meta["body_line"] - 1 + offset].split()


def test_a_code_block_inside_a_comment_is_hidden_too() -> None:
    from mnemon.core.vault import parse_note

    text = "# N\n\nBefore.\n%%\n```\napi_key = hunter2\n```\n%%\nAfter.\n\n```\nkept = 1 %% not a comment\n```\n"
    [section] = parse_note("N.md", text).sections
    assert "hunter2" not in section.body and "```" not in section.body.split("After.")[0]
    assert "kept = 1 %% not a comment" in section.body  # a fence outside any comment is the note's text
