"""Lines a person added to the parts of an evidence pack that `resolve` writes — under its title, "## Claims", "##
Sources checked" and "## Unresolved" — carried into the rewritten pack at the end of the same part: resolving the same
research again rewrote the pack from its payload, and a bullet added under "## Unresolved" was only in a backup.

A line is the person's when the earlier pack's own payload, rendered, does not write it and the new pack does not
either. A line shaped like a claim line is never carried (some other version of `render_pack` wrote it: carried, the
claim would be listed twice). A line after the payload comment is of the part the comment ends (`note add-bullet`
puts a bullet there) and goes above it; the person's own `##` sections are `resolve.with_user_sections`'s, and
their front matter is `with_user_properties`'s."""
from __future__ import annotations

import re
from typing import Any

from ...core.vault import ACTIVE_THRESHOLD
from .pack_status import pack_line
from .resolve import _GENERATED_SECTIONS, pack_payloads, render_pack

# (its evidence after the colon: a claim line whose stored status changed since was carried as the person's)
_CLAIM_LINE = re.compile(r"- .+ \(confidence \d+\.\d\d, .*\)(?:: .*)?")
_TOP = ""  # the part under the title, before the first `##` heading
_COMMENT = "mneme-research-resolution-b64"


def _body_start(lines: list[str]) -> int:
    """The index of the first line after the front matter (0 without one)."""
    if not lines or lines[0] != "---":
        return 0
    return next((i + 1 for i in range(1, len(lines)) if lines[i] == "---"), 0)


def _parts(lines: list[str]) -> dict[str, list[str]]:
    """The lines of each part `render_pack` writes, by part (`_TOP` or a generated heading's name)."""
    out: dict[str, list[str]] = {}
    part: str | None = _TOP
    for line in lines[_body_start(lines):]:
        if _COMMENT in line:
            continue  # (`note add-bullet` puts a bullet after it: the end of its heading's content)
        if line.startswith("## "):
            part = line[3:].strip() if line[3:].strip() in _GENERATED_SECTIONS else None
        elif part is not None:
            out.setdefault(part, []).append(line)
    return out


def _insert(lines: list[str], part: str, extra: list[str]) -> list[str]:
    """`lines` with `extra` after the last line of `part` that is not blank, or a new `## part` before the payload
    comment when the pack no longer has that part."""
    start = _body_start(lines)
    if part != _TOP:
        heading = f"## {part}"
        if heading not in lines[start:]:
            at = next((i for i in range(start, len(lines)) if _COMMENT in lines[i]), len(lines))
            return [*lines[:at], heading, *extra, "", *lines[at:]]
        start = lines.index(heading, start)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ") or _COMMENT in lines[i]),
               len(lines))
    at = max((i for i in range(start, end) if lines[i].strip()), default=start) + 1
    return [*lines[:at], *extra, *lines[at:]]


def with_user_lines(text: str, existing: bytes | None, slug: str) -> tuple[str, list[str]]:
    """`render_pack`'s `text` with the lines a person added to the parts of the earlier pack (`existing`) it
    writes, and those lines."""
    if not existing:
        return text, []
    old = existing.decode("utf-8", errors="replace").removeprefix("\ufeff").replace("\r\n", "\n")
    earlier: list[dict[str, Any]] = [p for p in pack_payloads(old) if p.get("slug") == slug]
    written = set(text.split("\n"))
    for payload in earlier[:1]:
        threshold = payload.get("active_threshold")
        written |= set(render_pack(payload, float(threshold) if isinstance(threshold, (int, float))
                                   and not isinstance(threshold, bool) else ACTIVE_THRESHOLD).split("\n"))
        # (a pack written before its list entries were escaped as text: those lines were resolve's, not a person's)
        written |= {f"- {pack_line(item)}" for key in ("sources_checked", "unresolved")
                    for item in payload.get(key, [])}
        written.add(f"# {pack_line(payload['title'])}")  # (and its title, before the H1 was written as text)
    kept: dict[str, list[str]] = {}
    for part, lines in _parts(old.split("\n")).items():
        mine = [line for line in dict.fromkeys(lines) if line.strip() and line not in written
                and not (part == "Claims" and _CLAIM_LINE.fullmatch(line))]
        if mine:
            kept[part] = mine
    out = text.split("\n")
    for part, mine in kept.items():
        out = _insert(out, part, mine)
    return "\n".join(out), [line for mine in kept.values() for line in mine]


_PROPERTY = re.compile(r"([^\s:#-][^:]*):(?:\s|$)")
_PAYLOAD_PROPERTIES = frozenset({"title", "date"})  # the front matter's keys the payload decides, every run


def _properties(lines: list[str]) -> dict[str, list[str]]:
    """The front matter's properties, each with its lines (a YAML list under its key included), in order."""
    out: dict[str, list[str]] = {}
    key: str | None = None
    for line in lines[1:_body_start(lines) - 1]:
        found = None if line[:1].isspace() or line.startswith("- ") else _PROPERTY.match(line)
        if found:
            key = found.group(1).strip()
            out[key] = [line]
        elif key is not None:
            out[key].append(line)
    return out


def with_user_properties(text: str, existing: bytes | None) -> tuple[str, list[str]]:
    """`render_pack`'s `text` with the front matter a person gave the earlier pack (`existing`): a property it does
    not write (`owner: Ana`), and a value they changed of one it writes but the payload does not decide (`tags:
    [research, x]`, `type`), in the earlier pack's order; title and date stay the payload's. Re-resolving the same
    research dropped them (only the backup had them). Returns the text and the names of the properties kept."""
    if not existing:
        return text, []
    old = existing.decode("utf-8", errors="replace").removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
    new = text.split("\n")
    if _body_start(old) == 0 or _body_start(new) == 0:
        return text, []
    written = _properties(new)
    mine = {k: v for k, v in _properties(old).items() if k not in _PAYLOAD_PROPERTIES and written.get(k) != v}
    if not mine:
        return text, []
    merged = [*(mine.get(k, v) for k, v in written.items()), *(v for k, v in mine.items() if k not in written)]
    body = _body_start(new)
    return "\n".join(["---", *(line for block in merged for line in block), *new[body - 1:]]), list(mine)
