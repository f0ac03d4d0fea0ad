"""QA round (session 33): `forget` takes memories, not the nodes many notes share.

`mnemon graph` (and the workbench) shows tag, date, email and placeholder nodes by id, and `forget` took any of
them: `forget tag:person` retired every note's `has_tag` edge to the tag, and an ingest writes such a link again only
when its own note changes — the notes left as they were kept no link to the tag for good, a silent and lasting hole
from a command that says it soft-deletes a memory. Such a node is refused (`invalid_input`, nothing changed). A
note's own node or heading is still forgettable: like a forgotten bullet, it comes back when its note changes."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mnemon.app.memory import Mnemon
from mnemon.core.errors import InvalidInput

NOTES = {"one.md": "# One\n\n#person\n\nMeet ana@example.org on 2026-05-04 about [[Nowhere]].\n\n## Part\n\n"
                   "- waiting on the vendor reply about the pump\n",
         "two.md": "# Two\n\n#person\n\n- the lamp order ships in May\n"}


def _vault(tmp_path: Path) -> Path:
    vault = tmp_path / "vault"
    vault.mkdir()
    for name, text in NOTES.items():
        (vault / name).write_text(text)
    return vault


def _graph(m: Mnemon) -> tuple[dict[str, int], dict[str, int]]:
    stats = m.rt.store.stats()
    return stats["nodes_by_kind"], stats["edges_by_status"]


def _tag_links(m: Mnemon) -> list[tuple[str, str]]:
    return sorted((e.src, e.status) for e in m.rt.store.iter_edges() if e.dst == "tag:person")


def test_forget_refuses_a_node_notes_share_and_changes_nothing(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    mem.ingest(str(vault), embed=False)
    shared = {n.kind: n.id for n in mem.rt.store.iter_nodes(kind=None)
              if n.kind not in ("memory", "note", "heading")}
    assert {"tag", "date", "email", "placeholder"} <= set(shared)
    before, links = _graph(mem), _tag_links(mem)
    assert len(links) == 2
    for kind, node_id in sorted(shared.items()):
        with pytest.raises(InvalidInput) as refused:
            mem.forget(node_id)
        assert kind in refused.value.message and refused.value.details["kind"] == kind
    assert _graph(mem) == before and _tag_links(mem) == links
    assert mem.log(op="forget")["entries"] == []
    # one note edited: both notes still link to the tag (nothing was retired for the unchanged one to miss)
    (vault / "one.md").write_text(NOTES["one.md"] + "\nmore\n")
    mem.ingest(str(vault), embed=False)
    assert [src for src, _status in _tag_links(mem)] == ["note:one.md", "note:two.md"]
    assert {status for _src, status in _tag_links(mem)} == {links[0][1]}


def test_a_notes_own_heading_is_still_forgotten_and_back_when_the_note_changes(mem: Mnemon, tmp_path: Path) -> None:
    vault = _vault(tmp_path)
    mem.ingest(str(vault), embed=False)
    heading = next(n.id for n in mem.rt.store.iter_nodes(kind=None) if n.kind == "heading")
    assert mem.forget(heading)["status"] == "deleted"
    (vault / "one.md").write_text(NOTES["one.md"] + "\nmore\n")
    mem.ingest(str(vault), embed=False)
    assert mem.rt.store.get_node(heading) is not None


def test_cli_forget_of_a_tag_exits_non_zero_with_the_envelope(cli_run: Callable[..., tuple[int, Any]],
                                                            tmp_path: Path) -> None:
    code, _ = cli_run(["ingest", "--vault", str(_vault(tmp_path)), "--no-embed"])
    assert code == 0
    code, out = cli_run(["forget", "tag:person"])
    assert code == 1 and out["error"]["code"] == "invalid_input" and "tag" in out["error"]["message"]
    code, shown = cli_run(["show", "tag:person"])
    assert code == 0 and shown["id"] == "tag:person"
