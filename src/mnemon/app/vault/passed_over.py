"""What a walk of the vault passes over, one rule for ingest and the note tools: hidden names, `SKIP_DIRS`, the
folders Obsidian's settings name as holding templates, and a Logseq graph's own `logseq/` folder (its settings, and
Markdown copies of pages in `bak/` and `version-files/`).

A listing that showed what ingest never reads, or a move that rewrote links in it, disagreed with the graph: `note
list` listed Logseq's backups as notes, and `note move` rewrote links inside them, files the user never named.
Kept free of the store layer: the note editor imports it for a file listing."""
from __future__ import annotations

import json
import os

from ...core.vault.logseq import LogseqGraph, graph_settings

SKIP_DIRS = frozenset({".git", "node_modules", ".obsidian", ".trash"})
# a Logseq graph's own folder, beside its pages and journals: its settings, and Markdown copies of pages in `bak/` and
# `version-files/` (a recall answered a page's task again from each backup of it)
LOGSEQ_FOLDER = "logseq"
LOGSEQ_CONFIG = f"{LOGSEQ_FOLDER}/config.edn"
# where Obsidian's Templates core plugin and the Templater plugin keep their templates: (settings file, key)
_TEMPLATE_SETTINGS = ((".obsidian/templates.json", "folder"),
                      (".obsidian/plugins/templater-obsidian/data.json", "templates_folder"))


def templates_folders(root: str) -> frozenset[str]:
    """The vault-relative folders the vault's Obsidian settings name as holding templates: scaffolding whose
    placeholder tasks ("Follow up with {{client}}") read as the vault's most urgent open loops."""
    found: set[str] = set()
    for settings, key in _TEMPLATE_SETTINGS:
        try:
            with open(os.path.join(root, settings), encoding="utf-8") as handle:
                folder = json.load(handle).get(key)
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(folder, str) and (folder := folder.strip().strip("/")) and ".." not in folder.split("/"):
            found.add(folder)
    return frozenset(found)


def logseq_graph(root: str) -> LogseqGraph | None:
    """The settings of the Logseq graph `root` is (its `logseq/config.edn`), None when it is no graph."""
    try:
        with open(os.path.join(root, LOGSEQ_CONFIG), encoding="utf-8", errors="replace") as handle:
            return graph_settings(handle.read(1_000_000))
    except OSError:
        return None


def passed_over_folders(root: str) -> dict[str, str]:
    """The vault-relative folders of `root` a walk passes over with a word, and why (`templates_folder`,
    `logseq_folder`); the hidden names and `SKIP_DIRS` are passed over without one."""
    folders = {folder: "templates_folder" for folder in templates_folders(root)}
    if os.path.isfile(os.path.join(root, LOGSEQ_CONFIG)):
        folders[LOGSEQ_FOLDER] = "logseq_folder"
    return folders


def passed_over(rel: str, folders: dict[str, str]) -> bool:
    """Whether a walk passes over the note at the vault path `rel`, `folders` being the vault's
    `passed_over_folders`."""
    parts = rel.split("/")
    if parts[-1].startswith(".") or any(p in SKIP_DIRS or p.startswith(".") for p in parts[:-1]):
        return True
    return any("/".join(parts[:end]) in folders for end in range(1, len(parts)))
