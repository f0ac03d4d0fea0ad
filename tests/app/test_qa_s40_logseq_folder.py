"""A Logseq graph keeps its own files in `logseq/` beside the notes: `config.edn`, and Markdown copies of pages in
`logseq/bak/` (what a conflicting write replaced) and `logseq/version-files/`. They were ingested as notes: a recall
for "vendor contract" answered the page's task twice, once from a backup named
`logseq/bak/pages/Falcon/2026-03-01T10_00_00.000Z.Desktop.md`. In a graph (a `logseq/config.edn` at the top) that
folder is now passed over (`logseq_folder`); a folder named `logseq` in a vault without the file is ingested."""
from __future__ import annotations

from pathlib import Path

from mnemon.app.memory import Mnemon

from app.test_vault_incremental import _write

PAGE = "- TODO Draft the vendor contract before the deadline\n"


def _graph(root: Path) -> Path:
    _write(root, {"pages/Falcon.md": PAGE, "logseq/config.edn": "{:meta/version 1}\n",
                  "logseq/bak/pages/Falcon/2026-03-01T10_00_00.000Z.Desktop.md": PAGE,
                  "logseq/version-files/base/pages_Falcon.md": PAGE})
    return root


def test_a_graphs_logseq_folder_is_passed_over(mem: Mnemon, tmp_path: Path) -> None:
    out = mem.ingest(str(_graph(tmp_path / "graph")), embed=False)
    assert out["notes_total"] == 1
    assert {"path": "logseq", "reason": "logseq_folder"} in out["skipped"]
    sources = {m.source for m in mem.rt.store.iter_nodes(kind="memory")}
    assert sources == {"vault:pages/Falcon.md"}


def test_a_folder_named_logseq_without_the_config_is_ingested(mem: Mnemon, tmp_path: Path) -> None:
    root = _graph(tmp_path / "vault")
    (root / "logseq" / "config.edn").unlink()
    out = mem.ingest(str(root), embed=False)
    assert out["notes_total"] == 3 and not [s for s in out["skipped"] if s["reason"] == "logseq_folder"]
