"""What an agent is told about its memory: the skill file a host loads (`SKILL.md`) and the block `setup` puts into
a host's instructions file (`AGENTS.md`). One text, so the hosts cannot drift; the commands it names are checked
against the CLI by tests/app/test_integrations_guide.py."""
from __future__ import annotations

import os
import re
import shlex
import sys
from collections.abc import Sequence

SKILL_NAME = "mnemon"
DESCRIPTION = ("Long-term memory across sessions: recall what was decided, learned or preferred before answering, "
               "and remember durable facts and decisions after. Local graph memory, no network.")

_BODY = """\
# mnemon: long-term memory

Your memory lives in a local mnemon store. Every `mnemon` command prints one JSON document; a failure is
`{"ok": false, "error": {"code": ..., "message": ...}}` with a non-zero exit. Over MCP the same calls are the
`mnemon` server's tools (`recall`, `remember`, `show`, `link`, `forget`, `retrieve`, ...), with the same arguments.

## Before answering: recall
- `mnemon recall "<focused keywords or the question>" --brief --limit 8`: ranked memories with excerpts and a
  `confidence`; `mnemon show <id>` prints one whole, with its links.
- Ask with the words the memory would use, not the whole conversation. Why/when/who questions are detected;
  `--intent WHY|WHEN|ENTITY|GENERAL` overrides the guess.
- A result flagged `superseded` was corrected by a newer memory: trust the newer one.
- Hooks may already have put memories into your context ("Memories that may bear on this"): use them, and recall
  more when the task needs it.

## After answering: remember what lasts
- `mnemon remember "<one durable fact, decision or preference>" --cat decision --imp 4 --source agent`
  (categories: preference, decision, fact, insight, context, general; importance 1 to 5: 4-5 for directives,
  decisions and hard-won conclusions, 2-3 for useful facts, 1 for minor context).
- Read the reply's `diff_suggestion` and `diff_matches`: DUPLICATE means it was known already; UPDATE or CONFLICT
  names the older memory. When the new fact replaces it, say so: `mnemon link <new id> <old id> --type supersedes`.
  mnemon never replaces or deletes anything on its own.
- Link what belongs together: `mnemon link <a> <b> --type causal --sub-type causes` (or `enables`, `prevents`).
- One fact per memory, written so it reads on its own later (names, not "it" or "this").

## Never store
Secrets, credentials, tokens or personal data nobody asked you to keep; what the repository or its history already
records; transient state (a command's output, a failing test's traceback).

## Mistakes
`mnemon forget <id>` retires a wrong memory (kept in the log, out of recall).
"""


def program() -> str:
    """How an agent's shell runs this mnemon: `mnemon` when its PATH finds this very installation's script, else
    that script by its absolute path (installed in a virtual environment not on PATH, `mnemon` was not found, or
    was another installation); `mnemon` when this interpreter has no such script."""
    script = os.path.join(os.path.dirname(sys.executable), "mnemon")
    if not os.path.isfile(script):
        return "mnemon"
    found = next((c for d in os.environ.get("PATH", "").split(os.pathsep) if d  # (shutil: 10 ms of every hook)
                  if os.path.isfile(c := os.path.join(d, "mnemon")) and os.access(c, os.X_OK)), None)
    try:
        return "mnemon" if found and os.path.samefile(found, script) else script
    except OSError:
        return script


def command_prefix(options: Sequence[str], name: str | None = None) -> str:
    """How the agent runs mnemon on the store it was set up with: `program()` (or `name`: `mnemon` in a guide every
    teammate reads), with the global options naming the store."""
    return shlex.join([name or program(), *options])


def _body(options: Sequence[str], name: str | None = None) -> str:
    return _BODY.replace("`mnemon ", f"`{command_prefix(options, name)} ")


def skill_markdown(options: Sequence[str] = (), name: str | None = None) -> str:
    """The skill file: front matter a host reads to decide when to load it, then the guide."""
    return f"---\nname: {SKILL_NAME}\ndescription: {DESCRIPTION}\n---\n\n{_body(options, name)}"


_PREFIX = re.compile(r"`([^`\n]+?) recall \"<focused keywords")


def guide_command(text: str | None) -> list[str] | None:
    """The command line the guide in `text` runs mnemon by — its program and global options — or None (no guide)."""
    found = _PREFIX.search(text or "")
    if found is None:
        return None
    try:
        return shlex.split(found.group(1))
    except ValueError:
        return None


def is_portable(text: str | None) -> bool:
    """Whether the guide in `text` tells the agent `mnemon …` by name (written with `--shared`, for every teammate),
    not a program by this machine's path."""
    words = guide_command(text)
    if words is None:
        return False
    # `mnemon --db /home/ana/…` by name (an installation on PATH) still names this machine's store by its path
    paths = [value for option, value in zip(words, words[1:]) if option in ("--db", "--home", "--config")
             and not (option == "--db" and "://" in value)]
    return words[:1] == ["mnemon"] and not paths


def is_skill_as_written(text: str) -> bool:
    """Whether `text` is the skill exactly as setup writes it, for whatever store it named (a skill written for
    `--store work` is still setup's own when eject runs without it: no backup is kept of it)."""
    marker = "\x00"
    parts = re.escape(skill_markdown([marker]).replace(command_prefix([marker]), marker)).split(re.escape(marker))
    pattern = parts[0] + "(?P<prefix>[^`\n]+)" + "(?P=prefix)".join(parts[1:])
    return re.fullmatch(pattern, text) is not None


def instructions_block(options: Sequence[str] = (), name: str | None = None) -> str:
    """The guide as a section of a host's instructions file (AGENTS.md), one level below its title."""
    return (_body(options, name).replace("# mnemon: long-term memory", "## mnemon: long-term memory", 1)
            .replace("\n## ", "\n### "))
