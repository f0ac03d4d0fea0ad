"""YAML front matter: the ``---`` block on the first line of a note.

Mneme ignored front matter entirely (its ``title:`` lines even became bullets/headings noise). Here it is
parsed with a safe loader and never raises: malformed YAML, a non-mapping document or an unterminated block
become `ParseWarning`s and the note is still parsed; a block YAML reads as a list or as text is no front matter
(its lines are the note's text). ``raw`` is made JSON-safe (dates → ISO strings, keys →
strings) and bounded, because YAML aliases can expand a tiny block into an enormous tree.
"""
from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from mnemon.core.vault.model import NUL_STAND_IN, FrontMatter, ParseWarning

try:  # libyaml's safe loader is ~10x faster and exactly as safe; the pure-Python one is the fallback.
    _SafeLoader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _SafeLoader = yaml.SafeLoader

_MAX_RAW_NODES = 5_000

# The shape most front matter has — `key: value`, `key: [a, b]`, `key:` over `- item` lines, values that are words,
# whole numbers or ISO days — is read without the YAML library, whose Python-level constructor cost more than the
# rest of a short note's parse. Anything else, or anything YAML could read otherwise, goes to the library.
_KEY_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*):(?: +([^ ].*?))? *")
_ITEM_LINE = re.compile(r"( *)- +([^ ].*?) *")
# a plain scalar YAML resolves to a string: a letter first (no number, date, or indicator character), then only word
# characters, spaces and `-./'()`, so there is no ": ", " #", quote, flow or escape to interpret
_PLAIN = re.compile(r"[^\W\d_][\w \-./'()]*")
_RESOLVED_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "null", "y", "n"})  # booleans and null
_INT = re.compile(r"0|[1-9][0-9]{0,17}")  # (PyYAML refuses what int() refuses: 4,300 digits)
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_TAG_SPLIT = re.compile(r"[\s,]+")
_OPENERS = frozenset({"---"})
# a line a YAML mapping could start with: a plain or quoted key, a colon, then a space or the line's end
_MAPPING_LINE = re.compile(r"""(?:[A-Za-z0-9_][\w .-]*|"[^"\n]*"|'[^'\n]*'):(?:[ \t]|$)""")
_CLOSERS = frozenset({"---", "..."})


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit
        self.exhausted = False

    def take(self) -> bool:
        self.left -= 1
        if self.left < 0:
            self.exhausted = True
        return not self.exhausted


def _jsonable(value: Any, budget: _Budget, depth: int = 0) -> Any:
    if not budget.take() or depth > 50:
        budget.exhausted = True
        return None
    if isinstance(value, str):
        # YAML's "\0" escape decodes to a NUL the file does not hold (a NUL it holds was replaced before parsing):
        # read the same way, or the note's title stops the whole ingest (a stored text never holds a NUL)
        return value.replace("\x00", NUL_STAND_IN) if "\x00" in value else value
    if value is None or isinstance(value, (bool, int)):
        return value
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else str(value)
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(key).replace("\x00", NUL_STAND_IN): _jsonable(item, budget, depth + 1)
                for key, item in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_jsonable(item, budget, depth + 1) for item in value]
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _plain(text: str) -> str | None:
    return text if _PLAIN.fullmatch(text) and text.lower() not in _RESOLVED_WORDS else None


def _simple_value(text: str) -> Any:
    """The value of `key: text` as YAML reads it, or None when that needs the YAML library."""
    if text[0] == "[":
        if text[-1] != "]":
            return None
        inner = text[1:-1].strip(" ")
        if not inner:
            return []
        items = [_plain(item.strip(" ")) for item in inner.split(",")]
        return None if None in items else items
    if _INT.fullmatch(text):
        return int(text)
    if _DAY.fullmatch(text):
        try:  # YAML reads a day as a date, which `_jsonable` writes back as the same ISO text
            return _dt.date(int(text[:4]), int(text[5:7]), int(text[8:])).isoformat()
        except ValueError:
            return None
    return _plain(text)


def simple_yaml(lines: Sequence[str]) -> dict[str, Any] | None:
    """What `yaml.safe_load("\n".join(lines))` returns for front matter of the simple shape, or None for any other."""
    mapping: dict[str, Any] = {}
    listing: list[str] | None = None  # the block sequence of the last `key:` line
    indent = ""
    for line in lines:
        key_line = _KEY_LINE.fullmatch(line)
        if key_line is not None:
            if listing == [] or key_line.group(1) in mapping or key_line.group(1).lower() in _RESOLVED_WORDS:
                return None  # a key with no value (null), a repeated key, or a key YAML reads as a boolean
            if key_line.group(2) is None:
                listing = mapping[key_line.group(1)] = []
                continue
            value = _simple_value(key_line.group(2))
            if value is None:
                return None
            mapping[key_line.group(1)], listing = value, None
            continue
        item_line = _ITEM_LINE.fullmatch(line)
        if item_line is None or listing is None or (listing and item_line.group(1) != indent):
            return None
        indent = item_line.group(1)
        item = _plain(item_line.group(2))
        if item is None:
            return None
        listing.append(item)
    return mapping if mapping and listing != [] else None


def _scalar_text(value: Any) -> str | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (str, int, float)):
        text = str(value).strip()
        return text or None
    return None


def _string_list(value: Any) -> list[str]:
    items: Sequence[Any] = value if isinstance(value, list) else [value]
    return [text for item in items if (text := _scalar_text(item)) is not None]


def normalise_tag(tag: str) -> str:
    """A tag's name as the graph keys it: without its '#', case-folded, composed (NFC: the "é" macOS writes as "e"
    and an accent is the "é" a keyboard types)."""
    return unicodedata.normalize("NFC", tag.strip().lstrip("#").strip().casefold())


def _tags(value: Any) -> tuple[str, ...]:
    names: list[str] = []
    for item in _string_list(value):
        names.extend(name for part in _TAG_SPLIT.split(item) if (name := normalise_tag(part)))
    return tuple(dict.fromkeys(names))


# Properties a note's other rows already carry (its name and tags) or that only style it in Obsidian
_NAMING_KEYS = frozenset({"title", "aliases", "alias", "tags", "tag", "cssclasses", "cssclass"})
_ISO_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[T ][0-9:.+\-Z]*)?")


def _property_value(value: Any) -> str | None:
    """A property's value as one line: a scalar, or a list's scalars joined by ", "; None for a mapping, a
    boolean, a null, or a day or time (already a `mentions_date` edge of the note)."""
    items = value if isinstance(value, list) else [value]
    texts = [" ".join(text.split()) for item in items if (text := _scalar_text(item)) is not None]
    texts = [text for text in texts if text and not _ISO_TIME.fullmatch(text)]
    return ", ".join(texts) or None


def _said_properties(raw: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(key, `key: value`) of each property the properties section says, in the front matter's order."""
    said = []
    for key, value in raw.items():
        if key in _NAMING_KEYS:  # (as the note reads them: a "Title" key names nothing)
            continue
        text = _property_value(value)
        if text is not None:
            said.append((key, f"{' '.join(key.split())}: {text}"))
    return said


def property_text(raw: Mapping[str, Any]) -> str:
    """What a note's properties say, for search: `key: value` a line, in the front matter's order, for each
    property with a scalar or list value other than the note's title, aliases, tags and CSS classes; "" when none
    has one."""
    return "\n".join(line for _key, line in _said_properties(raw))


def _property_lines(lines: Sequence[str], closing: int, raw: Mapping[str, Any]) -> tuple[int, ...]:
    """The 1-based note line of each line `property_text` says: its key's top-level line inside the front matter
    (a day, a mapping or an empty value says nothing, so its line is no property's); the line above's, or the
    opening `---` (1), for a key not found as written."""
    top = [(index + 1, line) for index in range(1, closing)
           if ":" in (line := lines[index]) and line[:1] not in (" ", "\t", "#", "-")]
    said: list[int] = []
    for key, _line in _said_properties(raw):  # (a key may hold a colon: "role:: x" is the key "role:")
        heads = (f"{key}:", f'"{key}":', f"'{key}':", f"{key} :")
        said.append(next((number for number, line in top if line.startswith(heads)), said[-1] if said else 1))
    return tuple(said)


def _shape(loaded: Any) -> str:
    if isinstance(loaded, list):
        return "a list"
    if isinstance(loaded, bool):
        return "true or false"
    if isinstance(loaded, (int, float)):
        return "a number"
    if isinstance(loaded, (_dt.date, _dt.time)):
        return "a date"
    return "text"


def split_front_matter(lines: Sequence[str]) -> tuple[FrontMatter | None, int, list[ParseWarning]]:
    """Return (front matter, index of the first body line, warnings) for the note's lines."""
    if not lines or lines[0].rstrip() not in _OPENERS:
        return None, 0, []
    closing = next((index for index in range(1, len(lines)) if lines[index].rstrip() in _CLOSERS), None)
    if closing is None:
        # a note opening with a thematic break ('---' over text) is no front matter left open: it warns only when a
        # `key: value` line comes first below, as in front matter
        first = next((line for line in lines[1:] if line.strip()), "")
        return None, 0, [
            ParseWarning("front_matter_unterminated", "front matter opened with '---' but never closed", 1)
        ] if _MAPPING_LINE.match(first) else []
    warnings: list[ParseWarning] = []
    loaded: Any = simple_yaml(lines[1:closing])
    try:
        if loaded is None:
            loaded = yaml.load("\n".join(lines[1:closing]), Loader=_SafeLoader)  # noqa: S506 - a safe loader, see above
    except (yaml.YAMLError, ValueError, TypeError, RecursionError, OverflowError) as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1  # +1 for 1-based, +1 for the opening '---'
        warnings.append(ParseWarning("front_matter_invalid", f"front matter is not valid YAML: {error}", line))
        loaded = None
    raw: dict[str, Any] = {}
    if isinstance(loaded, Mapping):
        budget = _Budget(_MAX_RAW_NODES)
        converted = _jsonable(loaded, budget)
        raw = converted if isinstance(converted, dict) else {}
        if budget.exhausted:
            warnings.append(ParseWarning("front_matter_truncated", "front matter too large; values truncated", 1))
    elif loaded is not None:
        # (a thematic break over a paragraph, say: CommonMark renders its lines, and they were dropped from the note)
        return None, 0, [ParseWarning("front_matter_not_mapping", f"the '---' block at the top is {_shape(loaded)},"
                                      " not key: value properties: read as the note's text", 1)]
    title = _scalar_text(raw.get("title"))
    aliases = tuple(dict.fromkeys(_string_list(raw.get("aliases", raw.get("alias")))))
    tags = _tags(raw.get("tags", raw.get("tag")))
    note_type = _scalar_text(raw.get("type"))
    front = FrontMatter(
        raw=raw, title=title, aliases=aliases, tags=tags, note_type=note_type.lower() if note_type else None,
        line_start=1, line_end=closing + 1, property_lines=(said := _property_lines(lines, closing, raw)),
        properties_line=said[0] if said else 1,
    )
    return front, closing + 1, warnings
