"""Vault-level note commands (Mneme's note editor extras): list, search, search-content, daily, move, delete, status.

The rules of `notes` hold here too: every path (folders, the move destination, daily notes) goes through
`notes.safe_resolve`/`notes.safe_folder`, so `..`, absolute paths and symlinks are refused; every write is atomic;
every note that changes or goes is first copied to the backup folder; `dry_run` reports the change, with per-file
diffs, and touches nothing.

Where this departs from Mneme on purpose:
* the walk never follows a symlink and skips the folders `ingest` skips (dot folders, the backups, `.git`,
  `node_modules`, …), so `list`/`status` show the notes the graph is built from;
* `search-content` scans in-process for the literal text (a regex only with `regex=True`): Mneme handed the query to
  rg/grep, so a query starting with '-' became an option, every query a regex, and `--max-results` counted per file;
* `move` rewrites links by default and resolves them exactly as the graph does (`core.vault.links`: path, path
  suffix, title, alias, stem). Every wikilink, embed and Markdown link that reached the note still reaches it, with
  its `#Section` and `|Alias` kept; links that still resolve (by alias, by an unchanged title) are left alone; links
  in code are never touched; the moved note's own relative links are re-based; a link the new name would capture
  from another note is pinned to that note. Mneme rewrote `[[exact stem]]` only, without backups or a diff;
* `delete` backs up first and refuses a note other notes link to unless `force` (Mneme's `--force` only confirmed);
* daily notes: `daily_notes.py`.
"""
from __future__ import annotations

import fnmatch
import hashlib
import os
import posixpath
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from ..core.errors import Conflict, InvalidInput, NotFound
from ..core.vault.frontmatter import split_front_matter
from ..core.vault.links import LinkIndex, display_links, normalise_link_key, placeholder_key, relative_target
from ..core.vault.model import NoteIdentity
from ..core.vault.logseq import LogseqGraph, page_name
from ..core.vault.logseq import front_matter as logseq_front_matter
from ..core.vault.parser import parse_note
from . import note_links, notes
from .note_files import make_folders
from .note_match import folded, literal_hit
from .note_names import check_writable
from .notes import BACKUP_DIR, MAX_NOTE_BYTES, Resolved
from .regex_budget import OutOfTime, PatternError, budgeted, compile_pattern
from .vault.passed_over import logseq_graph, passed_over_folders
from .vault.moves import record_move

SKIP_DIRS = notes.SKIP_DIRS
LIST_SORTS = ("path", "modified", "size")
MAX_LINE_CHARS = 400
BROKEN_LINKS_SHOWN = 50
# the whole of a `search-content --regex` (a literal search is linear and needs none); far above what a sane pattern
# takes on a large vault, far below "the agent waits forever"
REGEX_TIME_BUDGET_S = 10.0
_WIKILINK_FORBIDDEN = frozenset("[]|#^\n")
_NEEDS_ESCAPE = {" ": "%20", "(": "%28", ")": "%29", "<": "%3C", ">": "%3E", "%": "%25", "\t": "%09"}


# ── the vault's notes ──────────────────────────────────────────────────────────────────────────────────────────
@dataclass(frozen=True)
class NoteFile:
    rel: str
    path: Path
    size: int
    mtime: float


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat().replace("+00:00", "Z")


def _walk(root: Path, start: Path | None = None) -> tuple[list[NoteFile], list[dict[str, str]]]:
    """Every note under `start` (default: the vault) sorted by path, and what was passed over: the symlinks, and
    the folders ingest passes over with a word (`vault.passed_over`)."""
    found: list[NoteFile] = []
    skipped: list[dict[str, str]] = []
    folders = passed_over_folders(str(root))
    prefix = len(str(root).rstrip(os.sep)) + 1
    pending = [start or root]
    while pending:
        current = pending.pop()
        try:
            listing = list(os.scandir(current))
        except OSError:
            skipped.append({"path": str(current)[prefix:].replace(os.sep, "/"), "reason": "unreadable"})
            continue
        for entry in listing:
            rel = entry.path[prefix:].replace(os.sep, "/")
            name = entry.name
            if name.startswith("."):
                continue  # hidden, as `vault.ingest.walk_vault` has it: a file as a folder
            if entry.is_symlink():
                try:
                    listed = name.lower().endswith(".md") or entry.is_dir()
                except OSError:  # a symlink loop (ELOOP): it failed the whole listing
                    listed = True
                if listed:
                    skipped.append({"path": rel, "reason": "symlink"})
                continue
            if entry.is_dir(follow_symlinks=False):
                if rel in folders:
                    skipped.append({"path": rel, "reason": folders[rel]})
                elif name not in SKIP_DIRS:
                    pending.append(Path(entry.path))
                continue
            if not name.lower().endswith(".md"):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                skipped.append({"path": rel, "reason": "unreadable"})
                continue
            if not stat.S_ISREG(st.st_mode):  # a named pipe's read waits for a writer: the command hung for good
                skipped.append({"path": rel, "reason": "not_a_file"})
                continue
            found.append(NoteFile(rel, Path(entry.path), st.st_size, st.st_mtime))
    found.sort(key=lambda n: n.rel)
    skipped.sort(key=lambda s: s["path"])
    return found, skipped


def _load(note: NoteFile) -> tuple[str, bool]:
    """(text, editable): a note too large or not UTF-8 is still read for its names and links, never rewritten.

    The size limit is the editor's (a rewrite holds the note in memory several times over), not a reading limit:
    `ingest` reads every note whatever its size, so a delete, move or status that skipped a large note missed the
    links the graph has (a linked note deleted without --force, a move that broke the large note's links)."""
    try:
        data = note.path.read_bytes()
    except OSError:
        return "", False
    try:
        return data.decode("utf-8"), note.size <= MAX_NOTE_BYTES
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), False


def _stem(rel: str) -> str:
    name = rel.rsplit("/", 1)[-1]
    return name[:-3] if name.lower().endswith(".md") else name


def _light_identity(rel: str, text: str, logseq: LogseqGraph | None = None) -> NoteIdentity:
    """Title and aliases as `parse_note` gives them (front matter title > first H1 > stem; a Logseq page's: its
    `title::` > its name from its file, a journal's day as the graph writes it), without parsing the rest: a listing
    or a name search reads every note, and the full parse costs ten times as much."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if logseq is not None:
        page = logseq_front_matter(lines, logseq)[0]
        name = page.title if page is not None and page.title else page_name(rel, logseq)[0]
        return NoteIdentity(rel, name, page.aliases if page is not None else ())
    front, body_start, _ = split_front_matter(lines) if lines[0].startswith("---") else (None, 0, [])
    title = front.title if front is not None and front.title else None
    if not title:
        h1 = next((h.text for h in notes._headings(lines, body_start) if h.level == 1), None)
        title = " ".join(display_links(h1).split()) if h1 else None
    return NoteIdentity(rel, title or _stem(rel), front.aliases if front is not None else ())


def _note_entry(note: NoteFile, identity: NoteIdentity | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"path": note.rel, "name": note.rel.rsplit("/", 1)[-1]}
    if identity is not None:
        out["title"] = identity.title
        if identity.aliases:
            out["aliases"] = list(identity.aliases)
    out.update({"bytes": note.size, "modified": _iso(note.mtime)})
    return out


def _check_limit(name: str, value: int | None, *, minimum: int = 1) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < minimum):
        raise InvalidInput(f"{name} must be an integer ≥ {minimum}", **{name.lstrip("-").replace("-", "_"): value})


# ── list, search, search-content ───────────────────────────────────────────────────────────────────────────────
def list_notes(vault: str | Path | None, folder: str | None = None, *, pattern: str | None = None,
               sort: str = "path", limit: int | None = None) -> dict[str, Any]:
    """The notes under `folder` (recursively), optionally those whose name or path matches the glob `pattern`."""
    if sort not in LIST_SORTS:
        raise InvalidInput(f"--sort must be one of {', '.join(LIST_SORTS)}", sort=sort)
    _check_limit("--limit", limit)
    where = notes.safe_folder(vault, folder)
    root = notes.safe_folder(vault, None).path
    found, _ = _walk(root, where.path)
    logseq = logseq_graph(str(root))
    if pattern:  # whatever the Unicode form of the pattern and of the names (macOS writes é as e + accent)
        glob = folded(pattern, case_sensitive=False)
        found = [n for n in found if fnmatch.fnmatchcase(folded(n.rel.rsplit("/", 1)[-1], case_sensitive=False), glob)
                 or fnmatch.fnmatchcase(folded(n.rel, case_sensitive=False), glob)]
    if sort == "modified":
        found.sort(key=lambda n: (-n.mtime, n.rel))
    elif sort == "size":
        found.sort(key=lambda n: (-n.size, n.rel))
    total = len(found)
    shown = found[:limit] if limit else found
    items = [_note_entry(n, _light_identity(n.rel, _load(n)[0], logseq)) for n in shown]
    return {"ok": True, "folder": where.rel or ".", "pattern": pattern, "sort": sort, "count": len(items),
            "total": total, "truncated": len(items) < total, "notes": items}


def _name_rank(query: str, words: list[str], field_value: str) -> int | None:
    """0 exact, 1 prefix, 2 every word starts a word, 3 every word somewhere; None: no match."""
    value = normalise_link_key(field_value)
    if not all(w in value for w in words):
        return None
    if value == query:
        return 0
    if value.startswith(query):
        return 1
    tokens = re.split(r"[\s/.]+", value)
    if all(any(t.startswith(w) for t in tokens) for w in words):
        return 2
    return 3


def search_notes(vault: str | Path | None, query: str, *, folder: str | None = None,
                 limit: int = 20) -> dict[str, Any]:
    """Notes whose file name, title, alias or path holds every word of `query` (case, `-`, `_` ignored), best first:
    exact names, then prefixes, then word starts, then anywhere; a shallower path first among equals."""
    key = normalise_link_key(query or "")
    words = [w for w in re.split(r"[\s/]+", key) if w]
    if not words:
        raise InvalidInput("the search needs a non-empty query")
    _check_limit("--limit", limit)
    where = notes.safe_folder(vault, folder)
    root = notes.safe_folder(vault, None).path
    found, _ = _walk(root, where.path)
    logseq = logseq_graph(str(root))
    ranked: list[tuple[tuple[int, int, int, str], dict[str, Any]]] = []
    for n in found:
        identity = _light_identity(n.rel, _load(n)[0], logseq)
        fields = [("name", _stem(n.rel)), ("title", identity.title), *(("alias", a) for a in identity.aliases),
                  ("path", n.rel)]
        best: tuple[int, int, str, str] | None = None
        for order, (kind, value) in enumerate(fields):
            rank = _name_rank(key, words, value)
            if rank is not None and (best is None or (rank, order) < best[:2]):
                best = (rank, order, kind, value)
        if best is not None:
            entry = _note_entry(n, identity)
            entry["matched"] = best[2]
            if best[2] == "alias":
                entry["alias"] = best[3]
            ranked.append(((best[0], min(best[1], 3), n.rel.count("/"), n.rel), entry))
    ranked.sort(key=lambda item: item[0])
    matches = [entry for _, entry in ranked[:limit]]
    return {"ok": True, "query": query, "folder": where.rel or ".", "count": len(matches), "total": len(ranked),
            "truncated": len(matches) < len(ranked), "matches": matches}


def _clip(line: str) -> str:
    line = line.rstrip("\r")
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + "…"


def search_content(vault: str | Path | None, query: str, *, folder: str | None = None, max_results: int = 10,
                   context: int = 3, regex: bool = False, case_sensitive: bool = False,
                   time_budget: float = REGEX_TIME_BUDGET_S) -> dict[str, Any]:
    """Lines inside notes holding `query` (literal text unless `regex`), each with `context` lines either side;
    `max_results` caps the matches over the whole vault, in path then line order.

    A regex search that takes longer than `time_budget` seconds is refused (`InvalidInput`) rather than answered in
    part: the usual cause is a pattern that backtracks without end, which no partial answer fixes, and a partial
    list flagged as such is easy to mistake for the whole one."""
    if not isinstance(query, str) or not query or "\n" in query:
        raise InvalidInput("the search needs non-empty text on one line")
    _check_limit("--max-results", max_results)
    _check_limit("--context", context, minimum=0)
    if regex:
        try:
            pattern = compile_pattern(folded(query, case_sensitive=True), case_sensitive=case_sensitive)
        except PatternError as exc:
            raise InvalidInput(f"--regex: {exc}", query=query) from None
    else:  # whatever the Unicode form of the query and of the note (`note_match`)
        hit: Callable[[str], bool] = literal_hit(query, case_sensitive=case_sensitive)
    where = notes.safe_folder(vault, folder)
    found, _ = _walk(notes.safe_folder(vault, None).path, where.path)
    if not regex:
        matches, files, truncated = _scan(found, hit, max_results, context, lambda: None, prefilter=True)
    else:
        try:
            budgeted_hit, check = budgeted(pattern, time_budget)
            composed = lambda line: budgeted_hit(folded(line, case_sensitive=True))  # noqa: E731 (as the literal)
            matches, files, truncated = _scan(found, composed, max_results, context, check, prefilter=False)
        except OutOfTime:
            raise InvalidInput(f"--regex: the search took longer than {time_budget:g} s; the pattern probably "
                               "backtracks without end (nested repetition such as (a+)+): simplify it, or search "
                               "for literal text", query=query, time_budget_s=time_budget) from None
    return {"ok": True, "query": query, "folder": where.rel or ".", "regex": regex, "case_sensitive": case_sensitive,
            "count": len(matches), "files": len(files), "truncated": truncated, "matches": matches}


def _scan(found: list[NoteFile], hit: Callable[[str], bool], max_results: int, context: int,
          check: Callable[[], None], *, prefilter: bool) -> tuple[list[dict[str, Any]], set[str], bool]:
    """(matches, files matched, truncated); `prefilter` skips a note whose whole text holds no match (literal text
    only: a pattern with ^ or $ matches lines the whole text does not)."""
    matches: list[dict[str, Any]] = []
    files: set[str] = set()
    truncated = False
    for n in found:
        text, _editable = _load(n)
        if not text or (prefilter and not hit(text)):
            continue
        lines = [line.removesuffix("\r") for line in text.removeprefix("\ufeff").split("\n")]  # as they read
        for i, line in enumerate(lines):
            check()
            if not hit(line):
                continue
            if len(matches) == max_results:
                truncated = True
                break
            files.add(n.rel)
            matches.append({"path": n.rel, "line": i + 1, "text": _clip(line),
                            "before": [_clip(x) for x in lines[max(0, i - context):i]],
                            "after": [_clip(x) for x in lines[i + 1:i + 1 + context]]})
        if truncated:
            break
    return matches, files, truncated


# ── the whole vault, read once ─────────────────────────────────────────────────────────────────────────────────
@dataclass
class _Vault:
    """Every note's text and names, read once for a move, delete or status."""

    root: Path
    files: dict[str, NoteFile] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    editable: dict[str, bool] = field(default_factory=dict)
    identities: dict[str, NoteIdentity] = field(default_factory=dict)
    graph_links: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # (line, target) as ingest sees them
    logseq: LogseqGraph | None = None  # the settings of the Logseq graph the vault is, as ingest reads it
    skipped: list[dict[str, str]] = field(default_factory=list)

    @classmethod
    def read(cls, vault: str | Path | None, *extra: Resolved) -> "_Vault":
        root = notes.safe_folder(vault, None).path
        found, skipped = _walk(root)
        # a note named explicitly (in a folder ingest skips) still takes part, so its own links are seen
        for r in extra:
            if r.rel not in {n.rel for n in found} and r.path.is_file():
                st = r.path.stat()
                found.append(NoteFile(r.rel, r.path, st.st_size, st.st_mtime))
        out = cls(root, skipped=skipped, logseq=logseq_graph(str(root)))
        for n in found:
            text, editable = _load(n)
            out.files[n.rel], out.texts[n.rel], out.editable[n.rel] = n, text, editable
            parsed = parse_note(n.rel, text, logseq=out.logseq)
            out.identities[n.rel] = parsed.identity
            out.graph_links[n.rel] = [(w.line, w.target) for w in parsed.wikilinks if not w.is_attachment] + [
                (m.line, m.target) for m in parsed.markdown_links]
        return out

    def index(self, replace: dict[str, NoteIdentity | None] | None = None) -> LinkIndex:
        ids = dict(self.identities)
        for rel, identity in (replace or {}).items():
            ids.pop(rel, None)
            if identity is not None:
                ids[rel] = identity
        return LinkIndex.build(ids.values())


def _inbound(v: _Vault, index: LinkIndex, target: str, after: LinkIndex | None = None) -> list[dict[str, Any]]:
    """Notes (other than `target`) with links resolving to `target`: [{path, links: [{line, link}]}]; with `after`
    (the index without the note), each link also says where it lands then (`now`: a note path, or None)."""
    out = []
    for rel, text in v.texts.items():
        if rel == target:
            continue
        links = []
        for site in note_links.link_sites(text):
            if note_links.resolve_site(index, rel, site)[0] == target:
                link: dict[str, Any] = {"line": site.line, "link": text[site.whole[0]:site.whole[1]]}
                if after is not None:
                    link["now"] = note_links.resolve_site(after, rel, site)[0]
                links.append(link)
        if links:
            out.append({"path": rel, "links": links})
    return out


# ── move ───────────────────────────────────────────────────────────────────────────────────────────────────────
def _wikilink_form(original: str, expected: str, tier: str | None, index: LinkIndex, linker: str) -> str | None:
    """The spelling of a wikilink to `expected`, written in note `linker`, closest to how `original` was written
    that resolves to it: a full path stays a full path, a trailing path keeps its depth, a name becomes the new
    name, one relative to its note's folder (``../Beta/Spec``) stays relative."""
    with_md = original.lower().endswith(".md")
    lead = "/" if original.startswith("/") else ""
    parts = expected[:-3].split("/") if expected.lower().endswith(".md") else expected.split("/")
    if original.startswith(("./", "../")):
        form = posixpath.relpath("/".join(parts), posixpath.dirname(linker) or ".") + (".md" if with_md else "")
        form = "./" + form if original.startswith("./") and not form.startswith("../") else form
        if _WIKILINK_FORBIDDEN.isdisjoint(form) and \
                index.resolve_key(placeholder_key(relative_target(form, linker)), linker) == expected:
            return form
    depth = len([p for p in original.strip("/").split("/") if p])
    if depth > 1 and tier == "path":
        sizes = [len(parts), *range(1, len(parts))]
    elif depth > 1:
        sizes = [depth, *range(1, len(parts) + 1)]
    else:  # a bare name, even one that is also the path of a note at the vault's top
        sizes = list(range(1, len(parts) + 1))
    for n in dict.fromkeys(max(1, min(s, len(parts))) for s in sizes):
        form = "/".join(parts[-n:]) + (".md" if with_md else "")
        if n == len(parts):
            form = lead + form
        if _WIKILINK_FORBIDDEN.isdisjoint(form) and index.resolve_key(placeholder_key(form), linker) == expected:
            return form
    return None


def _encode_path(path: str, written: str) -> str:
    if "%" in written:
        return quote(path, safe="/")
    return "".join(_NEEDS_ESCAPE.get(ch, ch) for ch in path)


def _name_key(site: note_links.LinkSite) -> str | None:
    """The key a link names its note by: a wikilink's, a Markdown link's looked up as one (None: one by path)."""
    written = site.target if site.kind == "wikilink" else unquote(site.path)
    by_path = written.startswith(("./", "../")) or site.kind == "markdown" and written.startswith("/")
    return None if by_path else placeholder_key(written)


def _markdown_form(linker: str, site: note_links.LinkSite, expected: str, reached: tuple[str, str, str | None],
                   index: LinkIndex) -> str:
    """The path part of a Markdown link from `linker` to vault path `expected`, in the link's own style (`reached`:
    its note, linking note and tier before): one looked up as a wikilink keeps that form unless it was relative."""
    was, old_linker, tier = reached
    new = "/" + expected if site.path.startswith("/") else None
    if _name_key(site) is not None and normalise_link_key(
            posixpath.join(posixpath.dirname(old_linker), unquote(site.path))) != normalise_link_key(was):
        new = _wikilink_form(unquote(site.path), expected, tier, index, linker)
    if new is None:  # (a link written without ".md" stays without it)
        new = posixpath.relpath(expected if site.path.lower().endswith(".md") else expected[:-3],
                                posixpath.dirname(linker) or ".")
        if site.path.startswith("./") and not new.startswith("../"):
            new = "./" + new
    return new if site.angle else _encode_path(new, site.path)


def _rebased(site: note_links.LinkSite, old_linker: str, new_linker: str) -> str | None:
    """A relative link of the moved note to a file that is not a note (an image, a PDF), pointed at the same file
    from the new folder; None when nothing needs to change or the target is outside the vault."""
    if site.path.startswith("/") or not site.path:
        return None
    old_dir, new_dir = posixpath.dirname(old_linker), posixpath.dirname(new_linker)
    if old_dir == new_dir:
        return None
    target = posixpath.normpath(posixpath.join(old_dir, unquote(site.path)))
    if target == ".." or target.startswith("../"):
        return None
    new = posixpath.relpath(target, new_dir or ".")
    if site.path.startswith("./") and not new.startswith("../"):
        new = "./" + new
    return new if site.angle else _encode_path(new, site.path)


@dataclass
class _Rewrite:
    edits: list[tuple[int, int, str]] = field(default_factory=list)
    links: list[dict[str, Any]] = field(default_factory=list)


def _plan_links(v: _Vault, src: str, dst: str, old: LinkIndex, new: LinkIndex,
                warnings: list[dict[str, Any]]) -> tuple[dict[str, _Rewrite], int]:
    """Per note (keyed by its path after the move), the edits that keep every resolved link on its note; and the
    number of links to the moved note that resolve unchanged."""
    plans: dict[str, _Rewrite] = {}
    kept = 0
    changes_folder = posixpath.dirname(src) != posixpath.dirname(dst)
    old_name = normalise_link_key(_stem(src)) if normalise_link_key(_stem(src)) != normalise_link_key(_stem(dst)) \
        else None
    for rel, text in v.texts.items():
        after_rel = dst if rel == src else rel
        plan = _Rewrite()
        for site in note_links.link_sites(text):
            was, tier = note_links.resolve_site(old, rel, site)
            replacement: str | None = None
            # the moved note's own relative Markdown links are re-based even where the old text still happens to
            # resolve: written from the new folder, as they were from the old one (and a move back restores them)
            rebase = rel == src and site.kind == "markdown" and changes_folder and not site.path.startswith("/")
            if was is None:
                if rebase:
                    replacement = _rebased(site, src, dst)  # attachments and not-yet-written notes
                if replacement is None:
                    continue
            else:
                expected = dst if was == src else was
                # `[[move]]` to move.md whose H1 is "Move" still resolves here by title, but it names the file, and
                # every other editor resolves it by file name only: it follows the new name (a link by path, its path)
                names_file = was == src and _name_key(site) in (old_name, None)
                if not rebase and not names_file and note_links.resolve_site(new, after_rel, site)[0] == expected:
                    kept += was == src and rel != src
                    continue
                if site.kind == "wikilink":
                    replacement = _wikilink_form(site.target.strip(), expected, tier, new, after_rel)
                else:
                    replacement = _markdown_form(after_rel, site, expected, (was, rel, tier), new)
                if replacement is None:
                    warnings.append({"code": "link_not_rewritten", "path": after_rel, "line": site.line,
                                     "link": text[site.whole[0]:site.whole[1]], "target": expected,
                                     "reason": "no wikilink spelling resolves to the note"})
                    continue
            if replacement == text[site.span[0]:site.span[1]]:
                continue
            if not v.editable[rel]:
                warnings.append({"code": "note_not_editable", "path": rel, "line": site.line,
                                 "link": text[site.whole[0]:site.whole[1]],
                                 "reason": "larger than the editor's limit or not UTF-8: link left as it is"})
                continue
            start, end = site.span
            link_before = text[site.whole[0]:site.whole[1]]
            link_after = text[site.whole[0]:start] + replacement + text[end:site.whole[1]]
            plan.edits.append((start, end, replacement))
            plan.links.append({"line": site.line, "before": link_before, "after": link_after,
                               **({"pinned_to": was} if rel != src and was not in (None, src) else {})})
        if plan.edits:
            plans[after_rel] = plan
    return plans, kept


def _apply(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    for start, end, replacement in sorted(edits, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


@notes.serialised
def move_note(vault: str | Path | None, src_path: str, dst_path: str, *, update_links: bool = True,
              dry_run: bool = False, clock: Callable[[], datetime] | None = None) -> dict[str, Any]:
    """Move or rename a note, rewriting the links in other notes (and its own relative ones) so each still
    reaches the note it reached; refuses (`conflict`) to overwrite an existing note."""
    src = notes.safe_resolve(vault, src_path)
    dst = notes.safe_resolve(vault, dst_path, renaming=src.rel)  # (a folder of it that is a file is refused there)
    if not src.path.is_file():
        raise NotFound(f"note {src.rel} does not exist", path=src.rel)
    if src.rel == dst.rel:
        raise InvalidInput("source and destination are the same note", path=src.rel)
    same_file = dst.path.exists() and os.path.samefile(src.path, dst.path)  # a case-only rename
    if dst.path.exists() and not same_file:
        raise Conflict(f"note {dst.rel} already exists; move it away or delete it first", path=dst.rel, to=dst.rel)
    if update_links and not _WIKILINK_FORBIDDEN.isdisjoint(dst.rel.rsplit("/", 1)[-1]):
        raise InvalidInput("no wikilink can reach a note whose name holds [ ] | # ^; pick another name or pass "
                           "--no-update-links", path=dst.rel)

    v = _Vault.read(vault, src)
    warnings: list[dict[str, Any]] = []
    plans: dict[str, _Rewrite] = {}
    kept = 0
    if update_links:
        moved_identity = parse_note(dst.rel, v.texts[src.rel], logseq=v.logseq).identity
        old_index = v.index()
        new_index = v.index({src.rel: None, dst.rel: moved_identity})
        plans, kept = _plan_links(v, src.rel, dst.rel, old_index, new_index, warnings)
    if notes.skipped_by_ingest(v.root, dst.rel):
        warnings.append({"code": "destination_not_ingested", "path": dst.rel,
                         "reason": "ingest skips a hidden name or this folder: links to the note will not resolve"
                                   " in the graph"})

    src_bytes = src.path.read_bytes()
    moved_plan = plans.get(dst.rel)
    moved_text = _apply(v.texts[src.rel], moved_plan.edits) if moved_plan else None
    files: list[dict[str, Any]] = []
    for rel, plan in sorted(plans.items()):
        before = v.texts[src.rel] if rel == dst.rel else v.texts[rel]
        after = _apply(before, plan.edits)
        files.append({"path": rel, "links": plan.links, "backup": None,
                      "diff": notes._diff(rel, before, after, old_rel=src.rel if rel == dst.rel else None)})

    # every note the move would write, checked before anything is written: the rename that makes each write atomic
    # replaced a read-only linking note without a word
    for entry in files:
        if entry["path"] != dst.rel:
            check_writable(v.files[entry["path"]].path, entry["path"])
    check_writable(dst.path, dst.rel)
    # the note leaves its folder, and a read-only one is not rewritten on the way (its own links rebased): the
    # unlink failed last, with internal, leaving two copies; a chmod 444 note came out with other text
    check_writable(src.path, src.rel, doing="move it (its own links change), or pass --no-update-links"
                   if moved_plan is not None else "move it out of there",
                   file=moved_plan is not None)
    for rel in {src.rel, *(entry["path"] for entry in files if entry["path"] != dst.rel)}:
        notes.check_backup_folder(vault, rel)  # (its dry run too)
    # a note with other names (hard links) is rewritten in place, and the moved one stays that file: said
    for entry in files:
        names = notes.hard_links(src.path if entry["path"] == dst.rel else v.files[entry["path"]].path)
        if names > 1:
            warnings.append(notes.hard_linked(entry["path"], names, dry_run=dry_run))
    out: dict[str, Any] = {"ok": True, "from": src.rel, "to": dst.rel, "dry_run": dry_run, "moved": False,
                           "update_links": update_links, "content_changed": moved_plan is not None,
                           "backup": None, "links_rewritten": sum(len(p.links) for p in plans.values()),
                           "links_kept": kept, "rewritten": {"count": len(files), "files": files},
                           "warnings": {"count": len(warnings), "warnings": warnings}}
    if dry_run:
        return out

    # backups first, then the new note (never over another), then the other notes, then the old note goes: a crash
    # midway leaves two copies of the note, never none
    _unchanged(src.rel, src_bytes, v.texts[src.rel] if moved_text is not None else None)
    out["backup"] = notes.backup_bytes(vault, src.rel, src_bytes, clock=clock)
    for entry in files:
        if entry["path"] != dst.rel:
            rel = entry["path"]
            current = v.files[rel].path.read_bytes()
            _unchanged(rel, current, v.texts[rel])
            entry["backup"] = notes.backup_bytes(vault, rel, current, clock=clock)
        else:
            entry["backup"] = out["backup"]
    if same_file:
        os.rename(src.path, dst.path)
        if moved_text is not None:
            notes.atomic_write_text(dst.path, moved_text)
    elif moved_text is not None and notes.hard_links(src.path) > 1:
        make_folders(dst.path.parent)
        notes.link_no_clobber(src.path, dst.path, keep_source=True)  # its other names keep to it, edit included
        notes.atomic_write_text(dst.path, moved_text)
    elif moved_text is not None:  # a new file, with the note's mode, owner and group
        was = src.path.stat()
        notes.atomic_write_bytes(dst.path, moved_text.encode("utf-8"), mode=was.st_mode & 0o777, replace=False,
                                 like=was)
    else:
        make_folders(dst.path.parent)
        notes.link_no_clobber(src.path, dst.path, keep_source=True)  # the file itself: mode, mtime, inode
    for entry in files:
        if entry["path"] != dst.rel:
            rel = entry["path"]
            notes.atomic_write_text(v.files[rel].path, _apply(v.texts[rel], plans[rel].edits))
    out["sha256"] = hashlib.sha256(dst.path.read_bytes()).hexdigest()
    # written down before the old note goes (a crash between leaves both notes, which pairs nothing): the next ingest
    # keeps the note's decisions under its new name even when its bytes and file name both changed
    record_move(vault, src.rel, dst.rel, hashlib.sha256(src_bytes).hexdigest(), out["sha256"], clock=clock)
    if not same_file and src.path.exists():
        src.path.unlink()
    out["moved"] = True
    return out


def _unchanged(rel: str, current: bytes, planned: str | None) -> None:
    """An editor (Obsidian, a sync) that saved a note since it was read: rewriting the old text would undo that."""
    if planned is not None and current != planned.encode("utf-8"):
        raise Conflict(f"note {rel} changed while the move was planned; run it again", path=rel)


# ── delete ─────────────────────────────────────────────────────────────────────────────────────────────────────
@notes.serialised
def delete_note(vault: str | Path | None, rel_path: str, *, force: bool = False, dry_run: bool = False,
                clock: Callable[[], datetime] | None = None) -> dict[str, Any]:
    """Delete a note after backing it up; a note other notes link to is refused (`conflict`, naming them) unless
    `force`, and then the answer says where each of those links lands now (nowhere, or another note)."""
    target = notes.safe_resolve(vault, rel_path)
    if not target.path.is_file():
        raise NotFound(f"note {target.rel} does not exist", path=target.rel)
    v = _Vault.read(vault, target)
    inbound = _inbound(v, v.index(), target.rel, v.index({target.rel: None}) if force else None)
    linked = {"count": len(inbound), "notes": inbound}
    if inbound and not force:
        raise Conflict(f"{len(inbound)} note(s) link to {target.rel}; fix those links or pass --force",
                       path=target.rel, linked_from=linked)
    # a read-only note is not deleted (`rm` asks first), nor one in a folder it cannot be removed from (the unlink
    # failed with internal, after the backup was made)
    check_writable(target.path, target.rel, doing="delete it")
    data = target.path.read_bytes()
    out: dict[str, Any] = {"ok": True, "path": target.rel, "dry_run": dry_run, "deleted": False, "forced": force,
                           "bytes": len(data), "backup": None, "linked_from": linked}
    notes.check_backup_folder(vault, target.rel)
    if dry_run:
        return out
    out["backup"] = notes.backup_bytes(vault, target.rel, data, clock=clock)
    target.path.unlink()
    out["deleted"] = True
    return out


# ── status ─────────────────────────────────────────────────────────────────────────────────────────────────────
def vault_status(vault: str | Path | None) -> dict[str, Any]:
    """Notes, folders, bytes, newest and oldest note, links and broken links (resolved as ingest resolves them, an
    empty note counting as there), backups."""
    v = _Vault.read(vault)
    index = v.index()
    folders: dict[str, list[int]] = {}
    for rel, n in v.files.items():
        folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
        tally = folders.setdefault(folder, [0, 0])
        tally[0] += 1
        tally[1] += n.size
    total_links = 0
    broken: list[dict[str, Any]] = []
    for rel, targets in v.graph_links.items():
        for line, target in targets:
            total_links += 1
            if index.resolve_key(placeholder_key(target)) is None:
                broken.append({"path": rel, "line": line, "target": target})
    by_age = sorted(v.files.values(), key=lambda n: (n.mtime, n.rel))
    backups = {"count": 0, "bytes": 0}
    backup_root = v.root / BACKUP_DIR
    if backup_root.is_dir() and not backup_root.is_symlink():
        for dirpath, _dirs, names in os.walk(backup_root):
            for name in names:
                if name.endswith(".bak"):
                    backups["count"] += 1
                    backups["bytes"] += os.stat(os.path.join(dirpath, name), follow_symlinks=False).st_size
    return {
        "ok": True, "vault": str(v.root), "notes": len(v.files), "bytes": sum(n.size for n in v.files.values()),
        "empty_notes": sum(1 for n in v.files.values() if n.size == 0),
        "folders": {"count": len(folders), "folders": [{"path": f or ".", "notes": c, "bytes": b}
                                                       for f, (c, b) in sorted(folders.items())]},
        "newest": {"path": by_age[-1].rel, "modified": _iso(by_age[-1].mtime)} if by_age else None,
        "oldest": {"path": by_age[0].rel, "modified": _iso(by_age[0].mtime)} if by_age else None,
        "links": {"count": total_links, "broken": len(broken)},
        "broken_links": {"count": len(broken), "truncated": len(broken) > BROKEN_LINKS_SHOWN,
                         "links": broken[:BROKEN_LINKS_SHOWN]},
        "skipped": {"count": len(v.skipped), "paths": v.skipped},
        "backups": backups,
    }
