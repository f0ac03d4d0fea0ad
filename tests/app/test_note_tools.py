"""The vault-level note commands: list, search, search-content, daily, move (with link rewriting), delete, status —
path safety for each, backups, dry runs that write nothing, and a moved note's links resolving in the graph."""
from __future__ import annotations

import json
import os
import posixpath
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from mnemon.app import daily_notes, note_links, note_tools, notes
from mnemon.core.errors import Conflict, InvalidInput, NotFound, PathRefused

CLOCK = lambda: datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)  # noqa: E731

ONE = """---
related: "[[alpha]]"
---
# One

Wikilinks: [[alpha]], [[alpha#Status|the status]], ![[alpha]], [[Projects/alpha]], [[Projects/alpha.md#Status]].
Markdown: [a](../Projects/alpha.md), [b](../Projects/alpha.md#status), [c](/Projects/alpha.md), [d](<../Projects/alpha.md>)
By alias: [[Project A]] and by title: [[Gamma Title]].
Code is left alone: `[[alpha]]` and `[x](../Projects/alpha.md)`

```md
[[alpha]] [x](../Projects/alpha.md)
```
"""
TWO = "# Two\n\n| who | link |\n|---|---|\n| a | [[alpha\\|A]] |\n\nAlso [[alpha|Alpha]] and [[beta]].\n"
ALPHA = """---
aliases: [Project A]
---
Alpha has no heading, so its title is its file name.

## Status

Self: [[alpha#Status]]. Sibling: [one](../Notes/one.md). Picture: ![pic](img/p.png). Site: [w](https://x.org/a.md)
"""


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    _write(root, "Projects/alpha.md", ALPHA)
    _write(root, "Notes/one.md", ONE)
    _write(root, "Notes/two.md", TWO)
    _write(root, "Areas/beta.md", "# Beta\n\nNothing links out.\n")
    _write(root, "Areas/gamma.md", "# Gamma Title\n\nBy title.\n")
    return root


def _snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {str(p.relative_to(root)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.md").write_text("# Secret\n[[alpha]]\n", encoding="utf-8")
    return outside


# ── list / search / search-content ─────────────────────────────────────────────────────────────────────────────
def test_list_gives_titles_aliases_and_counts(vault: Path) -> None:
    out = note_tools.list_notes(vault)
    assert out["count"] == out["total"] == 5 and not out["truncated"]
    by_path = {n["path"]: n for n in out["notes"]}
    assert by_path["Projects/alpha.md"]["title"] == "alpha" and by_path["Projects/alpha.md"]["aliases"] == ["Project A"]
    assert by_path["Areas/gamma.md"]["title"] == "Gamma Title"
    assert [n["path"] for n in note_tools.list_notes(vault, "Areas")["notes"]] == ["Areas/beta.md", "Areas/gamma.md"]
    assert {n["path"] for n in note_tools.list_notes(vault, pattern="*A.md")["notes"]} == {  # case-insensitive
        "Projects/alpha.md", "Areas/beta.md", "Areas/gamma.md"}
    assert {n["path"] for n in note_tools.list_notes(vault, pattern="notes/*")["notes"]} == {"Notes/one.md",
                                                                                             "Notes/two.md"}
    limited = note_tools.list_notes(vault, sort="size", limit=2)
    assert limited["count"] == 2 and limited["total"] == 5 and limited["truncated"]
    assert limited["notes"][0]["bytes"] >= limited["notes"][1]["bytes"]


def test_list_skips_backups_hidden_folders_and_symlinks(vault: Path, tmp_path: Path) -> None:
    notes.write_note(vault, "Areas/beta.md", "more\n", clock=CLOCK)  # makes a backup
    _write(vault, ".obsidian/x.md", "hidden")
    outside = _outside(tmp_path)
    (vault / "linked").symlink_to(outside, target_is_directory=True)
    (vault / "secret.md").symlink_to(outside / "secret.md")
    paths = [n["path"] for n in note_tools.list_notes(vault)["notes"]]
    assert paths == sorted(paths) and len(paths) == 5
    assert not any(p.startswith((".", "linked")) or p == "secret.md" for p in paths)


@pytest.mark.parametrize("folder", ["../", "..", "/etc", "Notes/../..", "~", ".mnemon-backups"])
def test_every_folder_argument_is_path_checked(vault: Path, folder: str) -> None:
    for call in (lambda: note_tools.list_notes(vault, folder),
                 lambda: note_tools.search_notes(vault, "alpha", folder=folder),
                 lambda: note_tools.search_content(vault, "alpha", folder=folder)):
        with pytest.raises(PathRefused):
            call()


def test_symlinked_folder_is_refused_and_missing_folder_is_not_found(vault: Path, tmp_path: Path) -> None:
    (vault / "linked").symlink_to(_outside(tmp_path), target_is_directory=True)
    for call in (lambda: note_tools.list_notes(vault, "linked"),
                 lambda: note_tools.search_notes(vault, "secret", folder="linked"),
                 lambda: note_tools.search_content(vault, "alpha", folder="linked")):
        with pytest.raises(PathRefused):
            call()
    with pytest.raises(NotFound):
        note_tools.list_notes(vault, "Nope")


def test_search_matches_names_titles_and_aliases_best_first(vault: Path) -> None:
    _write(vault, "Archive/alpha-old.md", "old")
    out = note_tools.search_notes(vault, "alpha")
    assert [m["path"] for m in out["matches"]] == ["Projects/alpha.md", "Archive/alpha-old.md"]
    assert out["matches"][0]["matched"] == "name" and out["count"] == 2
    by_title = note_tools.search_notes(vault, "gamma title")["matches"]
    assert by_title[0]["path"] == "Areas/gamma.md" and by_title[0]["matched"] in ("title", "name")
    by_alias = note_tools.search_notes(vault, "project a")["matches"]
    assert by_alias[0]["matched"] == "alias" and by_alias[0]["alias"] == "Project A"
    assert note_tools.search_notes(vault, "ALPHA_old")["matches"][0]["path"] == "Archive/alpha-old.md"
    assert note_tools.search_notes(vault, "zebra")["count"] == 0
    with pytest.raises(InvalidInput):
        note_tools.search_notes(vault, "  ")


def test_search_content_is_literal_capped_over_the_vault_and_gives_context(vault: Path) -> None:
    out = note_tools.search_content(vault, "[[alpha", max_results=3, context=1)
    assert out["count"] == 3 and out["truncated"] and out["regex"] is False
    first = out["matches"][0]
    assert first["path"] == "Notes/one.md" and first["line"] == 2 and len(first["before"]) == 1
    assert note_tools.search_content(vault, "-v")["count"] == 0  # an option to grep, text here
    assert note_tools.search_content(vault, "nothing LINKS", case_sensitive=True)["count"] == 0
    assert note_tools.search_content(vault, "nothing LINKS")["matches"][0]["path"] == "Areas/beta.md"
    regex = note_tools.search_content(vault, r"^# (Beta|Gamma)", regex=True, context=0)
    assert [m["path"] for m in regex["matches"]] == ["Areas/beta.md", "Areas/gamma.md"]
    assert regex["matches"][0]["before"] == [] and regex["files"] == 2
    with pytest.raises(InvalidInput):
        note_tools.search_content(vault, "(", regex=True)
    with pytest.raises(InvalidInput):
        note_tools.search_content(vault, "x", max_results=0)


# ── move ───────────────────────────────────────────────────────────────────────────────────────────────────────
def test_move_rewrites_every_kind_of_link_and_leaves_code_alone(vault: Path) -> None:
    out = note_tools.move_note(vault, "Projects/alpha.md", "Archive/2025/omega.md", clock=CLOCK)
    assert out["moved"] and not (vault / "Projects/alpha.md").exists()
    one = (vault / "Notes/one.md").read_text(encoding="utf-8")
    assert 'related: "[[omega]]"' in one
    assert ("Wikilinks: [[omega]], [[omega#Status|the status]], ![[omega]], [[Archive/2025/omega]], "
            "[[Archive/2025/omega.md#Status]].") in one
    assert ("Markdown: [a](../Archive/2025/omega.md), [b](../Archive/2025/omega.md#status), [c](/Archive/2025/omega.md),"
            " [d](<../Archive/2025/omega.md>)") in one
    assert "By alias: [[Project A]] and by title: [[Gamma Title]]." in one  # still resolve: untouched
    assert "`[[alpha]]` and `[x](../Projects/alpha.md)`" in one
    assert "```md\n[[alpha]] [x](../Projects/alpha.md)\n```" in one
    two = (vault / "Notes/two.md").read_text(encoding="utf-8")
    assert "| a | [[omega\\|A]] |" in two and "Also [[omega|Alpha]] and [[beta]]." in two
    moved = (vault / "Archive/2025/omega.md").read_text(encoding="utf-8")
    assert ("Self: [[omega#Status]]. Sibling: [one](../../Notes/one.md). Picture: ![pic](../../Projects/img/p.png). "
            "Site: [w](https://x.org/a.md)") in moved
    assert out["content_changed"] and out["links_kept"] == 1  # [[Project A]]
    assert out["links_rewritten"] == 15 and out["rewritten"]["count"] == 3
    files = {f["path"]: f for f in out["rewritten"]["files"]}
    assert set(files) == {"Notes/one.md", "Notes/two.md", "Archive/2025/omega.md"}
    assert {"line": 6, "before": "[[alpha#Status|the status]]", "after": "[[omega#Status|the status]]"} in \
        files["Notes/one.md"]["links"]
    assert files["Archive/2025/omega.md"]["diff"].startswith("--- a/Projects/alpha.md\n+++ b/Archive/2025/omega.md")
    # every changed note and the moved one were backed up first, byte for byte
    assert (vault / out["backup"]).read_text(encoding="utf-8") == ALPHA
    assert (vault / files["Notes/one.md"]["backup"]).read_text(encoding="utf-8") == ONE
    assert (vault / files["Notes/two.md"]["backup"]).read_text(encoding="utf-8") == TWO


def test_links_after_a_code_block_are_found_and_moved_there_and_back(tmp_path: Path) -> None:
    """Hypothesis found it: a fenced block emptied in the scanned copy moved every later link's offset, so a move
    rewrote one of two `[[eel]]` after the block and a move back found none of the rewritten links."""
    dog = "```\n[[eel]] [x](A/eel.md)\n```\nsee [[eel]]\n[link](ant.md)\nsee [[eel]]\nsee [[ant]]"
    for rel, text in {"ant.md": "", "dog.md": dog, "A/eel.md": ""}.items():
        _write(tmp_path, rel, text)
    sites = note_links.link_sites(dog)
    assert [(s.line, dog[s.whole[0]:s.whole[1]]) for s in sites] == [
        (4, "[[eel]]"), (5, "[link](ant.md)"), (6, "[[eel]]"), (7, "[[ant]]")]
    there = note_tools.move_note(tmp_path, "A/eel.md", "A/new.md", clock=CLOCK)
    assert there["links_rewritten"] == 2
    assert (tmp_path / "dog.md").read_text(encoding="utf-8") == dog.replace("see [[eel]]", "see [[new]]")
    back = note_tools.move_note(tmp_path, "A/new.md", "A/eel.md", clock=CLOCK)
    assert back["links_rewritten"] == 2 and (tmp_path / "dog.md").read_text(encoding="utf-8") == dog


def test_move_without_content_change_keeps_the_file_itself(vault: Path) -> None:
    gamma = vault / "Areas/gamma.md"
    os.utime(gamma, (1_000_000_000, 1_000_000_000))
    gamma.chmod(0o640)
    out = note_tools.move_note(vault, "Areas/gamma.md", "People/gamma.md")
    moved = vault / "People/gamma.md"
    assert out["moved"] and not out["content_changed"] and out["links_rewritten"] == 0 and out["links_kept"] == 1
    assert moved.stat().st_mtime == 1_000_000_000 and moved.stat().st_mode & 0o777 == 0o640
    assert "[[Gamma Title]]" in (vault / "Notes/one.md").read_text(encoding="utf-8")


def test_a_title_that_follows_the_file_name_is_rewritten_but_an_h1_title_is_not(vault: Path) -> None:
    _write(vault, "Notes/three.md", "[[beta]] [[Gamma Title]] [[gamma]]\n")
    note_tools.move_note(vault, "Areas/gamma.md", "Areas/delta.md")
    assert (vault / "Notes/three.md").read_text(encoding="utf-8") == "[[beta]] [[Gamma Title]] [[delta]]\n"


def test_a_link_naming_the_file_follows_it_even_when_the_h1_title_still_matches(vault: Path) -> None:
    _write(vault, "Notes/four.md", "# Four\n")
    _write(vault, "Notes/five.md", "[[four]], [[Four#Top|4]] and [[Notes/four]]\n")
    note_tools.move_note(vault, "Notes/four.md", "Notes/quattro.md")
    assert (vault / "Notes/five.md").read_text(encoding="utf-8") == \
        "[[quattro]], [[quattro#Top|4]] and [[Notes/quattro]]\n"  # Obsidian resolves by file name only
    note_tools.move_note(vault, "Notes/quattro.md", "Archive/quattro.md")  # same name: nothing to follow
    assert (vault / "Notes/five.md").read_text(encoding="utf-8") == \
        "[[quattro]], [[quattro#Top|4]] and [[Archive/quattro]]\n"


def test_move_pins_links_the_new_name_would_capture(vault: Path) -> None:
    _write(vault, "Other/omega.md", "# Other omega\n")
    _write(vault, "Notes/three.md", "[[omega]] and [[alpha]]\n")
    out = note_tools.move_note(vault, "Projects/alpha.md", "omega.md")
    assert (vault / "Notes/three.md").read_text(encoding="utf-8") == "[[Other/omega]] and [[omega]]\n"
    pinned = [link for f in out["rewritten"]["files"] for link in f["links"] if "pinned_to" in link]
    assert pinned == [{"line": 1, "before": "[[omega]]", "after": "[[Other/omega]]", "pinned_to": "Other/omega.md"}]


def test_move_into_a_deeper_name_clash_uses_a_longer_spelling(vault: Path) -> None:
    _write(vault, "omega.md", "# Root omega\n")
    note_tools.move_note(vault, "Projects/alpha.md", "Archive/omega.md")
    assert "Also [[Archive/omega|Alpha]]" in (vault / "Notes/two.md").read_text(encoding="utf-8")


def test_move_refuses_existing_destination_escapes_and_symlinks(vault: Path, tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    (vault / "linked").symlink_to(outside, target_is_directory=True)
    (vault / "Notes/secret.md").symlink_to(outside / "secret.md")
    before = _snapshot(vault)
    with pytest.raises(Conflict) as conflict:
        note_tools.move_note(vault, "Projects/alpha.md", "Areas/beta.md")
    assert conflict.value.code == "conflict"
    for bad_dst in ("../escaped.md", "/tmp/escaped.md", "linked/x.md", "Notes/../../x.md", ".mnemon-backups/x.md",
                    "Notes/x.txt"):
        with pytest.raises(PathRefused):
            note_tools.move_note(vault, "Projects/alpha.md", bad_dst)
    for bad_src in ("../outside/secret.md", str(outside / "secret.md"), "linked/secret.md", "Notes/secret.md"):
        with pytest.raises(PathRefused):
            note_tools.move_note(vault, bad_src, "Notes/stolen.md")
    with pytest.raises(NotFound):
        note_tools.move_note(vault, "Projects/nope.md", "Notes/x.md")
    with pytest.raises(InvalidInput):
        note_tools.move_note(vault, "Projects/alpha.md", "Projects/alpha.md")
    with pytest.raises(InvalidInput):
        note_tools.move_note(vault, "Projects/alpha.md", "Projects/a#b.md")
    assert _snapshot(vault) == before
    assert sorted(p.name for p in outside.iterdir()) == ["secret.md"]
    assert (outside / "secret.md").read_text(encoding="utf-8") == "# Secret\n[[alpha]]\n"  # never rewritten


def test_move_dry_run_shows_diffs_and_writes_nothing(vault: Path) -> None:
    before = _snapshot(vault)
    out = note_tools.move_note(vault, "Projects/alpha.md", "Archive/omega.md", dry_run=True)
    assert out["dry_run"] and not out["moved"] and out["backup"] is None
    diffs = {f["path"]: f["diff"] for f in out["rewritten"]["files"]}
    assert "+Also [[omega|Alpha]] and [[beta]]." in diffs["Notes/two.md"]
    assert _snapshot(vault) == before
    assert not (vault / notes.BACKUP_DIR).exists() and not (vault / "Archive").exists()


def test_move_without_link_updates_touches_only_the_note(vault: Path) -> None:
    one = (vault / "Notes/one.md").read_bytes()
    out = note_tools.move_note(vault, "Projects/alpha.md", "Archive/omega.md", update_links=False)
    assert out["moved"] and out["links_rewritten"] == 0 and (vault / "Notes/one.md").read_bytes() == one
    assert (vault / "Archive/omega.md").read_text(encoding="utf-8") == ALPHA


def test_a_note_that_cannot_be_edited_is_reported_not_rewritten(vault: Path) -> None:
    latin1 = "caf\xe9 [[alpha]]\n".encode("latin-1")
    (vault / "Notes/latin.md").write_bytes(latin1)
    out = note_tools.move_note(vault, "Projects/alpha.md", "Archive/omega.md")
    assert out["moved"] and (vault / "Notes/latin.md").read_bytes() == latin1
    assert [w["code"] for w in out["warnings"]["warnings"]] == ["note_not_editable"]


def test_a_note_saved_while_the_move_was_planned_stops_it(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read = note_tools._Vault.read

    def then_an_editor_saves(*args: object) -> note_tools._Vault:
        v = read(*args)  # type: ignore[arg-type]
        _write(vault, "Notes/two.md", TWO + "typed meanwhile\n")
        return v

    monkeypatch.setattr(note_tools._Vault, "read", then_an_editor_saves)
    with pytest.raises(Conflict):
        note_tools.move_note(vault, "Projects/alpha.md", "Archive/omega.md")
    assert (vault / "Notes/two.md").read_text(encoding="utf-8").endswith("typed meanwhile\n")
    assert (vault / "Projects/alpha.md").exists() and not (vault / "Archive/omega.md").exists()


_NAMES = ["ant", "bee", "cat", "dog", "eel"]
_FOLDERS = ["", "A", "A/B", "C"]


@st.composite
def _vaults(draw: st.DrawFn) -> dict[str, str]:
    paths = {name: posixpath.join(draw(st.sampled_from(_FOLDERS)), name + ".md") for name in _NAMES}
    texts: dict[str, str] = {}
    for name, rel in paths.items():
        lines = []
        for _ in range(draw(st.integers(0, 6))):
            other = draw(st.sampled_from(_NAMES))
            target = paths[other]
            style = draw(st.sampled_from(["stem", "path", "section", "alias", "md", "md_section", "code", "fence"]))
            relative = posixpath.relpath(target, posixpath.dirname(rel) or ".")
            lines.append({
                "stem": f"see [[{other}]]", "path": f"see [[{target[:-3]}]]", "section": f"[[{other}#Part two]]",
                "alias": f"[[{other}|the {other}]]", "md": f"[link]({relative})",
                "md_section": f"[link]({relative}#part)", "code": f"`[[{other}]]`",
                "fence": f"```\n[[{other}]] [x]({relative})\n```",
            }[style])
        texts[rel] = "\n".join(lines) + ("\n" if draw(st.booleans()) else "")
    return texts


@settings(max_examples=60, deadline=None)
@given(_vaults(), st.sampled_from(_NAMES), st.sampled_from(["(same)", "Z", "A/B", "Q/R/S"]),
       st.sampled_from(["new", "ant2"]))
def test_move_then_move_back_is_byte_identical(tmp_path_factory: pytest.TempPathFactory, texts: dict[str, str],
                                               moved: str, folder: str, new_name: str) -> None:
    """Links written as a name, a full path, with a section or an alias, as relative Markdown links, or inside code:
    there and back again, every note is what it was. (Not to the vault's top: there `[[new]]` is both the path and
    the name of the note, and a `[[Folder/note]]` moved there cannot remember it was written as a path.)"""
    root = tmp_path_factory.mktemp("v")
    for rel, text in texts.items():
        _write(root, rel, text)
    before = {rel: (root / rel).read_bytes() for rel in texts}
    src = next(rel for rel in texts if rel.endswith(f"/{moved}.md") or rel == f"{moved}.md")
    dst = posixpath.join(posixpath.dirname(src) if folder == "(same)" else folder, new_name + ".md")
    there = note_tools.move_note(root, src, dst)
    assert there["warnings"]["count"] == 0
    back = note_tools.move_note(root, dst, src)
    assert back["links_rewritten"] == there["links_rewritten"]
    assert {rel: (root / rel).read_bytes() for rel in texts} == before
    assert not (root / dst).exists()


def test_after_a_move_the_graph_links_reach_the_moved_note(mem, vault: Path) -> None:
    note_tools.move_note(vault, "Projects/alpha.md", "Archive/2025/omega.md")
    mem.ingest(str(vault))
    moved = "note:Archive/2025/omega.md"
    edges = [e for e in mem.rt.store.iter_edges() if e.type in ("links_to", "embeds")]
    into = {(e.src, e.type) for e in edges if e.dst == moved}
    assert {("note:Notes/one.md", "links_to"), ("note:Notes/one.md", "embeds"), ("note:Notes/two.md", "links_to")} <= into
    assert not [e for e in edges if "alpha" in e.dst]  # no placeholder left for the old name
    assert mem.rt.store.get_node(moved).title == "omega"


# ── delete ─────────────────────────────────────────────────────────────────────────────────────────────────────
def test_delete_refuses_a_linked_note_and_names_the_linking_notes(vault: Path) -> None:
    before = _snapshot(vault)
    with pytest.raises(Conflict) as refused:
        note_tools.delete_note(vault, "Projects/alpha.md")
    linked = refused.value.details["linked_from"]
    assert [n["path"] for n in linked["notes"]] == ["Notes/one.md", "Notes/two.md"] and linked["count"] == 2
    assert linked["notes"][1]["links"] == [{"line": 5, "link": "[[alpha\\|A]]"}, {"line": 7, "link": "[[alpha|Alpha]]"}]
    assert _snapshot(vault) == before


def test_forced_delete_backs_up_and_says_where_links_land(vault: Path) -> None:
    dry = note_tools.delete_note(vault, "Projects/alpha.md", force=True, dry_run=True)
    assert dry["dry_run"] and not dry["deleted"] and (vault / "Projects/alpha.md").exists()
    out = note_tools.delete_note(vault, "Projects/alpha.md", force=True, clock=CLOCK)
    assert out["deleted"] and out["forced"] and not (vault / "Projects/alpha.md").exists()
    assert (vault / out["backup"]).read_text(encoding="utf-8") == ALPHA and out["backup"].endswith(".bak")
    assert all(link["now"] is None for n in out["linked_from"]["notes"] for link in n["links"])


def test_delete_of_an_unlinked_note_and_errors(vault: Path, tmp_path: Path) -> None:
    out = note_tools.delete_note(vault, "Notes/two.md")  # links out, nothing links in
    assert out["deleted"] and out["linked_from"] == {"count": 0, "notes": []} and out["backup"]
    with pytest.raises(NotFound):
        note_tools.delete_note(vault, "Notes/two.md")
    outside = _outside(tmp_path)
    (vault / "Notes/secret.md").symlink_to(outside / "secret.md")
    (vault / "linked").symlink_to(outside, target_is_directory=True)
    for bad in ("../outside/secret.md", str(outside / "secret.md"), "Notes/secret.md", "linked/secret.md"):
        with pytest.raises(PathRefused):
            note_tools.delete_note(vault, bad, force=True)
    assert (outside / "secret.md").exists() and (vault / "Notes/secret.md").is_symlink()


def test_backups_never_overwrite_each_other(vault: Path) -> None:
    first = note_tools.delete_note(vault, "Areas/beta.md", force=True, clock=CLOCK)
    _write(vault, "Areas/beta.md", "second")
    second = note_tools.delete_note(vault, "Areas/beta.md", force=True, clock=CLOCK)  # the same stamp
    assert first["backup"] != second["backup"]
    assert (vault / second["backup"]).read_text(encoding="utf-8") == "second"


# ── status ─────────────────────────────────────────────────────────────────────────────────────────────────────
def test_status_summarises_the_vault(vault: Path, tmp_path: Path) -> None:
    (vault / "secret.md").symlink_to(_outside(tmp_path) / "secret.md")
    os.utime(vault / "Areas/beta.md", (1_000_000_000, 1_000_000_000))
    _write(vault, "Notes/empty.md", "")
    out = note_tools.vault_status(vault)
    assert out["notes"] == 6 and out["empty_notes"] == 1
    assert out["bytes"] == sum(p.stat().st_size for p in vault.rglob("*.md") if not p.is_symlink())
    assert out["oldest"]["path"] == "Areas/beta.md" and out["oldest"]["modified"].startswith("2001-09-09")
    assert {f["path"]: f["notes"] for f in out["folders"]["folders"]} == {"Areas": 2, "Notes": 3, "Projects": 1}
    assert out["folders"]["count"] == 3
    assert out["skipped"] == {"count": 1, "paths": [{"path": "secret.md", "reason": "symlink"}]}
    # links the graph sees (the front-matter one and code are not); [[Project A]], [[Gamma Title]] resolve
    assert out["links"]["broken"] == 0 and out["broken_links"]["count"] == 0
    note_tools.delete_note(vault, "Projects/alpha.md", force=True)
    after = note_tools.vault_status(vault)
    assert after["broken_links"]["count"] == after["links"]["broken"] > 0
    assert {"path": "Notes/two.md", "line": 7, "target": "alpha"} in after["broken_links"]["links"]
    assert after["backups"]["count"] == 1


def test_skip_dirs_match_ingest() -> None:
    from mnemon.app.vault.ingest import SKIP_DIRS

    assert note_tools.SKIP_DIRS == SKIP_DIRS


# ── daily ──────────────────────────────────────────────────────────────────────────────────────────────────────
def test_daily_creates_today_then_appends_under_a_heading(vault: Path) -> None:
    out = daily_notes.daily_note(vault, "append", content="- standup", heading="Log", clock=CLOCK)
    assert out["path"] == "Daily/2026-03-01.md" and out["created"] and out["pattern_source"] == "default"
    assert (vault / "Daily/2026-03-01.md").read_text(encoding="utf-8") == "## Log\n\n- standup\n"
    notes.write_note(vault, "Daily/2026-03-01.md", "\n## Later\n\ntext\n", clock=CLOCK)
    again = daily_notes.daily_note(vault, "append", content="- review", heading="log", clock=CLOCK)
    assert again["backup"] and not again["created"]
    assert (vault / "Daily/2026-03-01.md").read_text(encoding="utf-8") == \
        "## Log\n\n- standup\n- review\n\n## Later\n\ntext\n"
    plain = daily_notes.daily_note(vault, content="tail line", clock=CLOCK)  # no action, content: append
    assert plain["action"] == "append" and (vault / plain["path"]).read_text(encoding="utf-8").endswith("text\ntail line\n")
    read = daily_notes.daily_note(vault, clock=CLOCK)
    assert read["action"] == "read" and read["exists"] and "- review" in read["content"]


def test_daily_append_under_a_heading_stays_out_of_its_sub_sections(vault: Path) -> None:
    # appended after "### Evening"'s text, the entry would read as part of the evening, not of the log
    day = vault / "Daily/2026-03-01.md"
    day.parent.mkdir(parents=True, exist_ok=True)
    day.write_text("## Log\n\n- standup\n\n### Evening\n\n- dinner\n\n## Later\n\ntext\n", encoding="utf-8")
    daily_notes.daily_note(vault, "append", content="- review", heading="Log", clock=CLOCK)
    assert day.read_text(encoding="utf-8") == \
        "## Log\n\n- standup\n- review\n\n### Evening\n\n- dinner\n\n## Later\n\ntext\n"
    daily_notes.daily_note(vault, "append", content="- dessert", heading="Evening", clock=CLOCK)
    assert "- dinner\n- dessert\n\n## Later" in day.read_text(encoding="utf-8")


def test_daily_read_create_dates_and_patterns(vault: Path) -> None:
    missing = daily_notes.daily_note(vault, "read", day="2026-02-28", clock=CLOCK)
    assert missing == {**missing, "exists": False, "content": "", "path": "Daily/2026-02-28.md"}
    assert daily_notes.daily_note(vault, "read", day="yesterday", clock=CLOCK)["date"] == "2026-02-28"
    out = daily_notes.daily_note(vault, "create", content="# Sunday", pattern="Journal/YYYY/MM/YYYY-MM-DD dddd",
                                clock=CLOCK)
    assert out["path"] == "Journal/2026/03/2026-03-01 Sunday.md" and out["pattern_source"] == "argument"
    with pytest.raises(Conflict):
        daily_notes.daily_note(vault, "create", content="again", pattern="Journal/YYYY/MM/YYYY-MM-DD dddd", clock=CLOCK)
    assert daily_notes.format_daily("[Daily Notes]/DD MMM YYYY.md", datetime(2026, 3, 1).date()) == \
        "Daily Notes/01 Mar 2026.md"
    for bad in ("2026-3-1", "2026-02-30", "next week"):
        with pytest.raises(InvalidInput):
            daily_notes.daily_note(vault, "read", day=bad, clock=CLOCK)
    for bad_pattern in ("Daily/notes.md", "Daily/YYYY-MM.md"):
        with pytest.raises(InvalidInput):
            daily_notes.daily_note(vault, "read", pattern=bad_pattern, clock=CLOCK)
    with pytest.raises(InvalidInput):
        daily_notes.daily_note(vault, "append", content="  ", clock=CLOCK)


def test_daily_uses_the_local_calendar_day() -> None:
    late = lambda: datetime(2026, 3, 1, 23, 30)  # noqa: E731  (naive: already local)
    assert daily_notes._day(None, late).isoformat() == "2026-03-01"


def test_daily_follows_obsidians_setting(vault: Path) -> None:
    (vault / ".obsidian").mkdir()
    (vault / ".obsidian/daily-notes.json").write_text(json.dumps({"folder": "Journal/Days", "format": "DD-MM-YYYY"}))
    out = daily_notes.daily_note(vault, "append", content="x", clock=CLOCK)
    assert out["path"] == "Journal/Days/01-03-2026.md" and out["pattern_source"] == "obsidian"
    (vault / ".obsidian/daily-notes.json").write_text(json.dumps({"format": "gggg-[W]ww"}))  # week tokens: not ours
    assert daily_notes.daily_note(vault, "read", clock=CLOCK)["path"] == "Daily/2026-03-01.md"


def test_daily_paths_stay_in_the_vault(vault: Path, tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    for bad in ("../YYYY-MM-DD", "/tmp/YYYY-MM-DD", "Daily/../../YYYY-MM-DD", ".mnemon-backups/YYYY-MM-DD"):
        with pytest.raises(PathRefused):
            daily_notes.daily_note(vault, "append", content="x", pattern=bad, clock=CLOCK)
    (vault / "Daily").symlink_to(outside, target_is_directory=True)
    with pytest.raises(PathRefused):
        daily_notes.daily_note(vault, "append", content="x", clock=CLOCK)
    assert sorted(p.name for p in outside.iterdir()) == ["secret.md"]


def test_daily_dry_run_writes_nothing(vault: Path) -> None:
    _write(vault, "Daily/2026-03-01.md", "## Log\n\n- one\n")
    before = _snapshot(vault)
    out = daily_notes.daily_note(vault, "append", content="- two", heading="Log", dry_run=True, clock=CLOCK)
    assert out["dry_run"] and out["changed"] and "+- two" in out["diff"]
    created = daily_notes.daily_note(vault, "append", content="- x", day="2026-03-02", dry_run=True, clock=CLOCK)
    assert created["created"] and created["diff"].startswith("--- /dev/null")
    assert _snapshot(vault) == before and not (vault / notes.BACKUP_DIR).exists()


# ── notes over the editor's size limit still count for their names and links ──────────────────────────────────
def test_a_note_too_large_to_edit_is_still_read_for_its_links(vault: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ingest` reads every note, whatever its size: delete, move and status must see the same links (a 5 MB limit,
    lowered here so the test stays fast)."""
    monkeypatch.setattr(note_tools, "MAX_NOTE_BYTES", 200)
    _write(vault, "Areas/delta.md", "# Delta\n")
    big = "# Big\n\nSee [[Delta]] and [d](../Areas/delta.md).\n\n" + "lorem ipsum dolor sit amet\n" * 20
    _write(vault, "Notes/big.md", big)
    assert (vault / "Notes/big.md").stat().st_size > 200
    with pytest.raises(Conflict) as refused:
        note_tools.delete_note(vault, "Areas/delta.md")
    assert [n["path"] for n in refused.value.details["linked_from"]["notes"]] == ["Notes/big.md"]
    status = note_tools.vault_status(vault)
    assert status["links"]["broken"] == 0 and status["links"]["count"] >= 2
    out = note_tools.move_note(vault, "Areas/delta.md", "Archive/delta.md", clock=CLOCK)
    assert out["moved"] and (vault / "Notes/big.md").read_text(encoding="utf-8") == big  # never rewritten
    assert [(w["code"], w["path"], w["link"]) for w in out["warnings"]["warnings"]] == [
        ("note_not_editable", "Notes/big.md", "[d](../Areas/delta.md)")]
    listed = {n["path"]: n for n in note_tools.list_notes(vault)["notes"]}
    assert listed["Notes/big.md"]["title"] == "Big"


# ── a regex search is bounded in time ──────────────────────────────────────────────────────────────────────────
RUNAWAY = "(a|aa)+$"  # against a line of a's ending in "!": ~1.6^60 ways to fail, on `re` and `regex` alike


def test_a_catastrophic_regex_is_stopped_by_the_time_budget(vault: Path) -> None:
    import time

    _write(vault, "Notes/a.md", "a" * 60 + "!\n")
    started = time.monotonic()
    with pytest.raises(InvalidInput) as refused:
        note_tools.search_content(vault, RUNAWAY, regex=True, time_budget=0.3)
    assert time.monotonic() - started < 5  # it never returns otherwise
    assert refused.value.details["time_budget_s"] == 0.3 and "(a+)+" in refused.value.message
    # nothing stays armed afterwards: a normal search runs to the end
    assert note_tools.search_content(vault, r"^# (Beta|Gamma)", regex=True)["count"] == 2
    import signal

    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_a_catastrophic_regex_is_stopped_off_the_main_thread_too(vault: Path) -> None:
    """The HTTP, MCP and daemon servers search on handler threads, where no signal timer can interrupt a search:
    the pattern's own timeout must, and other threads keep running meanwhile (the search lets go of the GIL)."""
    import threading
    import time

    _write(vault, "Notes/a.md", "a" * 60 + "!\n")
    outcome: list[BaseException | dict] = []

    def search() -> None:
        try:
            outcome.append(note_tools.search_content(vault, RUNAWAY, regex=True, time_budget=0.5))
        except BaseException as exc:  # noqa: BLE001 — handed to the test thread
            outcome.append(exc)

    ticks = 0
    worker = threading.Thread(target=search, daemon=True)  # (without the bound it would never end)
    worker.start()
    deadline = time.monotonic() + 10
    while worker.is_alive() and time.monotonic() < deadline:
        ticks += 1
        time.sleep(0.01)
    assert not worker.is_alive(), "the search was not stopped by its budget"
    assert isinstance(outcome[0], InvalidInput) and outcome[0].details["time_budget_s"] == 0.5
    assert ticks >= 10  # this thread ran while the search did


def test_off_the_main_thread_the_budget_is_checked_between_lines(vault: Path) -> None:
    import threading

    _write(vault, "Notes/many.md", "line\n" * 1000)
    outcome: list[BaseException | dict] = []

    def search() -> None:
        try:
            outcome.append(note_tools.search_content(vault, "zzz", regex=True, time_budget=0.0))
        except BaseException as exc:  # noqa: BLE001 — handed to the test thread
            outcome.append(exc)

    worker = threading.Thread(target=search)
    worker.start()
    worker.join(30)
    assert isinstance(outcome[0], InvalidInput)
    assert note_tools.search_content(vault, "zzz")["count"] == 0  # literal text: linear, never budgeted
