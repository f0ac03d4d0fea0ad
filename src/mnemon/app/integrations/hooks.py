"""What the hooks `setup` installs answer (`mnemon hook HOST EVENT`, the event's JSON on standard input).

Claude Code adds a hook's `hookSpecificOutput.additionalContext` to the conversation: at `SessionStart` the store's
size and how to use it (after a compaction, a word to recall what the task needs, as the conversation was cut), at
`UserPromptSubmit` the memories a recall of the prompt finds — only medium and high matches, so a prompt about
nothing stored adds nothing. Each names its store: Claude Code may run more than one set of mnemon's hooks (the
user's own and a project's, `hooks_beside`), which the session start lists.
The store is opened read-only: a hook's recall neither counts as an access (which would
raise what it finds above what the agent chose to use) nor waits for a writer.

A hook must never get in the agent's way: whatever happens it answers one JSON document and exits 0 (exit 2 would
block the user's prompt). A store not created yet is an empty memory, not an error; another failure is shown to the
user as a `systemMessage` and the prompt goes on.
"""
from __future__ import annotations

import codecs
import dataclasses
import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.errors import MnemonError, NotFound, StoreBusy
from ..config import DB_URL_SCHEMES, Config, shown_db
from .guide import command_prefix

if TYPE_CHECKING:
    from ..memory import Mnemon

EVENTS = ("session-start", "prompt")
MAX_INPUT_CHARS = 1_000_000
MAX_QUERY_CHARS = 2000  # recall's (app.recall.MAX_QUERY_CHARS): a longer prompt is asked by its start
LINE_QUERY_CHARS = 500  # a prompt's first or last line, asked on its own (`_queries`)
MAX_QUESTIONS = 3  # a prompt's questions asked on their own, beside the prompt and its first and last line
MIN_QUESTION_WORDS = 2
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")
SHOWN = 5
RECALLED = 10
EXCERPT_CHARS = 300
MIN_PROMPT_CHARS = 3
# the longest a hook waits for one query's vector (a user's longer MNEMON_EMBED_TIMEOUT is for writes and bulk
# jobs): Claude Code gives the prompt hook 20 s (`hosts.HOOK_TIMEOUT_S`), and a wedged server must not take them all
EMBED_TIMEOUT_S = 5.0
_EMBED_FAILED = "query embedding skipped"  # (runtime.embed_query's warning)
_SHOWN_CONFIDENCE = ("high", "medium")
_EVENT_NAMES = {"session-start": "SessionStart", "prompt": "UserPromptSubmit"}
# words that answer the agent or move the conversation on ("yes", "continue", "thanks!", "ok, go ahead"): a prompt of
# these alone is about nothing a memory holds, and its one word matched the memories that happen to use it
ACKNOWLEDGEMENTS = frozenset("""
    yes yeah yep yup sure ok okay fine good great perfect nice cool awesome thanks thank thx ty please pls continue
    proceed go ahead on carry keep going next done right correct agreed agree lgtm sounds looks do it that retry again
    👍 👌 🙏 🙌 👏 ✅ ✔ 💯 🎉 ❤ 🙂 😊 😀 😄
    """.split())  # (emoji are tokens too: "thanks 🙏" only acknowledges)


MAX_INPUT_BYTES = 4 * MAX_INPUT_CHARS  # (UTF-8: four bytes at most a character)
# of an event longer than that (a pasted log), its start is read and, past it, these last bytes, the prompt's end,
# as long as the event ends within MAX_DRAINED_BYTES (reading on costs ~0.1 s a hundred MB, of the hook's 20 s)
TAIL_BYTES = 64 * 1024
MAX_DRAINED_BYTES = 256 * 1024 * 1024
CUT = "\n\n"  # between a cut prompt's start and its end: its last line stays a line of its own (`_queries`)
_PROMPT_VALUE = re.compile(r'"prompt"\s*:\s*"')
_MAX_ESCAPE_CHARS = 6  # `\u00e9`: the most of an escape a cut can leave at a piece's edge


def read_event(stream: Any, head_bytes: int = MAX_INPUT_BYTES, tail_bytes: int = TAIL_BYTES) -> dict[str, Any]:
    """The event on `stream` (bytes, or text when it has no bytes to give), read within bounds: one longer than
    `head_bytes` is read by its start and its last `tail_bytes` (`_cut_event`), the middle only passed over."""
    head = stream.read(head_bytes + 1)
    if len(head) <= head_bytes:
        return hook_input(head)
    kept, drained = head[:0], 0
    while drained <= MAX_DRAINED_BYTES:
        chunk = stream.read(1024 * 1024)
        if not chunk:
            break
        drained += len(chunk)
        kept = (kept + chunk)[-tail_bytes:]
    else:
        kept = head[:0]  # the event's end was never reached: its start alone
    if isinstance(head, bytes):  # (a character cut at either edge is left out, not read as U+FFFD)
        text = codecs.getincrementaldecoder("utf-8")("replace").decode(head, final=False)
        return _cut_event(text, kept.lstrip(bytes(range(0x80, 0xC0))).decode("utf-8", "replace"))
    return _cut_event(head, kept)


def _cut_event(head: str, tail: str) -> dict[str, Any]:
    """An event too long to read whole, as its prompt: the start of its value in `head` and, when `tail` (what was
    read last) holds the rest of the event after the prompt's closing quote, its end. The other fields are not
    needed: the prompt hook reads the prompt alone."""
    found = _PROMPT_VALUE.search(head.removeprefix("\ufeff"))
    if found is None:
        return {}
    piece = head.removeprefix("\ufeff")[found.end():]
    try:  # the prompt ended within the start (what was long comes after it)
        return {"prompt": json.decoder.scanstring(piece, 0)[0]}  # type: ignore[attr-defined]
    except ValueError:
        pass
    # (a cut inside an escape, `\u00` or a lone `\`, is no JSON string: a character or two less is)
    start = next((s for k in range(_MAX_ESCAPE_CHARS + 1) if (s := _json_string(piece[:len(piece) - k]))), None)
    if start is None:
        return {}
    start = start[:-1] if start and "\ud800" <= start[-1] <= "\udbff" else start  # half of a pair cut in two
    tail = tail[_ESCAPE_FREE.search(tail).start():]  # type: ignore[union-attr]  # (it matches at the end)
    closing = re.search(r'(?<!\\)(\\\\)*"', tail)  # the first quote no backslash escapes: the prompt's end
    if closing is None or not _ends_an_object(tail[closing.end():]):
        return {"prompt": start}  # the end read is not the prompt's (another field is what was long): its start
    end = _json_string(tail[:closing.end() - 1]) or ""
    return {"prompt": start + CUT + (end[1:] if end and "\udc00" <= end[0] <= "\udfff" else end)}


# where a piece of a JSON string cut anywhere starts at a character of its own: a character no escape holds, or a
# backslash no backslash precedes (it begins one)
_ESCAPE_FREE = re.compile(r'[^\\"/bfnrtu0-9a-fA-F]|(?<!\\)\\|$')


def _json_string(body: str) -> str | None:
    try:
        return str(json.loads(f'"{body}"'))
    except (ValueError, RecursionError):
        return None


def _ends_an_object(rest: str) -> bool:
    """Whether `rest` is what follows a string value to the end of a JSON object (`}`, or more members then `}`)."""
    try:
        json.loads('{"_": ""' + rest)
        return True
    except (ValueError, RecursionError):
        return False


def hook_input(text: str | bytes) -> dict[str, Any]:
    """The event's JSON object; anything else (nothing, not JSON) reads as an empty event, one too long as its
    prompt's start and end (`_cut_event`). A byte-order mark before it (UTF-8 as PowerShell and Notepad write it)
    is not part of the event: json refuses it. Bytes are UTF-8, as the host writes its JSON whatever the locale
    (read in a Windows code page, "café" was "cafÃ©")."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    if len(text) > MAX_INPUT_CHARS:
        return _cut_event(text[:MAX_INPUT_CHARS], text[MAX_INPUT_CHARS:][-TAIL_BYTES:])
    if not text:
        return {}
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except (json.JSONDecodeError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def did_nothing(reason: str) -> dict[str, Any]:
    """The answer to a hook line mnemon cannot run (`mnemon hook claude-code stop`, an option it lacks): shown to the
    user, nothing added, and the prompt goes on."""
    return {"systemMessage": f"mnemon hook did nothing: {reason.rstrip('.')}. mnemon answers `hook claude-code "
                             f"{'` and `hook claude-code '.join(EVENTS)}`, the lines `mnemon setup` writes: run it "
                             "again, or take this line out of the host's settings"}


def claude_code(settings: Callable[[], tuple[Config, list[str]]], event: str, text: str | bytes | dict[str, Any],
                provider: str | None) -> dict[str, Any]:
    """The answer to one Claude Code hook event (`EVENTS`): its output object, never an error. `settings` gives the
    configuration and the global options the hook was run with (read here: a broken config file is reported to the
    user like any other failure, not as an error that would fail the hook)."""
    payload = text if isinstance(text, dict) else hook_input(text)  # (a dict: read already, `read_event`)
    try:
        cfg, options = settings()

        def open_facade() -> Mnemon:
            from ..memory import Mnemon

            return Mnemon.open(_within_budget(cfg), readonly=True, provider=provider, create=False)

        if event == "session-start":
            context = _session_start(cfg, payload, options)
        else:
            context = _prompt(cfg, payload, options, open_facade)
    except StoreBusy:
        return {}
    except MnemonError as exc:
        return {"systemMessage": f"mnemon hook ({event}): {exc.message}"}
    except Exception as exc:  # a bug of ours must not stop the user's prompt either
        return {"systemMessage": f"mnemon hook ({event}) failed: {type(exc).__name__}: {exc}"}
    said = _gone(cfg) if event == "session-start" else {}
    if not context:
        return said
    return {**said, "hookSpecificOutput": {"hookEventName": _EVENT_NAMES[event], "additionalContext": context}}


def _within_budget(cfg: Config) -> Config:
    """`cfg` with the embedding timeout the hook can afford (`EMBED_TIMEOUT_S`), or the user's when shorter."""
    try:
        given = float(cfg.environ.get("MNEMON_EMBED_TIMEOUT") or "inf")
    except ValueError:
        return cfg  # (refused, as on every command, by the provider's settings)
    if not given > EMBED_TIMEOUT_S:
        return cfg
    return dataclasses.replace(cfg, environ={**cfg.environ, "MNEMON_EMBED_TIMEOUT": f"{EMBED_TIMEOUT_S:g}"})


def _gone(cfg: Config) -> dict[str, Any]:
    """At session start — once a session, not at each prompt — a word to the user when the store the hook names by
    its path is not there: moved or deleted since setup wrote its path, the session would otherwise start with
    "nothing stored yet" and every prompt add nothing, as if nothing had ever been remembered."""
    if cfg.db_named_by is None or _store_exists(cfg):
        return {}
    path = str(cfg.db_path)
    return {"systemMessage": f"mnemon hook: no store at {path} (named by {cfg.db_named_by}), so this session starts "
                             "with no memories. If you moved or deleted it, run `mnemon --db <its new path> setup` "
                             "in the project again (your memories are in the file you moved); if nothing was "
                             "remembered yet, the first `remember` creates it there"}


def _store_exists(cfg: Config) -> bool:
    target = str(cfg.db_path)
    return target.startswith(DB_URL_SCHEMES) or Path(target).exists()


def _session_start(cfg: Config, payload: dict[str, Any], options: list[str]) -> str:
    mnemon = command_prefix(options)
    held = "nothing stored yet"
    if _store_exists(cfg):
        from ..memory import open_store  # the count alone: no embedding model, no caches (0.3 s of `status`, at 10k)

        try:
            store = open_store(cfg.db_path, readonly=True, create=False, busy_wait_s=cfg.busy_wait_s,
                               busy_wait_set_by=cfg.sources.get("busy_wait_s"))
        except NotFound:  # a server schema no one has written to yet: what a SQLite file not created yet is
            store = None
        if store is not None:
            try:
                count = store.count_active()
            finally:
                store.close()
            held = f"{count} {'memory' if count == 1 else 'memories'}" if count else held
    lines = [f"Long-term memory (mnemon, store {shown_db(cfg.db_path)}) is on for this session: {held}.",
             f'Before answering, recall what bears on the task: `{mnemon} recall "<keywords>" --brief` (or the '
             "mnemon MCP tools). After answering, remember durable facts, decisions and preferences: "
             f'`{mnemon} remember "<one fact>" --cat decision --imp 4 --source agent`. Never store secrets. '
             "The mnemon skill has the rest."]
    try:  # (the settings files Claude Code read for this session: what they say is a help, never a failure)
        from .hooks_beside import beside

        lines += [line for line in [beside(cfg.environ, payload)] if line]
    except Exception:  # noqa: BLE001
        pass
    if payload.get("source") == "compact":
        lines.append("The conversation was just compacted: recall what the task in hand needs before going on.")
    return "\n".join(lines)


def only_acknowledges(prompt: str) -> bool:
    """Whether `prompt` holds words, and none but acknowledgements (`ACKNOWLEDGEMENTS`) and stopwords."""
    from ...core.text import tokens

    return bool(tokens(prompt, keep_stopwords=True)) and set(tokens(prompt)) <= _acknowledged()


@functools.cache
def _acknowledged() -> frozenset[str]:
    from ...core.text import tokens

    return frozenset(tokens(" ".join(ACKNOWLEDGEMENTS), keep_stopwords=True))  # (stemmed as a prompt's words are)


def _queries(prompt: str) -> list[str]:
    """What a prompt is asked by: itself (its start, when longer than a query) and, when it runs over several lines,
    its first and its last line. A question before or after a pasted log or file is lost in the whole: a single
    line of a log beside it took every match below medium."""
    text = prompt.strip()
    lines = [line.strip() for line in text.splitlines() if len(line.strip()) >= MIN_PROMPT_CHARS]
    asked = [text[:MAX_QUERY_CHARS]]
    if len(lines) > 1:
        asked += [lines[0][:LINE_QUERY_CHARS], lines[-1][-LINE_QUERY_CHARS:]]
    return list(dict.fromkeys(asked))


def _questions(prompt: str, asked: list[str]) -> list[str]:
    """The questions of a prompt holding more than its question (`MAX_QUESTIONS`, not asked already): 75
    characters of a pasted log on the question's own line took its match from high to below medium. A match of a
    question alone counts only for a memory a recall of the whole prompt found too (`_prompt`): a short sentence
    finds more by chance, and what the whole prompt does not bring up at all is not what it is about."""
    sentences = [s[:LINE_QUERY_CHARS] for line in prompt.strip().splitlines()
                 for s in _SENTENCE_END.split(line.strip()) if s]
    if len(sentences) < 2:
        return []
    return [s for s in dict.fromkeys(sentences) if s.endswith("?") and s not in asked
            and len(s.split()) >= MIN_QUESTION_WORDS][:MAX_QUESTIONS]


def _score(row: dict[str, Any]) -> float:
    return float(row.get("score") or 0)


def _prompt(cfg: Config, payload: dict[str, Any], options: list[str], open_facade: Callable[[], Mnemon]) -> str:
    prompt = payload.get("prompt")
    if not isinstance(prompt, str) or len(prompt.strip()) < MIN_PROMPT_CHARS or not _store_exists(cfg):
        return ""
    # a lone surrogate (text cut inside an emoji, sent as a `\ud83d` escape) cannot be searched: left out as U+FFFD
    # and a NUL (a pasted binary log), which recall refuses as no memory holds one, reads as the space it separates by
    prompt = prompt.encode("utf-16", "surrogatepass").decode("utf-16", "replace").replace("\x00", " ")
    if only_acknowledges(prompt):
        return ""
    try:
        mem = open_facade()
    except NotFound:  # (as at session start: an empty memory, not an error)
        return ""
    best: dict[str, dict[str, Any]] = {}
    queries = _queries(prompt)
    whole: set[str] = set()  # what a recall of the whole prompt (its start) found, at any confidence
    try:
        for n, query in enumerate([*queries, *_questions(prompt, queries)]):
            found = mem.recall(query, limit=RECALLED, brief=True, excerpt_chars=EXCERPT_CHARS)
            for row in found.get("results", []):
                key = str(row.get("id"))
                if n == 0:
                    whole.add(key)
                elif n >= len(queries) and key not in whole:
                    continue  # a question's match of a memory the whole prompt did not find at all
                if row.get("confidence") in _SHOWN_CONFIDENCE and (key not in best or _score(row) > _score(best[key])):
                    best[key] = row  # a memory more than one query finds: its best match
            if any(str(w).startswith(_EMBED_FAILED) for w in found.get("warnings", [])):
                break  # the provider did not answer: each further query would wait as long again
    finally:
        mem.close()
    rows = sorted(best.values(), key=_score, reverse=True)[:SHOWN]
    if not rows:
        return ""
    mnemon = command_prefix(options)
    lines = [f"Memories that may bear on this (mnemon's recall of the prompt from the store {shown_db(cfg.db_path)}; "
             f"`{mnemon} show <id>` prints one whole):"]
    for row in rows:
        flags = "; superseded by a newer memory" if row.get("superseded") else ""
        text = " ".join(str(row.get("excerpt", "")).split())
        lines.append(f"- {text} [{row.get('category')}, {row.get('confidence')} match; id {row.get('id')}{flags}]")
    return "\n".join(lines)
