"""Small value helpers shared by the world-model rules: instants, durations, names, hashes, payload fields.

Every payload reader here raises `InvalidInput` with the offending field in the message, so a caller that feeds
arbitrary JSON into any `parse_*` function of this package sees nothing but `InvalidInput`.
"""
from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from datetime import date, datetime, timedelta, timezone
from typing import Any

from mnemon.core.errors import InvalidInput
from mnemon.core.model import refuse_unread_instant

UTC = timezone.utc

# ASCII digits only: `\d` also reads "٥d" or "１d", which no schema or help states (the servers' OFFSET pattern)
_DURATION = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([mhdw])\s*$", re.IGNORECASE)
_DURATION_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_WHITESPACE = re.compile(r"\s+")
_BARE_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DAY = timedelta(days=1)

# Longest text (UTF-8 bytes) a world-model column the store indexes may hold. PostgreSQL refuses a b-tree entry over
# ~2,700 bytes (SQLite has no such limit), so both backends refuse longer keys up front with the same `InvalidInput`
# instead of PostgreSQL failing mid-write. Subject and predicate share one index entry (`wsa_pair`), hence their split.
KEY_MAX_BYTES = 2000
SUBJECT_MAX_BYTES = 1500
PREDICATE_MAX_BYTES = 500


def require_aware(moment: datetime, name: str = "now") -> datetime:
    """Reject naive datetimes: an instant without an offset cannot be compared honestly (Mneme §8.2 #11)."""
    if not isinstance(moment, datetime):
        raise InvalidInput(f"{name} must be a datetime, got {type(moment).__name__}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InvalidInput(f"{name} must be timezone-aware (e.g. UTC)")
    return moment.astimezone(UTC)


def parse_instant(value: Any, field: str) -> datetime:
    """ISO-8601 text (or a datetime) → aware UTC datetime.

    A bare date means midnight UTC; a timestamp without an offset is read as UTC, because payloads written by
    agents routinely drop the `Z` and refusing them would only push callers into string hacks.
    """
    if isinstance(value, datetime):
        moment = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return moment.astimezone(UTC)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be an ISO-8601 string, got {type(value).__name__}", field=field)
    text = value.strip()
    if not text:
        raise InvalidInput(f"{field} must be an ISO-8601 string, got an empty string", field=field)
    try:
        refuse_unread_instant(text)
        if _BARE_DATE.match(text):
            day = date.fromisoformat(text)
            return datetime(day.year, day.month, day.day, tzinfo=UTC)
        moment = datetime.fromisoformat(text[:-1] + "+00:00" if text[-1] in "zZ" else text)
    except ValueError:
        raise InvalidInput(f"{field} is not a valid ISO-8601 date/time: {value!r}", field=field) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except (OverflowError, ValueError):
        raise InvalidInput(f"{field} is out of range: {value!r}", field=field) from None


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def iso_or_none(moment: datetime | None) -> str | None:
    return None if moment is None else iso(moment)


def instant_or_none(value: Any, field: str) -> datetime | None:
    return None if value is None else parse_instant(value, field)


def end_or_none(value: Any, field: str) -> datetime | None:
    """The last instant of a span that ends at `value`: a date alone ("valid until 2026-12-31") names the whole day,
    where `parse_instant` reads its first instant and the span lapsed as the day began."""
    moment = instant_or_none(value, field)
    whole_day = isinstance(value, date) and not isinstance(value, datetime) or (
        isinstance(value, str) and _BARE_DATE.match(value.strip()) is not None)
    return moment + (DAY - timedelta(microseconds=1)) if moment is not None and whole_day else moment


def parse_duration(value: Any, field: str) -> timedelta:
    """`30m`, `4h`, `1d`, `2w` (the CLI's `--lead`/`--before` shorthand) → timedelta."""
    if isinstance(value, timedelta):
        return value
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be a duration like 4h, 1d or 2w, got {type(value).__name__}", field=field)
    match = _DURATION.match(value)
    if not match:
        raise InvalidInput(f"{field} must be a duration like 4h, 1d or 2w, got {value!r}", field=field)
    amount = float(match.group(1))
    try:
        return timedelta(**{_DURATION_UNITS[match.group(2).lower()]: amount})
    except OverflowError:
        raise InvalidInput(f"{field} is too large: {value!r}", field=field) from None


def nfc(text: str) -> str:
    """Unicode NFC: "José" typed on macOS (often NFD, e + combining accent) and elsewhere (NFC) is one string."""
    return unicodedata.normalize("NFC", text)


def norm_name(name: str) -> str:
    """NFC + casefold + collapse whitespace: the identity used for subjects, objects and aliases. (NFC again after
    casefolding, which can decompose a character, so the key itself is always NFC.)"""
    return nfc(_WHITESPACE.sub(" ", nfc(name)).strip().casefold())


def norm_keys(name: str) -> tuple[str, ...]:
    """The stored keys `name` may have: `norm_name`, and for a row written before keys were NFC its decomposed form
    (what an NFD input casefolded to). Lookups by key ask for both, so such a row is still found until rewritten."""
    key = norm_name(name)
    legacy = unicodedata.normalize("NFD", key)
    return (key,) if legacy == key else (key, legacy)


def check_key(value: str | None, field: str, what: str, limit: int | None = KEY_MAX_BYTES) -> str | None:
    """`value` unchanged when a world-model table can store it in a column of its own on both backends: no NUL
    (PostgreSQL text cannot hold it) and, for an indexed column, at most `limit` UTF-8 bytes (see `KEY_MAX_BYTES`;
    None: a column no index holds, any length)."""
    if value is None:
        return None
    if "\x00" in value:
        raise InvalidInput(f"{what}: {field} must not contain NUL characters", field=field)
    size = len(value.encode("utf-8", "surrogatepass"))
    if limit is not None and size > limit:
        raise InvalidInput(f"{what}: {field} is {size:,} bytes long; the limit is {limit:,}", field=field,
                           limit=limit)
    return value


def refuse_nul(data: Mapping[str, Any], what: str) -> None:
    """A payload holding a NUL anywhere is refused, naming the field, before anything is written: PostgreSQL text
    cannot hold one and SQLite can, and both backends must answer alike (as `remember` and scoped payloads do)."""
    if _plain_texts(data):
        return
    # (for writes only: recall loads this module, not validation)
    from mnemon.core.validation import nul_path, surrogate_path

    where = nul_path(data)
    if where is not None:
        raise InvalidInput(f"{what}: {where} must not contain NUL characters", field=where)
    where = surrogate_path(data)
    if where is not None:  # a JSON "\ud800" escape: no store can write it (the write failed naming no field)
        raise InvalidInput(f"{what}: {where or 'a key'} is not valid UTF-8 text (it holds a lone surrogate)",
                           field=where)


def _plain_texts(data: Mapping[str, Any]) -> bool:
    """Whether every key and value of `data` is a text, or an object of texts, holding no NUL and no lone surrogate:
    what most payloads are (a vault note's sense event: some 2,000 a worker), told by one scan of their texts joined
    instead of `refuse_nul`'s walk, which names the field of one that holds either."""
    texts: list[Any] = []
    for key, value in data.items():
        texts.append(key)
        if isinstance(value, Mapping):
            texts += value.keys()
            texts += value.values()
        else:
            texts.append(value)
    try:
        joined = "".join(texts)
    except TypeError:  # (a number, a list, a key that is not a text: walked)
        return False
    if "\x00" in joined:
        return False
    try:
        joined.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def content_hash(prefix: str, value: Any, length: int) -> str:
    digest = hashlib.sha1((prefix + canonical_json(value)).encode("utf-8")).hexdigest()
    return digest[:length]


# ---- payload field readers -------------------------------------------------------------------------------------

def require_mapping(value: Any, what: str, field: str | None = None) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} must be a JSON object, got {type(value).__name__}",
                           **({"field": field} if field else {}))
    for key in value:
        if not isinstance(key, str):
            raise InvalidInput(f"{what} has a non-string key {key!r}")
    return value


def refuse_unknown_keys(obj: Mapping[str, Any], known: Collection[str], what: str) -> None:
    """A payload key no rule reads is refused, never ignored: a misspelt `side_effect_lvl` would otherwise be stored
    as its default and skip the very rule it was meant for. Each unknown key is named with the closest known one."""
    unknown = sorted(key for key in obj if key not in known)
    if not unknown:
        return
    import difflib  # only on a refusal: `remember` loads this module and never needs it (tests/cli/test_startup.py)

    choices = sorted(known)
    closest = {key: difflib.get_close_matches(key, choices, n=1) for key in unknown}
    named = ", ".join(f"{key!r} (did you mean {closest[key][0]!r}?)" if closest[key] else repr(key) for key in unknown)
    raise InvalidInput(f"{what}: unknown field{'s' if len(unknown) > 1 else ''} {named}; known: {', '.join(choices)}",
                       field=unknown[0], unknown=unknown,
                       did_you_mean={key: match[0] for key, match in closest.items() if match})


def refuse_misspelt_keys(obj: Mapping[str, Any], known: Collection[str], what: str) -> None:
    """`refuse_unknown_keys` for a payload whose other keys are let through: only a key that looks misspelt
    ("claim" for "claims") is refused — read as missing, its list was empty and replaced what the last one wrote."""
    import difflib

    misspelt = {key for key in obj if key not in known and difflib.get_close_matches(key, list(known), n=1)}
    if misspelt:
        refuse_unknown_keys({key: None for key in misspelt}, known, what)


def required_str(obj: Mapping[str, Any], key: str, what: str) -> str:
    if key not in obj or obj[key] is None:
        raise InvalidInput(f"{what}: missing required field {key!r}", field=key)
    value = obj[key]
    if not isinstance(value, str):
        raise InvalidInput(f"{what}: {key} must be a string, got {type(value).__name__}", field=key)
    if not value.strip():
        raise InvalidInput(f"{what}: {key} must not be empty", field=key)
    return value.strip()


def optional_str(obj: Mapping[str, Any], key: str, what: str, default: str | None = None) -> str | None:
    value = obj.get(key)
    if value is None:
        return default
    if not isinstance(value, str):
        raise InvalidInput(f"{what}: {key} must be a string, got {type(value).__name__}", field=key)
    return value.strip() or default


def unit_float(obj: Mapping[str, Any], key: str, what: str, default: float) -> float:
    """A probability-like number in [0, 1]; booleans are refused even though Python treats them as ints."""
    value = obj.get(key)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"{what}: {key} must be a number in [0, 1], got {type(value).__name__}", field=key)
    number = float(value)
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise InvalidInput(f"{what}: {key} must be in [0, 1], got {value!r}", field=key)
    return number


def optional_bool(obj: Mapping[str, Any], key: str, what: str, default: bool = False) -> bool:
    value = obj.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidInput(f"{what}: {key} must be true or false, got {type(value).__name__}", field=key)
    return value


def optional_mapping(obj: Mapping[str, Any], key: str, what: str) -> dict[str, Any]:
    value = obj.get(key)
    if value is None:
        return {}
    if isinstance(value, str):
        # Rows coming back from a store may carry metadata as its JSON text.
        try:
            value = json.loads(value)
        except ValueError:
            raise InvalidInput(f"{what}: {key} is not valid JSON", field=key) from None
    mapping = dict(require_mapping(value, f"{what}: {key}", key))
    json_clean(mapping, f"{what}: {key}", key)
    return mapping


def string_list(value: Any, field: str) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidInput(f"{field} must be a list of strings, got {type(value).__name__}", field=field)
    out: list[str] = []
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise InvalidInput(f"{field}[{index}] must be a string, got {type(item).__name__}", field=field)
        if not item.strip():
            raise InvalidInput(f"{field}[{index}] must not be empty", field=field)
        out.append(item.strip())
    return tuple(out)


def json_clean(value: Any, what: str, field: str = "") -> Any:
    """Prove a value is plain JSON (so `to_row()` can never fail later) — NaN, Infinity and non-string keys are
    refused, naming where the first sits below `field` (`metadata.a[1].b`)."""
    try:
        canonical_json(value)
    except (TypeError, ValueError):
        from mnemon.core.validation import unwritable_path  # (as refuse_nul: recall loads this module)

        where = unwritable_path(value, field) or field
        raise InvalidInput(f"{what} must contain only JSON values (no NaN or Infinity, no non-string keys): "
                           f"{where} is not one", **({"field": where} if where else {})) from None
    return value


def truthy_flag(metadata: Mapping[str, Any], *keys: str) -> bool:
    return any(metadata.get(key) is True or metadata.get(key) in ("true", "yes", 1) for key in keys)
