"""A vault lived in over weeks, as a person lives in it between ingests: case-only renames (`a.md` → `A.md`), notes
emptied, saved in another encoding, turned into a folder of the same name, symlink loops, a `--max-notes` or an
`--append` run now and then. After each full run the store holds what one fresh ingest of the final vault holds —
every node's text, title and metadata, every edge's values — but for the edges a person decided, which stay
decided (`test_vault_incremental_decisions.py` holds the same differential over plain edits, renames and moves).

Partial runs (`--max-notes`, `--append`) are allowed to leave the store behind; the next full run must catch up."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from .test_vault_incremental_decisions import PATHS, _decide, _graph, _note, _put, _without


def _notes(vault: Path) -> list[str]:
    return sorted(str(p.relative_to(vault)) for p in vault.rglob("*.md") if p.is_file() and not p.is_symlink())


def _edit(r: random.Random, vault: Path) -> str:
    """A plain edit: a note written, rewritten, renamed or deleted; what it was."""
    have, rel = _notes(vault), r.choice(PATHS)
    if not have or r.random() < 0.3:
        if not (vault / rel).is_dir():
            _put(vault, rel, _note(r))
        return f"write {rel}"
    old = r.choice(have)
    if r.random() < 0.4 and not (vault / rel).exists():
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / old).rename(vault / rel)
        return f"rename {old} {rel}"
    if r.random() < 0.5:
        (vault / old).unlink()
        return f"delete {old}"
    _put(vault, old, _note(r))
    return f"rewrite {old}"


def _live(r: random.Random, vault: Path) -> str:
    """One thing a person does to the vault that plain edits do not; what it was."""
    have = _notes(vault)
    rel = r.choice(have) if have else r.choice(PATHS)
    target, choice = vault / rel, r.randrange(6)
    if choice == 0 and target.is_file():  # only the case of its name changes
        swapped = target.with_name(target.stem.swapcase() + target.suffix)
        if not swapped.exists():
            target.rename(swapped)
    elif choice == 1 and target.is_file():
        target.write_bytes(b"")
    elif choice == 2 and not target.is_dir():  # saved as Windows-1252 (or Latin-1) by another editor
        _put(vault, rel, "")
        target.write_bytes(f"# Caf\xe9\nna\xefve [[{r.choice(('Ada', 'Plan', 'Bob'))}]]\n".encode("cp1252"))
    elif choice == 3:  # the note becomes a folder of the same name, holding notes
        if target.is_file():
            target.unlink()
        _put(vault, f"{rel}/inside.md", _note(r))
    elif choice == 4 and not (vault / "loop").is_symlink():
        (vault / "loop").symlink_to(vault)
        (vault / "loop1.md").symlink_to(vault / "loop2.md")
        (vault / "loop2.md").symlink_to(vault / "loop1.md")
    elif choice == 5 and target.is_dir():  # and back into a note
        shutil.rmtree(target)
        _put(vault, rel, _note(r))
    return f"{('case', 'empty', 'cp1252', 'folder', 'symlinks', 'unfolder')[choice]} {rel}"


@pytest.mark.parametrize("seed", range(8))
def test_a_vault_lived_in_leaves_the_graph_a_fresh_ingest_builds(make_mem, tmp_path: Path, seed: int) -> None:
    r = random.Random(seed)
    vault = tmp_path / "vault"
    for rel in r.sample(PATHS, 4):
        _put(vault, rel, _note(r))
    mem = make_mem("none")
    mem.ingest(str(vault), embed=False)
    decided: dict[int, str] = {}
    history: list[str] = []
    for step in range(4):
        _decide(r, mem, decided)
        history.append(_live(r, vault))
        if r.random() < 0.6:
            history.append(_edit(r, vault))
        partial = r.choice((None, None, {"max_notes": 2}, {"mode": "append"}))
        if partial:
            mem.ingest(str(vault), embed=False, follow_symlinks=True, **partial)
            history.append(str(partial))
        mem.ingest(str(vault), embed=False, follow_symlinks=True, allow_empty=True)
        for edge_id, action in decided.items():  # a kill or a validation is never lost
            edge = mem.rt.store.get_edge(edge_id)
            if action in ("kill", "validate"):
                assert edge is not None and edge.status == ("killed" if action == "kill" else "active"), history
        fresh = make_mem("none", db=tmp_path / f"fresh{step}.db")
        fresh.ingest(str(vault), embed=False, follow_symlinks=True, allow_empty=True)
        ours, theirs = _graph(mem), _graph(fresh)
        fresh.close()
        keys = {e[:3] for e in ours[1] if e[6] == "killed" or e[4] < e[5] or '"validated": true' in e[11]}
        assert _without(ours, keys) == _without(theirs, keys), (seed, history)
