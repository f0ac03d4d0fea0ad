"""What a re-ingest costs after the changes people make to a vault: edits, a retitled or moved note, a renamed
folder, deleted and added notes, the whole vault moved to another folder, other proactive hints (every note planned
again, as after an upgrade that changes the planner). Prints one JSON document.

The 2,000-note benchmark vault (`bench_vault.make_vault`) is ingested once without embeddings; each change then
starts from a copy of that store and vault, is made, and the next ingest is timed (median of `--repeat` runs, each
from a fresh copy), with the notes it read, removed and relinked, and the ingest after it (nothing changed).

    PYTHONPATH=src python benchmarks/bench_vault_changes.py [--notes 2000] [--repeat 1] [--only rename_folder,...]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_vault import _open, make_vault  # noqa: E402

from mnemon.app.vault.ingest import ingest_vault  # noqa: E402


def _notes(vault: Path) -> list[Path]:
    return sorted(vault.rglob("*.md"))


def _edit(count: int) -> Callable[[Path], Path]:
    def change(vault: Path) -> Path:
        for note in random.Random(3).sample(_notes(vault), count):
            note.write_text(note.read_text(encoding="utf-8") + "\n- [ ] New task blocked by review\n", encoding="utf-8")
        return vault
    return change


def _retitle(vault: Path) -> Path:
    note = _notes(vault)[5]
    text = note.read_text(encoding="utf-8")
    title = text.split("title: ", 1)[1].split("\n", 1)[0]
    note.write_text(text.replace(f"title: {title}", f"title: {title} Renamed"), encoding="utf-8")
    return vault


def _move_note(vault: Path) -> Path:
    note = _notes(vault)[5]
    note.rename(note.with_name("moved-" + note.name))
    return vault


def _rename_folder(vault: Path) -> Path:
    (vault / "People").rename(vault / "Persons")  # a sixth of the notes: each note's id names its folder
    return vault


def _delete(count: int) -> Callable[[Path], Path]:
    def change(vault: Path) -> Path:
        for note in _notes(vault)[100:100 + count]:
            note.unlink()
        return vault
    return change


def _add(count: int) -> Callable[[Path], Path]:
    def change(vault: Path) -> Path:
        (vault / "New").mkdir()
        for i in range(count):
            (vault / "New" / f"new-{i}.md").write_text(
                f"# New {i}\n\n- [ ] Call the supplier about the badge order\n- Blocked by the budget review\n",
                encoding="utf-8")
        return vault
    return change


def _move_vault(vault: Path) -> Path:
    moved = vault.with_name("vault-moved")
    vault.rename(moved)  # the same bytes, sizes and mtimes under another folder
    return moved


CHANGES: dict[str, Callable[[Path], Path]] = {
    "edit_20_notes": _edit(20), "edit_500_notes": _edit(500), "retitle_one_note": _retitle,
    "move_one_note": _move_note, "rename_folder": _rename_folder, "delete_1_note": _delete(1), "delete_10_notes": _delete(10),
    "delete_100_notes": _delete(100), "add_50_notes": _add(50), "move_the_vault": _move_vault,
    "other_hints": lambda vault: vault,
}
# the change that is no file's: other proactive hints (or a new mnemon's planner) plan every note again
HINTS = {"other_hints": ("battery", "vendor")}


def run(notes: int, repeat: int, only: list[str]) -> dict[str, object]:
    work = Path(tempfile.mkdtemp(prefix="mnemon-bench-changes-"))
    try:
        base_vault, base_home = work / "base" / "vault", work / "base" / "home"
        make_vault(base_vault, notes)
        mem = _open(base_home / "mnemon.db", "none")
        t = time.perf_counter()
        ingest_vault(mem.rt, base_vault)
        cold_s = time.perf_counter() - t
        mem.close()
        results: dict[str, object] = {}
        for name in only or list(CHANGES):
            times: list[float] = []
            out: dict[str, object] = {}
            after: list[float] = []
            for r in range(repeat):
                run_dir = work / f"{name}{r}"
                shutil.copytree(base_vault, run_dir / "vault")
                shutil.copytree(base_home, run_dir / "home")
                # the store remembers the vault's folder: a copy of the store is a store of the copied vault
                mem = _open(run_dir / "home" / "mnemon.db", "none")
                with mem.rt.store.transaction():
                    mem.rt.store.vault.set_state("root", os.path.realpath(run_dir / "vault"))
                vault = CHANGES[name](run_dir / "vault")
                t = time.perf_counter()
                got = ingest_vault(mem.rt, vault, hints=HINTS.get(name))
                times.append(time.perf_counter() - t)
                t = time.perf_counter()
                ingest_vault(mem.rt, vault, hints=HINTS.get(name))
                after.append(time.perf_counter() - t)
                out = {k: got.get(k) for k in ("notes_read", "notes_removed", "notes_relinked", "notes_total")}
                mem.close()
                shutil.rmtree(run_dir)
            results[name] = {"ingest_ms": round(statistics.median(times) * 1000, 1),
                             "next_ingest_ms": round(statistics.median(after) * 1000, 1), **out}
        return {"benchmark": "vault_changes", "notes": notes, "repeat": repeat, "cpu_count": os.cpu_count(),
                "cold_ingest_s": round(cold_s, 2), "load_average_1m": round(os.getloadavg()[0], 2),
                "changes": results}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only", default="", help=f"comma-separated: {', '.join(CHANGES)}")
    args = parser.parse_args()
    only = [name for name in args.only.split(",") if name]
    unknown = [name for name in only if name not in CHANGES]
    if unknown:
        parser.error(f"unknown change(s): {', '.join(unknown)}")
    print(json.dumps(run(args.notes, args.repeat, only), indent=2))


if __name__ == "__main__":
    main()
