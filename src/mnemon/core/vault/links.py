"""Link resolution: which note does ``[[Target]]`` or ``[text](dir/other.md)`` point at?

Mneme's worst graph bug (reference §8.2 item 1) was that ``[[School Search]]`` became a global `wikilink`
node never joined to ``school-search.md``, so note-to-note walks could not cross links. Here every note is
indexed under all the names it can be linked by, and a link target resolves to a note *path*.

Keys. `normalise_link_key` makes spelling differences irrelevant: Unicode NFKC, case-folded, backslashes
become ``/``, leading ``./`` and ``/`` and a trailing ``.md`` are dropped, ``-`` and ``_`` count as spaces and
whitespace runs collapse — so ``[[School Search]]``, ``[[school-search]]`` and ``school_search.md`` agree.

Precedence (first tier with a match wins; the rule is fixed so a rebuild always yields the same edges):

1. exact vault-relative path, with or without ``.md`` (``[[Projects/Alpha]]``);
2. a trailing part of a path, for targets with folders (``[[sub/Note]]`` → ``area/sub/Note.md``);
3. title (front matter ``title`` > first H1 > filename stem);
4. front-matter alias;
5. filename stem.

A file name outranks a title or alias, though, as in Obsidian: when some note's stem is the key, tiers 3 and 4 only
offer notes whose stem it is too, so ``[[Beta]]`` goes to ``Projects/Beta.md`` and not to a meeting note whose H1
happens to read ``# Beta`` (it used to go there).

Several notes in one tier: a note in the linking note's own folder wins, as in Obsidian (``[[Meeting]]`` written in
``Projects/Alpha/Log.md`` goes to ``Projects/Alpha/Meeting.md``, not to ``Projects/Beta/Meeting.md``); else the
shallowest path, then the lexicographically smallest path. A link's note so depends on its key, the notes claiming
the key and the folder it is written in — never on another link or another note's names.

Unresolved targets get a placeholder node keyed by `placeholder_key(target)`. That key is exactly what the
resolver looks up, so when a note appears the app can find placeholders whose key is in `note_keys(note)` and
re-resolve them with `LinkIndex.resolve_key` (a better-ranked note may already claim the key).
"""
from __future__ import annotations

import posixpath
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from mnemon.core.vault.model import NoteIdentity

_SPACES = re.compile(r"\s+")
_SEPARATORS = str.maketrans({"-": " ", "_": " ", "\\": "/"})
TIERS: tuple[str, ...] = ("path", "path_suffix", "title", "alias", "stem")
_NAMED_ONLY_BY_STEM = frozenset({"title", "alias"})  # tiers a note must also hold by stem when any note does


def normalise_link_key(value: str) -> str:
    text = unicodedata.normalize("NFKC", value).translate(_SEPARATORS).strip()
    if text.lower().endswith(".md"):
        text = text[:-3]
    segments = [_SPACES.sub(" ", segment).strip() for segment in text.split("/")]
    kept = [segment for segment in segments if segment and segment != "."]
    return "/".join(kept).casefold()


def split_link_target(raw: str) -> tuple[str, str | None, str | None]:
    """``Target#Section|Alias`` → (target, section, alias). A block reference (``^id``, after the target or its
    section: ``Target^id``, ``Target#^id``, ``Target#Section^id``) points at a block of the target note, so it is
    no part of the target's name (kept in it, it named a note nobody has and parked the link on a placeholder):
    `link_block` reads it."""
    target, bar, alias = raw.partition("|")
    target = target.rstrip("\\")  # ``[[A\\|B]]`` inside a Markdown table escapes the bar
    target, hash_mark, section = target.partition("#")
    target = target.partition("^")[0]  # (Obsidian's links cannot reach a file with "^" in its name either)
    section_text = section.partition("^")[0].strip() if hash_mark else ""
    return target.strip(), (section_text or None), (alias.strip() or None) if bar else None


def link_block(raw: str) -> str | None:
    """The block a link target points at (``Target#^id``, ``Target^id``, ``Target#Section^id``, before any
    ``|Alias``): its id, or None."""
    if "^" not in raw:
        return None
    block = raw.partition("|")[0].rstrip("\\").rpartition("^")[2].strip()
    return block or None


_ONE_WIKILINK = re.compile(r"\[\[([^\[\]\n]+)\]\]")


def link_name(name: str) -> str:
    """A name given as one Obsidian link ("[[Supplier#Contacts|Acme]]") as the note it links to ("Supplier"), any
    other name as it is: a resolve claim's subject or object, or a belief's, names the note, not the link to it."""
    found = _ONE_WIKILINK.fullmatch(name.strip())
    return (split_link_target(found.group(1))[0] or name) if found else name


def relative_target(target: str, linker: str) -> str:
    """A wikilink target written from its note's folder (``./Sib``, ``../Beta/Beta Spec``: Obsidian's "relative path
    to file" form) as the vault path it names; any other target, and one leaving the vault, as written."""
    if not target.startswith(("./", "../")):
        return target
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(linker), target))
    return target if joined == ".." or joined.startswith("../") else joined


_DISPLAY_WIKILINK = re.compile(r"!?\[\[([^\[\]\n]+?)\]\]")


def display_links(text: str) -> str:
    """Text as a reader sees it: each ``[[Target#Section|Alias]]`` (or embed) shown as its alias, else its target.

    >>> display_links("Waiting on [[Bram Okafor]] and [[People/ada-quill|Ada]]")
    'Waiting on Bram Okafor and Ada'
    """
    def label(match: re.Match[str]) -> str:
        target, _section, alias = split_link_target(match.group(1))
        return alias or target

    return _DISPLAY_WIKILINK.sub(label, text)


def placeholder_key(target: str) -> str:
    """The key an unresolved target is parked under; equal to the key the resolver will look up."""
    return normalise_link_key(split_link_target(target)[0])


def _stem(path: str) -> str:
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name[:-3] if name.lower().endswith(".md") else name


def _all_suffixes(path_key: str) -> list[str]:
    """Proper trailing parts that still contain a folder: a/b/c → b/c (the bare stem is its own tier)."""
    parts = path_key.split("/")
    return ["/".join(parts[index:]) for index in range(1, len(parts) - 1)]


def note_keys(note: NoteIdentity) -> dict[str, frozenset[str]]:
    """Every key, per tier, under which `note` is indexed."""
    path_key = normalise_link_key(note.path)
    return {
        "path": frozenset({path_key}) if path_key else frozenset(),
        "path_suffix": frozenset(_all_suffixes(path_key)),
        "title": frozenset(key for key in [normalise_link_key(note.title)] if key),
        "alias": frozenset(key for alias in note.aliases if (key := normalise_link_key(alias))),
        "stem": frozenset(key for key in [normalise_link_key(_stem(note.path))] if key),
    }


def _rank(path: str) -> tuple[int, str]:
    return (path.count("/"), path)


def _folder(path: str) -> str:
    return path.rpartition("/")[0]


def nearest_first(paths: tuple[str, ...], linker: str | None, key: str = "") -> tuple[str, ...]:
    """`paths` (best first by the fixed rule) with those in `linker`'s folder moved ahead, order kept otherwise; for
    a `key` with folders (``sub/note``), those in that folder under `linker`'s (a relative Markdown link's note)."""
    if linker is None or len(paths) < 2:
        return paths
    home = _folder(linker)
    below = _folder(key)
    if below:
        where = normalise_link_key(f"{home}/{below}")
        near = tuple(path for path in paths if normalise_link_key(_folder(path)) == where)
    else:
        near = tuple(path for path in paths if _folder(path) == home)
    return paths if not near or near[0] == paths[0] else near + tuple(p for p in paths if p not in near)


@dataclass(frozen=True)
class LinkIndex:
    """Normalised key → candidate note paths, one mapping per precedence tier."""

    tiers: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)

    @classmethod
    def build(cls, notes: Iterable[NoteIdentity]) -> "LinkIndex":
        buckets: dict[str, dict[str, set[str]]] = {tier: {} for tier in TIERS}
        for note in notes:
            for tier, keys in note_keys(note).items():
                for key in keys:
                    buckets[tier].setdefault(key, set()).add(note.path)
        return cls(
            tiers={
                tier: {key: tuple(sorted(paths, key=_rank)) for key, paths in mapping.items()}
                for tier, mapping in buckets.items()
            }
        )

    def resolve_key(self, key: str, linker: str | None = None) -> str | None:
        return self.explain_key(key, linker)[0]

    def explain_key(self, key: str, linker: str | None = None) -> tuple[str | None, str | None]:
        """(note path, tier that matched) for a link written in note `linker` (None: a name with no note behind it,
        as a claim's) — the tier is edge evidence: *why* a link landed where it did."""
        tier, paths = self.offered(key, linker)
        return (paths[0], tier) if paths else (None, None)

    def offered(self, key: str, linker: str | None = None) -> tuple[str | None, tuple[str, ...]]:
        """The first tier with a note for `key` and its notes, best first for a link written in `linker`: more than
        one is an ambiguous link (the first wins, by the rule above)."""
        tier, paths = self._offered(key)
        return tier, nearest_first(paths, linker, key)

    def _offered(self, key: str) -> tuple[str | None, tuple[str, ...]]:
        if not key:
            return None, ()
        named = self.tiers.get("stem", {}).get(key)  # notes whose file is named so
        for tier in TIERS:
            paths = self.tiers.get(tier, {}).get(key)
            if paths and named and tier in _NAMED_ONLY_BY_STEM:
                paths = tuple(path for path in paths if path in named)
            if paths:
                return tier, paths
        return None, ()

    def outranked(self, key: str, offered: tuple[str, ...]) -> dict[str, str]:
        """The other notes claiming `key` that a better claim beat (a lower tier, or a title or alias where some note's
        file is so named), each with the best tier it claims the key in: why they did not get the link."""
        others: dict[str, str] = {}
        for tier in TIERS:
            for path in self.tiers.get(tier, {}).get(key, ()):
                if path not in offered:
                    others.setdefault(path, tier)
        return others

    def candidates(self, target: str) -> dict[str, tuple[str, ...]]:
        """Every note each tier would offer for `target`, to show ambiguity instead of hiding it."""
        key = placeholder_key(target)
        return {tier: paths for tier in TIERS if (paths := self.tiers.get(tier, {}).get(key))}

    def __len__(self) -> int:
        return len({path for paths in self.tiers.get("path", {}).values() for path in paths})


def resolve_link(target: str, index: LinkIndex, linker: str | None = None) -> str | None:
    """The vault-relative path of the note `target`, written in note `linker`, points at, or None when no note
    claims it yet."""
    return index.resolve_key(placeholder_key(target), linker)
