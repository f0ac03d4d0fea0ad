"""Daily notes (Mneme's `note daily`): today's — or a given day's — note, read, created or appended to, under the
rules of `notes` (safe paths, atomic writes, backups, dry runs, the vault's editor lock for a write).

Where this departs from Mneme on purpose: daily notes go to `Daily/YYYY-MM-DD.md` (or the pattern given, or
Obsidian's daily-notes setting when it uses tokens we write) on the *local* date of the clock; Mneme wrote
`memory/YYYY-MM-DD.md`.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from ..core.errors import Conflict, InvalidInput
from . import notes
from .note_hidden import check_content_closes

DAILY_ACTIONS = ("read", "append", "create")
DEFAULT_DAILY_PATTERN = "Daily/YYYY-MM-DD.md"
_DATE_TOKENS = re.compile(r"\[[^\]\n]*\]|YYYY|MMMM|MMM|MM|DD|dddd|ddd")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _check_pattern(pattern: str) -> str:
    if not isinstance(pattern, str) or not pattern.strip():
        raise InvalidInput("the daily-note pattern must be non-empty")
    tokens = {m.group(0) for m in _DATE_TOKENS.finditer(pattern) if not m.group(0).startswith("[")}
    if "YYYY" not in tokens or "DD" not in tokens or not tokens & {"MM", "MMM", "MMMM"}:
        raise InvalidInput("the daily-note pattern needs YYYY, MM (or MMM/MMMM) and DD", pattern=pattern)
    pattern = pattern.strip()
    return pattern if pattern.lower().endswith(".md") else pattern + ".md"


def format_daily(pattern: str, day: date) -> str:
    """`Daily/YYYY-MM-DD.md` → `Daily/2026-03-01.md`. Tokens (moment.js, as Obsidian writes them): YYYY, MM, MMM,
    MMMM, DD, ddd, dddd; `[text]` is literal. Month and day names are English, whatever the locale."""
    def token(m: re.Match[str]) -> str:
        t = m.group(0)
        return {"YYYY": f"{day.year:04d}", "MM": f"{day.month:02d}", "DD": f"{day.day:02d}",
                "MMMM": _MONTHS[day.month - 1], "MMM": _MONTHS[day.month - 1][:3],
                "dddd": _WEEKDAYS[day.weekday()], "ddd": _WEEKDAYS[day.weekday()][:3]}.get(t, t[1:-1])
    return _DATE_TOKENS.sub(token, pattern)


def _obsidian_pattern(root: Path) -> str | dict[str, str] | None:
    """Obsidian's own daily-note folder and format (`.obsidian/daily-notes.json`) when it uses only our tokens; a
    warning when it uses others (the default is taken: a second daily note the user never sees, said in the reply)."""
    config = root / ".obsidian" / "daily-notes.json"
    if config.is_symlink() or (root / ".obsidian").is_symlink() or not config.is_file():
        return None
    try:
        raw = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(raw, dict):
        return None
    folder = str(raw.get("folder") or "").strip().strip("/")
    fmt = str(raw.get("format") or "YYYY-MM-DD").strip()
    unsupported = {"code": "obsidian_daily_format_unsupported", "folder": folder, "format": fmt, "message":
                   f"Obsidian's daily notes ({folder or '.'}/{fmt}) use a token the editor does not write; pass"
                   " --pattern to name that note"}
    if "]" in folder or "[" in folder or re.search(r"[A-Za-z]", _DATE_TOKENS.sub("", fmt)):
        return unsupported  # a token we do not write (week numbers, ordinals, …): our default beats a wrong name
    try:
        return _check_pattern((f"[{folder}]/" if folder else "") + fmt)
    except InvalidInput:
        return unsupported


def _day(value: str | None, clock: Callable[[], datetime] | None) -> date:
    now = clock() if clock else datetime.now(timezone.utc)
    today = (now if now.tzinfo is None else now.astimezone()).date()  # the user's calendar day, not UTC's
    if value is None or value == "today":
        return today
    if value in ("yesterday", "tomorrow"):
        return today + timedelta(days=-1 if value == "yesterday" else 1)
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value or ""):
        raise InvalidInput("--date must be YYYY-MM-DD, today, yesterday or tomorrow", date=value)
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidInput(f"--date {value} is not a calendar day", date=value) from None


def _append_under(text: str, heading: str, body: str, nl: str = "\n", rel: str = "") -> str:
    """`body` at the end of `heading`'s own content (before its first sub-heading and the blank lines that end it,
    as `add_bullet` places a bullet), creating the section; new lines end with `nl`, the note's own line ending."""
    lines = notes._lines(text)
    found = notes._find_section(lines, heading)
    if found is None:
        notes._check_not_in_code(lines, len(lines), rel)
        base = notes._ensure_newline(text, nl)
        return base + notes.heading_gap(base, nl) + f"## {heading}{nl}{nl}{body}"
    start = found.start
    at = found.own_end
    while at > start + 1 and not lines[at - 1].strip():
        at -= 1
    notes._check_not_in_code(lines, at, rel)
    if at > 0 and not notes._ends_line(lines[at - 1]):
        lines[at - 1] += nl
    gap = [nl] if at == start + 1 else notes.joining_gap(lines, at, body, nl)
    lines[at:at] = gap + [body] + notes.setext_gap(lines, at, found.own_end, nl)
    return "".join(lines)


def daily_note(vault: str | Path | None, action: str | None = None, **options: Any) -> dict[str, Any]:
    """Today's (or `day`'s) daily note: `read` it, `create` it (with `content`; without, or with blank content,
    empty, or holding only `heading`), or `append` `content` (under `heading` when given), creating the note when
    there is none. Without an action: append when there is
    content, else read. A write holds the vault's editor lock; a read takes none (and so writes nothing)."""
    reads = (action or ("append" if options.get("content") else "read")) == "read"
    return (_daily_note if reads else _daily_note_locked)(vault, action, **options)


def _daily_note(vault: str | Path | None, action: str | None = None, *, content: str | None = None,
                heading: str | None = None, day: str | None = None, pattern: str | None = None,
                dry_run: bool = False, clock: Callable[[], datetime] | None = None) -> dict[str, Any]:
    action = action or ("append" if content else "read")
    if action not in DAILY_ACTIONS:
        raise InvalidInput(f"the daily action must be one of {', '.join(DAILY_ACTIONS)}", action=action)
    if action == "read" and (content is not None or heading is not None or dry_run):
        # a read prints the whole note and writes nothing: the text or heading was dropped without a word, and a
        # dry run of it is the read itself
        given = " and ".join(name for name, value in (("--content", content), ("--heading", heading),
                                                      ("--dry-run", dry_run or None)) if value is not None)
        add = ", or use `daily append` to add it" if content is not None or heading is not None else ""
        raise InvalidInput(f"`daily read` writes nothing: drop {given}{add}", action=action)
    root = notes.safe_folder(vault, None).path
    source = "argument" if pattern else "default"
    if isinstance(obsidian := None if pattern else _obsidian_pattern(root), str):
        pattern, source = obsidian, "obsidian"
    chosen = _check_pattern(pattern or DEFAULT_DAILY_PATTERN)
    when = _day(day, clock)
    target = notes.safe_resolve(vault, format_daily(chosen, when))
    extra = {"date": when.isoformat(), "action": action, "pattern": chosen, "pattern_source": source,
             **({"warnings": [obsidian]} if isinstance(obsidian, dict) else {})}
    before = notes._read(target)
    text = before.text if before is not None else ""
    if action == "read":
        return {"ok": True, "path": target.rel, "exists": before is not None,
                "bytes": len(before.raw) if before is not None else 0, "content": text, **extra}
    if action == "create" and content is None:
        content = ""
    if not isinstance(content, str) or (not content.strip() and action != "create"):
        raise InvalidInput(f"`daily {action}` needs content (--content TEXT, or on stdin)")
    title = notes._check_heading(heading) if heading is not None else None
    nl = before.newline if before is not None else "\n"
    body = notes._ensure_newline(notes._styled(content.strip("\r\n"), nl), nl)
    if action == "create" and before is not None:
        raise Conflict(f"daily note {target.rel} already exists; use `daily append`", path=target.rel)
    if action == "create" and not content.strip():  # the day's note, empty (blank text is written as given)
        after = f"## {title}{nl}" if title else notes._styled(content, nl)
        return notes._commit(vault, target, before, after, dry_run=dry_run, clock=clock,
                             extra={**extra, **({"heading": title} if title else {})})
    # a daily note is appended to all day: content leaving a comment or fence open hides every later entry
    check_content_closes(notes._lines(body), target.rel)
    if title:
        after = _append_under(text, title, body, nl, target.rel)
    else:
        lines = notes._lines(text)
        notes._check_not_in_code(lines, len(lines), target.rel)
        base = text + (nl if text and not notes._ends_line(text) else "")
        after = base + "".join(notes.joining_gap(notes._lines(base), len(notes._lines(base)), body, nl)) + body
    if title:
        extra["heading"] = title
    return notes._commit(vault, target, before, after, dry_run=dry_run, clock=clock, extra=extra)


_daily_note_locked = notes.serialised(_daily_note)
