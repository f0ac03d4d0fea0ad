"""How the caller reaches mnemon, for the words that name its next step: a person at a shell types commands
(`mnemon forget ID`, `--readonly`); an agent over MCP or a script over HTTP calls operations (`forget` with its
`id`) and can type no command, so a hint naming one left it with nothing to do. The servers run each call under
`tools()` (`interfaces/operations.run`); everything else reads as the command line, typed under the program the
user ran: `mnemon`, or the `mneme` script running the same commands under its own name (`typed_as`), whose user
copying a suggested `mnemon …` line got another program's name, and with the global options that chose the store
(`naming_store`): `mnemon --store v status` suggested `mnemon embed --all`, which run as printed embedded the default
store."""
from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

_TOOLS: ContextVar[bool] = ContextVar("mnemon_tools", default=False)
_WRITES: ContextVar[bool] = ContextVar("mnemon_tool_writes", default=True)
_PROGRAM: ContextVar[str] = ContextVar("mnemon_program", default="mnemon")
_ALIKE: ContextVar[Callable[[str], bool] | None] = ContextVar("mnemon_program_alike", default=None)
_STORE: ContextVar[tuple[str, ...]] = ContextVar("mnemon_store_options", default=())
_COMMAND = re.compile(r"`mnemon ([^`\n]*)`")  # how a library text names a command


@contextmanager
def typed_as(program: str, *, alike: Callable[[str], bool] | None = None) -> Iterator[None]:
    """Within: the commands a text or a suggestion names are typed as `program` (the CLI's `prog_name`); `alike`
    says whether that program reads a command (its words after the name) as mnemon does."""
    token, given, store = _PROGRAM.set(program), _ALIKE.set(alike), _STORE.set(())
    try:
        yield
    finally:
        _STORE.reset(store)  # what `naming_store` set within goes with the command
        _ALIKE.reset(given)
        _PROGRAM.reset(token)


def naming_store(options: Sequence[str]) -> None:
    """From here to the end of the enclosing `typed_as` (the command), every command a text suggests carries
    `options`, the global options (already safe to print) that chose the store: the default store is the one a
    suggestion without them reaches."""
    _STORE.set(tuple(options))


def program() -> str:
    """The program name a suggested command line starts with."""
    return _PROGRAM.get()


def typed(text: str) -> str:
    """`text`, each `mnemon …` command in it (or `text` itself, when it is one command line without backticks) as
    the user would run it: named by the program the user ran when that program reads it as mnemon does — another
    keeps mnemon's name (`mneme remember TEXT` is refused, `mneme forget` alone ages dated bullets) — and with the
    options that chose the store, unless it names a store of its own (`mnemon --store default store set …`)."""
    if _PROGRAM.get() == "mnemon" and not _STORE.get():
        return text
    if text.startswith("mnemon ") and "`" not in text:
        return _as_run(text[len("mnemon "):])
    return _COMMAND.sub(lambda m: f"`{_as_run(m.group(1))}`", text)


def _as_run(words: str) -> str:
    """`mnemon <words>` as `typed` says it is run."""
    name, alike = _PROGRAM.get(), _ALIKE.get()
    program = name if alike is None or alike(words) else "mnemon"
    options = _STORE.get()
    if not options or words.startswith("-"):
        return f"{program} {words}"
    return f"{program} {shlex.join(options)} {words}"


def creating_write() -> str:
    """The writes that create a store, as commands of the program run: `mneme remember` is Mneme's scoped memory,
    which takes `add` (a payload) and never a text, so under `mneme` it is named `remember add`."""
    name = _PROGRAM.get()
    if name == "mnemon":
        return typed("`mnemon remember`, `mnemon ingest`")
    options = "".join(f"{shlex.quote(w)} " for w in _STORE.get())
    return f"`{name} {options}ingest`, `{name} {options}remember add`"


@contextmanager
def tools(*, writes: bool = True) -> Iterator[None]:
    """Within: the caller calls operations (MCP tools, HTTP routes), not commands; `writes` False: the server offers
    only the operations that read (`mcp serve` on a store opened --readonly, `serve` without --allow-writes)."""
    token, writing = _TOOLS.set(True), _WRITES.set(writes)
    try:
        yield
    finally:
        _WRITES.reset(writing)
        _TOOLS.reset(token)


def writes_offered() -> bool:
    """Whether the caller can reach the operations that write: a read-only server's caller cannot (a card that
    named one there handed out a call refused or not even listed)."""
    return not _TOOLS.get() or _WRITES.get()


def needs_writes(tool: str) -> str:
    """Why a suggestion carries no call on a read-only server, in words its caller can act on."""
    return (f"{tool}: only a server that takes writes offers it, and this one was started read-only (it offers "
            "the operations that read)")


def step(command: str, tool: str) -> str:
    """`command`, as typed at a shell, for the command line; `tool`, naming operations and their arguments (or, for
    what no operation does, saying it without a command), for a caller of the servers."""
    return tool if _TOOLS.get() else typed(command)


def write_step(command: str, tool: str) -> str:
    """`step`, for an operation that writes: on a read-only server the tool is named with what it needs."""
    return step(command, tool if writes_offered() else f"{tool} (on a server that takes writes: this one was started "
                                                       "read-only)")


def store_read_only() -> str:
    """Why a write to a store opened read-only is refused, as the caller can act on it."""
    return step("the store is open read-only (--readonly); run the command without --readonly to write",
                "the store is open read-only: this server takes no writes (it was started read-only)")


def next_ingest() -> str:
    """What makes a note edit visible to recall: at a shell, a command; over the servers (a card's note_add_bullet)
    no tool ingests, whoever runs the server does."""
    return step("the next `mnemon ingest`, which reads only changed notes",
                "the vault's next ingest (by whoever runs this server), which reads only changed notes")


def embed_all() -> str:
    """What adds the vectors a store lacks: a command at a shell; over the servers no tool does it, whoever runs the
    server does."""
    return step("`mnemon embed --all`", "an embed of the whole store, by whoever runs this server,")
