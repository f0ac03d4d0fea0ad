"""Which vault notes a prompt names by path, so `retrieve` can keep to them.

Mneme turns any prompt word that equals a folder category ("context", "project", a default hint) into a path filter,
and matches the rest as substrings ("tax" finds "syntax"), so a plain question could silently lose most of the vault
(reference: its `retrieve` path filter). Here only path syntax scopes a prompt: a word with a ``/`` in it
(``Projects/``, ``Projects/lighthouse``, ``areas/suppliers.md``) or ending in ``.md`` (``lighthouse.md``), or the
same inside backticks or double quotes when the path has spaces (`` `Meetings/2026-04-01 Review.md` ``). A mention
scopes to the notes it names — a folder's notes, a note by path (with or without ``.md``, by a trailing part of
its path) or by file name — compared as link targets are (`links.normalise_link_key`: case, ``-``/``_``/spaces).
A wikilink names its target as such a mention (``[[Meeting Notes 2026]]``, ``[[lighthouse#Risks|the risks]]``:
agents write notes' names as the vault does). A mention that names no note (``and/or``, ``TCP/IP``) scopes
nothing and is reported as unmatched.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from .links import normalise_link_key

_QUOTED = re.compile(r"`([^`\n]{1,300})`|\"([^\"\n]{1,300})\"")
_WORD = re.compile(r"\S{1,300}")
_WIKILINK = re.compile(r"\[\[([^\[\]|#^\n]{1,300})(?:[#^][^\[\]|\n]*)?(?:\|[^\[\]\n]*)?\]\]")
_TRIM = "()[]{}<>,;:!?'\"`*"  # punctuation around a word in prose, never part of the path
MAX_MENTIONS = 8
# a vault's paths are keyed again at every scoped prompt; a resident process keeps the keys
_path_key = lru_cache(maxsize=100_000)(normalise_link_key)


@dataclass(frozen=True)
class PathScope:
    """`matched`: each mention as written → the note paths it names (sorted); `unmatched`: mentions naming none."""

    matched: dict[str, tuple[str, ...]] = field(default_factory=dict)
    unmatched: tuple[str, ...] = ()

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(sorted({p for paths in self.matched.values() for p in paths}))

    @property
    def active(self) -> bool:
        return bool(self.matched)

    def without_mentions(self, prompt: str) -> str:
        """The prompt without the mentions that named notes: once the pack keeps to those notes, "projects" and
        "md" are no longer words to search by."""
        for mention in self.matched:
            for written in (f"`{mention}`", f'"{mention}"', mention):
                prompt = prompt.replace(written, " ")
        return prompt


def _looks_like_path(text: str) -> bool:
    if "://" in text or text.startswith("@") or "@" in text.split("/")[0]:
        return False  # a URL or an email address
    return ("/" in text.strip("/") or text.endswith("/") or text.lower().endswith(".md")) and any(
        c.isalnum() for c in text)


def path_mentions(prompt: str) -> list[str]:
    """The path-like mentions of a prompt, in order, each once (at most `MAX_MENTIONS`)."""
    found: list[str] = []
    for match in _WIKILINK.finditer(prompt):
        if (target := match.group(1).strip()) and any(c.isalnum() for c in target):
            found.append(target)
    prompt = _WIKILINK.sub(" ", prompt)
    for match in _QUOTED.finditer(prompt):
        text = (match.group(1) or match.group(2) or "").strip()
        if _looks_like_path(text):
            found.append(text)
    for match in _WORD.finditer(_QUOTED.sub(" ", prompt)):
        text = match.group(0).lstrip(_TRIM).rstrip(_TRIM + ".")  # brackets, quotes, a full stop
        if _looks_like_path(text):
            found.append(text)
    return list(dict.fromkeys(found))[:MAX_MENTIONS]


def _names(mention: str, key: str, path_key: str) -> bool:
    if path_key == key or path_key.startswith(key + "/"):  # the note itself, or a folder holding it
        return True
    if mention.endswith("/"):
        return False
    return path_key.endswith("/" + key)  # a trailing part of its path, or its file name


def resolve_mentions(mentions: Iterable[str], note_paths: Iterable[str]) -> PathScope:
    """The notes each mention names, among `note_paths` (vault-relative)."""
    keyed = [(_path_key(p), p) for p in note_paths]
    matched: dict[str, tuple[str, ...]] = {}
    unmatched: list[str] = []
    for mention in mentions:
        key = normalise_link_key(mention)
        hits = tuple(sorted(p for path_key, p in keyed if key and _names(mention, key, path_key)))
        if hits:
            matched[mention] = hits
        else:
            unmatched.append(mention)
    return PathScope(matched, tuple(unmatched))
