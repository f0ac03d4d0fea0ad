"""A forgotten vault note that comes back because it was edited brings back the links other notes make to it.

`mnemon forget note:Projects/harbour-station.md`, then a line appended to that note and `mnemon ingest`: the note
came back, but the links to it from the other, unchanged notes stayed retired (a link is written by the note that
links, and an unchanged note is not read). The edit's read now reads those linking notes too, as `forget --undo`
does; their own forgotten rows stay forgotten."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from mnemon.app.memory import Mnemon

NOTE = "Projects/harbour-station.md"
NOTE_ID = f"note:{NOTE}"


def _incoming(m: Mnemon) -> set[tuple[Any, ...]]:
    """The live links to the note from other notes' rows."""
    edges = m.rt.store.edges_of([NOTE_ID], statuses=("active", "candidate"), direction="in")
    return {(e.src, e.type, e.status) for e in edges if f":{NOTE}" not in e.src}


def test_an_edited_forgotten_note_comes_back_with_the_links_to_it(make_mem: Callable[..., Mnemon],
                                                                   example_vault: Path) -> None:
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    before = _incoming(m)
    assert before
    m.forget(NOTE_ID)
    assert _incoming(m) == set()
    with (example_vault / NOTE).open("a", encoding="utf-8") as fh:
        fh.write("\n- Crane inspection moved to Thursday\n")
    m.ingest(str(example_vault), embed=False)
    assert m.rt.store.get_node(NOTE_ID) is not None
    assert _incoming(m) == before


def test_a_forgotten_row_of_a_linking_note_stays_forgotten(make_mem: Callable[..., Mnemon],
                                                          example_vault: Path) -> None:
    m = make_mem()
    m.ingest(str(example_vault), embed=False)
    linking = sorted({src for src, _t, _s in _incoming(m)})
    other = next(n.id for n in m.rt.store.iter_nodes(kind="memory")
                 if n.source.startswith("vault:") and any(n.id.startswith(f"vault:{src[5:]}:") for src in linking
                                                          if src.startswith("note:")))
    m.forget(other)
    m.forget(NOTE_ID)
    with (example_vault / NOTE).open("a", encoding="utf-8") as fh:
        fh.write("\n- Crane inspection moved to Thursday\n")
    m.ingest(str(example_vault), embed=False)
    assert m.rt.store.get_node(NOTE_ID) is not None
    assert m.rt.store.get_node(other) is None
