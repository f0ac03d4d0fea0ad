"""What an evidence pack and `resolve`'s reply say of each claim: the status the store holds for its edge, and why it
is not the one the claim asked for. The pack's lines said the claim's own wish: a claim killed once (a tombstone) and
sent again without its `"status": "killed"` read "active", and an edge a person weakened, kept as they left it by the
replay, read "active" too. The pack is evidence a person reads, so it says what the graph holds.

Likewise a list entry of the payload (`sources_checked`, `unresolved`) and a claim's evidence, certainty and source
type are text the pack shows, not Markdown it obeys: "[[Acme]] site" became a link to Acme and "#secret" a tag once
the vault was ingested (`plain_item`), and a comment opener hid the lines after it (`pack_line`)."""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

_KEPT = "person_decision_kept:"
SOURCES_DIR = "Sources"  # where `resolve` writes its packs, `Sources/<date>-<slug>.md`
# the `## ` sections of a pack that say how the research went, not what it found ("## Claims")
BOOKKEEPING_SECTIONS = frozenset({"Sources checked", "Unresolved"})
_RESOLVED_ON = re.compile(r"Resolved on \d{4}-\d{2}-\d{2}\.")  # the line `render_pack` writes under the title


def is_pack_bookkeeping(path: str, heading_path: object, text: str) -> bool:
    """Whether a vault memory at `path` under `heading_path` is a pack's bookkeeping: its "## Sources checked" or
    "## Unresolved" under the pack's title, or the "Resolved on <date>." line alone under that title, in a note of
    the vault's `Sources/` folder (however the vault spells it)."""
    folder, _, rest = path.partition("/")
    if not rest or folder.casefold() != SOURCES_DIR.casefold() or not isinstance(heading_path, list):
        return False
    if len(heading_path) == 1:
        return bool(_RESOLVED_ON.fullmatch(text.strip()))
    return len(heading_path) == 2 and heading_path[1] in BOOKKEEPING_SECTIONS


def stored_note(entry: Mapping[str, Any], requested: str | None) -> str | None:
    """Why the claim's edge is stored as `entry["status"]` when that is not the claim's own doing (None: it is)."""
    status = entry.get("status")
    reasons = [str(r) for r in entry.get("reasons") or []]
    if status == "refused":
        return "refused: a note's own links and tags write this relation, not a research claim"
    if status == "killed" and requested != "killed":
        return "killed earlier: a kill is a tombstone, which no payload revives"
    decided = next((r.removeprefix(_KEPT) for r in reasons if r.startswith(_KEPT)), None)
    if decided is not None:
        return f"{decided} by a person, kept as they left it"
    return None


def pack_status(entry: Mapping[str, Any], requested: str | None) -> str:
    """The status part of a claim's pack line: the stored status, then why, when the claim did not ask for it."""
    note = stored_note(entry, requested)
    return f"{entry['status']}; {note}" if note else str(entry["status"])


_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s<>]*")
_MARKUP = re.compile(r"[\\\[\]#]")


def plain_item(text: str) -> str:
    """`text` with every character that could make a link, an embed or a tag backslash-escaped (CommonMark: it reads
    as itself), outside its URLs, which stay as written so they are still clickable."""
    out: list[str] = []
    at = 0
    for url in _URL.finditer(text):
        out += [_MARKUP.sub(r"\\\g<0>", text[at:url.start()]), url.group(0)]
        at = url.end()
    return "".join([*out, _MARKUP.sub(r"\\\g<0>", text[at:])])


_OBSIDIAN_COMMENT = re.compile(r"%(?=%)")


def pack_line(text: Any) -> str:
    """A payload string as text of one line of the evidence pack: its whitespace folded (a newline in an evidence
    started a heading or a list item of its own), and a comment opener escaped as Markdown escapes punctuation, so it
    reads the same but opens nothing. The parser takes `<!--` or `%%` to the next closer as a comment, and the pack's
    own payload comment closes one: an evidence "said <!-- in the call" hid every line after it — the other claims,
    the sources checked and the unresolved questions never reached the graph."""
    flat = " ".join(str(text).split())
    return _OBSIDIAN_COMMENT.sub(lambda _m: "%\\", flat.replace("<!--", "<!\\--"))


def pack_plain(text: Any) -> str:
    """A claim's evidence, certainty or source type on its pack line: text a person reads, not Markdown the ingest
    obeys (`plain_item`: "[[Acme]] said so #urgent" made the pack link to Acme and carry a tag nobody claimed)."""
    return pack_line(plain_item(str(text)))


def pack_title(title: str) -> str:
    """The front matter's `title:` value: the title exactly, as a YAML string whose brackets are escapes (`\\u005b`),
    since the parser reads a property's wikilinks as the note's links (`up: "[[Projects]]"`): a research titled
    "[[Acme]] pricing" made its pack link to Acme. The body's H1 is the title as text (`pack_plain`)."""
    return json.dumps(title, ensure_ascii=False).replace("[", "\\u005b").replace("]", "\\u005d")
