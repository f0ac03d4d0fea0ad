"""Input validation for memory writes. Every violation is an InvalidInput with a precise message."""
from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from .errors import InvalidInput
from .stored_text import check_storable, check_unicode
from .model import CATEGORIES, MNEMON_EDGE_TYPES, iso, parse_iso

MAX_CONTENT_CHARS = 8000
MAX_TAGS = 20
MAX_TAG_CHARS = 100
MAX_ENTITIES = 50
MAX_ENTITY_CHARS = 200
MAX_SOURCE_CHARS = 200
ENTITY_MODES = ("merge", "provided", "auto")
# the write rules and recall compute windows around a memory's time (±24 h proximity, a named period's days of
# slack); a year of margin inside datetime's 0001–9999 keeps every such window computable
EARLIEST = datetime(2, 1, 1, tzinfo=timezone.utc)
LATEST = datetime(9999, 1, 1, tzinfo=timezone.utc)  # exclusive
# how far past the clock a memory's date may lie: another machine's clock or time zone slip, not a future date (a
# memory dated 2099 would rank first on recency and never decay or be pruned for as long as anyone uses the store)
FUTURE_SLACK = timedelta(days=1)


@dataclass(frozen=True)
class MemoryInput:
    content: str
    category: str
    importance: int
    tags: tuple[str, ...]
    entities: tuple[str, ...]
    source: str
    entity_mode: str
    created_at: str | None


def split_list(value: str | Iterable[str] | None) -> list[str]:
    """Comma-separated string or list → stripped non-empty items, order kept, duplicates removed."""
    if value is None:
        return []
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        # a number or an object from an import file must be a clear error, not a TypeError traceback
        raise InvalidInput(f"expected a comma-separated string or a list of strings, got {type(value).__name__}")
    out: list[str] = []
    for item in items:
        if not isinstance(item, str):
            raise InvalidInput(f"list items must be strings, got {type(item).__name__}")
        s = item.strip()
        if s and s not in out:
            out.append(s)
    return out


def composed(text: str) -> str:
    """`text` in Unicode's composed form (NFC), which every writer stores: what an NFD text looks like, in fewer
    code points; ASCII as it is, without a copy."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def validate_memory(content: Any, *, category: Any = "general", importance: Any = 3, tags: Any = None,
                    entities: Any = None, source: Any = "user", entity_mode: Any = "merge",
                    created_at: Any = None) -> MemoryInput:
    if not isinstance(content, str) or not content.strip():
        raise InvalidInput("content must be a non-empty string")
    check_unicode(content, "content")
    if "\x00" in content:
        raise InvalidInput("content must not contain NUL characters")
    # NFC: text pasted on macOS is NFD ("e" and a combining accent), and its exact repeat must be one (content hash)
    content = composed(content)
    if len(content) > MAX_CONTENT_CHARS:
        raise InvalidInput(f"content is {len(content)} characters; the limit is {MAX_CONTENT_CHARS}",
                           length=len(content), limit=MAX_CONTENT_CHARS)
    if category not in CATEGORIES:
        raise InvalidInput(f"category must be one of {', '.join(CATEGORIES)}; got {category!r}")
    if isinstance(importance, bool) or not isinstance(importance, (int, str)):
        raise InvalidInput(f"importance must be an integer from 1 to 5; got {importance!r}")
    try:
        imp = int(importance)
    except ValueError:
        raise InvalidInput(f"importance must be an integer from 1 to 5; got {importance!r}") from None
    if not 1 <= imp <= 5:
        raise InvalidInput(f"importance must be an integer from 1 to 5; got {imp}")
    tag_list = list(dict.fromkeys(composed(t) for t in split_list(tags)))
    if len(tag_list) > MAX_TAGS:
        raise InvalidInput(f"{len(tag_list)} tags given; the limit is {MAX_TAGS}")
    for t in tag_list:
        check_storable(t, "a tag", "tags")
        if len(t) > MAX_TAG_CHARS:
            raise InvalidInput(f"tag {t[:30]!r}… is longer than {MAX_TAG_CHARS} characters")
    # one entity however it is cased ("Ana,ana,ANA"): the first spelling given is kept. Stored three times it linked
    # the memory to itself under three names and counted three entity matches for one name in recall
    firsts: dict[str, str] = {}
    for e in split_list(entities):
        e = composed(e)
        firsts.setdefault(e.casefold(), e)
    ent_list = list(firsts.values())
    if len(ent_list) > MAX_ENTITIES:
        raise InvalidInput(f"{len(ent_list)} entities given; the limit is {MAX_ENTITIES}")
    for e in ent_list:
        check_storable(e, "an entity", "entities")
        if len(e) > MAX_ENTITY_CHARS:
            raise InvalidInput(f"entity {e[:30]!r}… is longer than {MAX_ENTITY_CHARS} characters")
    if not isinstance(source, str) or not source.strip() or len(source) > MAX_SOURCE_CHARS:
        raise InvalidInput(f"source must be a non-empty string of at most {MAX_SOURCE_CHARS} characters")
    check_storable(source, "source", "source")
    if entity_mode not in ENTITY_MODES:
        raise InvalidInput(f"entity mode must be one of {', '.join(ENTITY_MODES)}; got {entity_mode!r}")
    created: str | None = None
    if created_at not in (None, ""):
        if not isinstance(created_at, str):
            raise InvalidInput("created_at must be an RFC 3339 / ISO-8601 string")
        try:
            when = parse_iso(created_at)
        except (ValueError, OverflowError):  # OverflowError: an offset pushes year 1 / 9999 out of range
            raise InvalidInput(f"created_at {created_at!r} is not an RFC 3339 / ISO-8601 timestamp") from None
        if not EARLIEST <= when < LATEST:
            raise InvalidInput(f"created_at {created_at!r} is out of range: give a time from year "
                               f"{EARLIEST.year:04d} to {LATEST.year - 1}")
        created = iso(when)
    return MemoryInput(content, category, imp, tuple(tag_list), tuple(ent_list), source.strip(), entity_mode, created)


def refuse_future(inp: MemoryInput, now: datetime) -> MemoryInput:
    """`inp`, unless its `created_at` lies more than `FUTURE_SLACK` after `now` (what happened is dated when it
    happened; a plan for next year is content: "Launch on 2027-03-01")."""
    if inp.created_at and parse_iso(inp.created_at) > now + FUTURE_SLACK:
        raise InvalidInput(f"created_at {inp.created_at} is in the future (now is {iso(now)}): a memory is dated "
                           "when it happened; say a planned date in its content", field="created_at")
    return inp


VAULT_SOURCE = "vault:"  # the source of every row a vault ingest writes (`vault:<note path>`)


def refuse_vault_source(inp: MemoryInput) -> MemoryInput:
    """`inp`, unless its source claims a vault note: every rule reads a `vault:` row as a line of that note — no time
    of its own (recency, proximity), never pruned, never an exact repeat — so a memory written by hand under one was
    stored twice when said twice and outlived the cap. (A scoped `mneme://` source is a user's to give.)"""
    if inp.source.startswith(VAULT_SOURCE):
        raise InvalidInput(f"source {inp.source[:60]!r} is reserved: '{VAULT_SOURCE}…' names the rows a vault ingest "
                           "writes from a note; give another source (the note's path without the prefix will do)",
                           field="source")
    return inp


def refuse_blank_id(value: Any, what: str, field: str | None = None) -> None:
    """A blank id names nothing: invalid_input, never looked up (`mnemon show ''` answered not_found where MCP and
    HTTP, whose schemas refuse a blank id, answered invalid_input); `field`, the argument it came as, is named."""
    if isinstance(value, str) and not value.strip():
        raise InvalidInput(f"{what} must not be blank", **({"field": field} if field else {}))


def validate_edge_type(edge_type: Any) -> str:
    if edge_type not in MNEMON_EDGE_TYPES:
        raise InvalidInput(f"edge type must be one of {', '.join(MNEMON_EDGE_TYPES)}; got {edge_type!r}")
    return str(edge_type)


def validate_weight(weight: Any) -> float:
    try:
        w = float(weight)
    except (TypeError, ValueError):
        raise InvalidInput(f"weight must be a number from 0 to 1; got {weight!r}") from None
    if not 0.0 <= w <= 1.0 or w != w:
        raise InvalidInput(f"weight must be a number from 0 to 1; got {weight!r}")
    return w


def nul_path(value: Any, path: str = "") -> str | None:
    """Where in `value` the first NUL sits — in a string or an object's key, at any depth — as a field path
    (`evidence`, `metadata.note`, `match_json.observation_terms_all[2]`), else None."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    if isinstance(value, Mapping):
        for key, item in value.items():
            name = f"{path}.{key}" if path else str(key)
            if "\x00" in name:  # the key itself: named in JSON's spelling, so the path holds no NUL
                return f"{path}.{json.dumps(str(key))}" if path else json.dumps(str(key))
            if (found := nul_path(item, name)) is not None:
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            if (found := nul_path(item, f"{path}[{index}]")) is not None:
                return found
    return None


def unwritable_path(value: Any, path: str = "") -> str | None:
    """Where in `value` the first value JSON cannot write sits — NaN or ±Infinity (Python's JSON reads them), a key
    that is not a text — as `nul_path` names it, else None."""
    if isinstance(value, float):
        return None if math.isfinite(value) else path
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                return path
            if (found := unwritable_path(item, f"{path}.{key}" if path else key)) is not None:
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            if (found := unwritable_path(item, f"{path}[{index}]")) is not None:
                return found
    return None


def surrogate_path(value: Any, path: str = "") -> str | None:
    """Where in `value` the first text that cannot be UTF-8 encoded sits (a lone surrogate, from a JSON "\\ud800"
    escape), as `nul_path` names it; a key that holds one names its object. No store can write such text and a
    search for it matches nothing, so every door refuses it alike."""
    if isinstance(value, str):
        return None if _encodes(value) else path
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not _encodes(str(key)):
                return path
            if (found := surrogate_path(item, f"{path}.{key}" if path else str(key))) is not None:
                return found
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            if (found := surrogate_path(item, f"{path}[{index}]")) is not None:
                return found
    return None


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
