"""`mnemon` command line: parse → call one facade method → print one JSON document. No logic here."""
from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Generator, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, cast

import click

from ...app.config import Config, choosing_options, load_config

if TYPE_CHECKING:
    from ...app.memory import Mnemon
    from ..daemon.server import FacadePool
from ...core.errors import InvalidInput
from ...core.surface import naming_store, typed_as
from ..payloads import dumps, error_envelope, from_exception

# Set by the resident process (`interfaces/daemon`): the facades it runs commands on stay open between commands.
FACADES: FacadePool | None = None
# Set by the resident process for the command it runs when its caller's stderr is a terminal: the notice a call of
# its own would write there goes to the caller while the command runs (its own stderr is captured until the end).
RELAYED_NOTICE: Callable[[str], None] | None = None


class Ctx:
    """Lazily opened facade, so `--help` and store management never touch a database."""

    def __init__(self, flags: dict[str, Any]) -> None:
        self.flags = flags
        self._mem: Mnemon | None = None
        self._cfg: Config | None = None
        self._shared = False  # the resident process's facade: it outlives the command

    @property
    def cfg(self) -> Config:
        if self._cfg is None:
            f = self.flags
            self._cfg = load_config(config_path=f.get("config"), db=f.get("db"), store=f.get("store"),
                                    home=f.get("home"), embed_provider=f.get("embed"))
        return self._cfg

    @property
    def mem(self) -> Mnemon:
        """The facade; before it is open, a stand-in that opens it for the first method asked of it (`facade`)."""
        if self._mem is None:
            return cast("Mnemon", _OpenOnFirstUse(self))
        return self._mem

    def facade(self, method: str | None = None, *, dry_run: bool = False, notices: bool = False) -> Mnemon:
        """The facade, opened for a call of `method` (None: any): a method that only reads, a dry run, or any on a
        read-only opening, refuses a database the user named that does not exist instead of creating it
        (`app.memory.refuse_missing_db`). `notices`: a command's, which says on a terminal's stderr when a step
        takes seconds (the servers' calls never do)."""
        if self._mem is None:
            from ...app.memory import Mnemon, refuse_missing_db  # here: `--help` and store commands never need it

            readonly, provider = bool(self.flags.get("readonly")), self.flags.get("embed")
            reads = None if readonly or dry_run else method
            must_exist = (readonly or method is not None) and refuse_missing_db(self.cfg, reads)
            if FACADES is not None:
                self._mem = FACADES.get(self.cfg, readonly=readonly, provider=provider, create=not must_exist)
                self._shared = True
            else:
                self._mem = Mnemon.open(self.cfg, readonly=readonly, provider=provider, create=not must_exist)
            self._mem.rt.on_slow_step = terminal_notice() if notices else None  # (a pooled one: set for this call)
        return self._mem

    def refused(self) -> None:
        """The first facade call failed: a store its opening created and left untouched is removed again."""
        mem = self._mem
        if mem is not None and mem.discard_if_untouched():
            if self._shared and FACADES is not None:
                FACADES.forget(mem)
            self._mem = None

    @property
    def opened(self) -> bool:
        return self._mem is not None

    def close(self) -> None:
        if self._mem is not None and not self._shared:
            self._mem.close()


class _OpenOnFirstUse:
    """`Ctx.mem` before the store is open. Commands call `c.mem.<method>(…)`: the name asked for is the facade method
    the command runs, which is what decides whether a missing database may be created."""

    def __init__(self, ctx: Ctx) -> None:
        self._ctx = ctx

    def __getattr__(self, name: str) -> Any:
        if name == "rt":  # the runtime itself (`bench recall`), not a method: opened as a write would
            return self._ctx.facade(name, notices=True).rt

        def call(*args: Any, **kwargs: Any) -> Any:
            # a dry run changes nothing, so like a read it refuses a database the user named that does not exist:
            # `promote-candidates --dry-run` on a mistyped --db left an empty store there
            mem = self._ctx.facade(name, dry_run=kwargs.get("dry_run") is True, notices=True)
            try:
                return getattr(mem, name)(*args, **kwargs)
            except BaseException:
                self._ctx.refused()
                raise
        return call


def terminal_notice() -> Callable[[str], None] | None:
    """A line on stderr before a step that takes seconds (building a large store's recall graph), only when a person
    watches a terminal: never on stdout (the JSON document), never into a pipe, a hook's host or a log."""
    if RELAYED_NOTICE is not None:
        return RELAYED_NOTICE
    err = sys.stderr
    if err is None or not err.isatty():
        return None

    def say(message: str) -> None:
        try:
            err.write(message + "\n")
            err.flush()
        except (OSError, ValueError):  # the terminal went away: the command itself goes on
            pass
    return say


def emit(payload: Any) -> None:
    global _printing
    ctx = click.get_current_context()
    pretty = bool(ctx.find_root().params.get("pretty"))
    text = dumps(payload, pretty=pretty)
    _printing = True
    click.echo(text)


def hints_help(what: str) -> str:
    """An option `--hints`'s help: what the words do, and the default every command takes (the config file's
    `hints`, else Mneme's list). `candidates` said "default: Mneme's hint list" while the config's applied first."""
    from ...core.vault.observations import DEFAULT_HINTS

    return f"Comma-separated words {what} (default: the config's `hints`, else {', '.join(DEFAULT_HINTS)})."


# what lets an ingest remove the store's notes, taken by every command that ingests (`ingest`, `update`, `run-once`):
# each refusal names the flag, and `run-once` did not take it
ALLOW_EMPTY_OPTION = click.option("--allow-empty", is_flag=True, help="Let a folder without notes remove every note "
                                  "the store has (refused otherwise: a wrong or unmounted folder).")
REPLACE_OPTION = click.option("--replace", is_flag=True, help="Let a folder holding fewer of the store's notes than "
                              "it would remove — another vault than the one the store was ingested from — replace "
                              "them (refused otherwise).")


def run(fn: Callable[[Ctx], Any]) -> None:
    """Call the facade and print its result; errors become the envelope inside `main`."""
    ctx = click.get_current_context()
    emit(fn(ctx.find_root().obj))


def stream(fn: Callable[[Ctx], Generator[Any, None, None]], *, binary: bool = False) -> None:
    """Print a document the facade writes piece by piece (`export`), once it is whole: the pieces are kept in a
    spool (in memory up to `SPOOL_IN_MEMORY` characters, then a temporary file), so a failure midway prints the
    error envelope alone instead of a document cut short followed by it (two documents, neither valid JSON).
    `binary`: the pieces are bytes (`export --gzip`), refused to a terminal, which they would garble."""
    import shutil
    import tempfile  # here: a `remember` or `recall` never loads them (tests/cli/test_startup.py)
    from contextlib import closing

    if binary and sys.stdout.isatty():
        raise InvalidInput("--gzip prints compressed bytes, not text: send them to a file or a pipe "
                           "(`mnemon export --gzip > backup.json.gz`), or give --out FILE")
    ctx = click.get_current_context()
    # a failure midway closes the pieces at once: left to the collector, they ended their read after the store closed
    with (tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY, mode="w+b") if binary else
          tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY, mode="w+", encoding="utf-8")) as spool, \
            closing(fn(ctx.find_root().obj)) as pieces:
        for piece in pieces:
            try:
                spool.write(piece)
            except OSError as exc:  # the temporary folder is full, missing or not writable
                raise InvalidInput(f"the document is held until whole before it is printed, and the temporary folder"
                                   f" {tempfile.gettempdir()} refused it ({exc.strerror or exc}): set TMPDIR to a "
                                   "folder with room, or write it with --out FILE") from None
        spool.seek(0)
        global _printing
        _printing = True
        if binary:
            sys.stdout.flush()
            shutil.copyfileobj(spool, sys.stdout.buffer)
        else:
            shutil.copyfileobj(spool, sys.stdout)
    sys.stdout.flush()


SPOOL_IN_MEMORY = 32 * 1024 * 1024  # what `stream` holds in memory before it spills to a temporary file


# Which module declares each top-level command: `mnemon remember` imports `commands` alone, not the world-model,
# context-pack and vault commands (with their app modules, ~20 ms). `--help` and `list_commands` still see them all;
# tests/cli/test_startup.py checks this table against what the modules register.
COMMAND_MODULES: dict[str, str] = {
    **dict.fromkeys(("remember", "recall", "search", "show", "forget", "link", "related", "graph", "viz", "find-nodes",
                     "status", "log", "receipt", "gc", "import", "export", "embed", "store", "config", "bench", "mcp",
                     "serve"),
                    "commands"),
    **dict.fromkeys(("state", "predict", "sense", "world", "action", "alias", "contract", "agent", "eval"),
                    "world_cmds"),
    "daemon": "daemon_cmds",
    **dict.fromkeys(("setup", "hook"), "setup_cmds"),
    **dict.fromkeys(("retrieve", "candidates", "debug-candidates", "thought", "surface", "run-once", "note", "write"),
                    "context_cmds"),
    **dict.fromkeys(("ingest", "update", "explain-edge", "promote-candidates", "weaken-edge", "kill-edge",
                     "validate-edge", "resolve", "init", "doctor"), "vault_cmds"),
}


def register_all() -> None:
    """Import every command module, for callers that walk `cli.commands` directly."""
    for module in sorted(set(COMMAND_MODULES.values())):
        import_module(f"{__package__}.{module}")


class _OnceOnly(click.Command):
    """An option that takes a value, given twice, is a usage error: click kept the last without a word
    (`--tags infra --tags k8s` stored the tag k8s alone, `--store a --store b` wrote into b). A flag may repeat."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            _opts, _rest, order = self.make_parser(ctx).parse_args(args=list(args))
            seen: set[str | None] = set()
            for param in order:
                if isinstance(param, click.Option) and not (param.is_flag or param.multiple or param.count):
                    if param.name in seen:
                        raise click.UsageError(f"{max(param.opts, key=len)} is given twice: give it once", ctx)
                    seen.add(param.name)
        return super().parse_args(ctx, args)


class OnceOnlyCommand(_OnceOnly):
    pass


class OnceOnlyGroup(_OnceOnly, click.Group):
    command_class = OnceOnlyCommand
    group_class = type  # its groups are of its own class


class LazyGroup(_OnceOnly, click.Group):
    """A group whose commands are registered by importing their module the first time one of them is named.

    A name missing from `COMMAND_MODULES` (a typo, or a command added without its line) imports every module before
    it is given up on, and listing imports them all: a command is never lost, only slower to find."""

    command_class = OnceOnlyCommand
    group_class = OnceOnlyGroup

    def list_commands(self, ctx: click.Context) -> list[str]:
        register_all()
        return sorted(self.commands)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            if cmd_name in COMMAND_MODULES:
                import_module(f"{__package__}.{COMMAND_MODULES[cmd_name]}")
            else:
                register_all()
        return self.commands.get(cmd_name)


# Bulk and long-running commands: they keep the process defaults (see `_one_shot_process`).
LONG_RUNNING_COMMANDS = frozenset({"mcp", "serve", "ingest", "update", "import", "embed", "bench", "eval", "run-once",
                                   "world"})


def _one_shot_process(ctx: click.Context, ends_process: bool) -> None:
    """Settings for a process that runs one command and exits (`remember`, `recall`, …):

    * OpenBLAS starts a spin-waiting thread per core when numpy loads: ~70 ms of CPU per `recall` on a loaded 2-core
      machine, for matrix-vector products one thread does as fast. It defaults to one thread; a value the user set
      wins, and once numpy is loaded (an embedding host, tests) nothing changes.
    * The cyclic garbage collector is paused until the command ends, as for bulk writes: its passes over the objects
      the imports create (numpy's, the package's) cost 5–9 ms a call and free nothing; reference counting still
      frees everything. In-process callers get it switched back on when the command is done; a process that ends
      with the command keeps it off (its first pass would scan every object the command made, ~4 ms)."""
    if ctx.invoked_subcommand in LONG_RUNNING_COMMANDS:
        if ends_process:
            gc.enable()  # the entry point (`mnemon.__main__.run`) started without it; a server or a bulk job needs it
        return
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if gc.isenabled():
        gc.disable()
        if not ends_process:
            ctx.call_on_close(gc.enable)


# what `main` gives the group as its `obj` when the process ends with the command
_ENDS_PROCESS = object()
_call_argv: list[str] = []  # the arguments of the command `main` runs
_printing = False  # the command's document has begun on stdout: an error after that is not a second document there


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.option("--db", help="Database path (or postgresql:// URL); overrides --store.")
@click.option("--store", help="Named store under <home>/data/<store>/ (env MNEMON_STORE).")
@click.option("--home", help="Base directory (env MNEMON_HOME, default ~/.mnemon).")
@click.option("--config", "config", help="Config file (JSON); default under the user config dir.")
@click.option("--embed", help="Embedding provider: local, e5, use, ollama, openai, hash, none.")
@click.option("--readonly", is_flag=True, help="Open a snapshot that refuses writes.")
@click.option("--pretty", is_flag=True, help="Indent the JSON output.")
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, _p, asked: _version(ctx, asked),
              help="Print the name and version as JSON and exit.")
@click.pass_context
def cli(ctx: click.Context, **flags: Any) -> None:
    """Local-first graph memory for LLM agents. Every command prints one JSON document."""
    ends_process = ctx.obj is _ENDS_PROCESS
    ctx.obj = Ctx(flags)
    naming_store(choosing_options(_typed_by_user(ctx.info_name, flags)))
    if ends_process:
        ctx.call_on_close(_offer_resident_process(ctx.obj))  # runs after the close below: the caches are saved
    ctx.call_on_close(ctx.obj.close)
    _one_shot_process(ctx, ends_process)


def _typed_by_user(prog_name: str | None, flags: dict[str, Any]) -> dict[str, Any]:
    """The flags as the user typed them: `mneme` hands mnemon a --config for Mneme's own file on a line naming none
    (`mneme_cli.mneme_config`), and would hand it again to a line the reply suggests."""
    if prog_name in (None, "mnemon") or not flags.get("config"):
        return flags
    from ..mneme_cli import mneme_config

    return {**flags, "config": None} if mneme_config([], os.environ) == ["--config", flags["config"]] else flags


def _version(ctx: click.Context, asked: bool) -> None:
    """`--version` as one JSON document, as every answer is (click's printed "mnemon, version 0.1.0")."""
    if asked and not ctx.resilient_parsing:
        from ... import __version__

        click.echo(dumps({"name": ctx.info_name or "mnemon", "version": __version__},
                         pretty="--pretty" in _call_argv))
        ctx.exit()


def _offer_resident_process(obj: Ctx) -> Callable[[], None]:
    """A call that had to load numpy (and the model) leaves a resident process behind for the next one, when the
    settings allow and the command is one that calls hand over (`interfaces/daemon`)."""
    def offer() -> None:
        from ..daemon import client

        argv = _call_argv
        if not (obj.opened and "numpy" in sys.modules and client.forwardable(argv) and client.enabled(os.environ)):
            return
        try:
            if obj.cfg.daemon:
                client.spawn(argv, os.environ, obj.cfg.daemon_idle_s)
        except Exception:  # noqa: BLE001 — a helper that did not start never fails the command that ran
            pass
    return offer


def main(argv: list[str] | None = None, *, ends_process: bool | None = None, prog_name: str = "mnemon") -> int:
    """Run one command. `argv` None means the process's own arguments, i.e. `mnemon` run as a program, which ends
    when this returns (`sys.exit(main())`); a wrapper that passes arguments says so with `ends_process`, and the name
    its help and usage lines should show with `prog_name` (`mneme`)."""
    global _call_argv
    if ends_process is None:
        ends_process = argv is None
    _call_argv = sys.argv[1:] if argv is None else list(argv)
    if ends_process:
        _utf8_output()
    code = _run_command(_call_argv, ends_process, prog_name)
    if ends_process:
        _skip_collection_at_exit()
    return code


def _utf8_output() -> None:
    """JSON is UTF-8 (RFC 8259) whatever the locale: under a latin-1 or ASCII terminal a memory in another script
    used to fail to print. The resident process writes its callers' output the same way."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and (stream.encoding or "").replace("-", "").lower() != "utf8":
            reconfigure(encoding="utf-8")


def _skip_collection_at_exit() -> None:
    """The interpreter's teardown runs the cyclic collector over every object still alive — numpy's and the
    package's modules, ~15 ms per `recall` — only to free memory the OS takes back anyway. Freezing them takes
    them out of its reach; reference counting, `atexit` handlers and the flushing of open files still run. Only for
    a process about to end: frozen objects are never collected, which in-process callers would leak."""
    gc.freeze()


def _run_command(argv: list[str] | None, ends_process: bool, prog_name: str = "mnemon") -> int:
    # the commands its answers suggest, refusals included, are typed as the user runs them
    with typed_as(prog_name, alike=_reads_alike(prog_name)):
        return _answered(argv, ends_process, prog_name)


def _answered(argv: list[str] | None, ends_process: bool, prog_name: str) -> int:
    global _printing
    pretty = "--pretty" in (argv or ())  # errors are indented too when asked
    _printing = False
    try:
        _check_utf8(argv or ())
        cli.main(args=argv, prog_name=prog_name, standalone_mode=False, obj=_ENDS_PROCESS if ends_process else None)
        return 0
    except click.exceptions.Exit as exc:
        return int(exc.exit_code or 0)
    except click.UsageError as exc:
        if _run_by_a_host(argv or ()):
            return _hook_did_nothing(_usage_message(exc, prog_name))
        return _fail(error_envelope("usage", _usage_message(exc, prog_name)), pretty, 2)
    except click.Abort:
        return _fail(error_envelope("aborted", "aborted"), pretty, 1)
    except Exception as exc:  # the contract: never a traceback on stdout or stderr
        payload, code = from_exception(exc)
        if _run_by_a_host(argv or ()):
            return _hook_did_nothing(str(payload["error"]["message"]))
        return _fail(payload, pretty, code)


def _reads_alike(prog_name: str) -> Callable[[str], bool] | None:
    """Whether the program run (`mneme`) reads a mnemon command line as mnemon does (None: it is mnemon)."""
    if prog_name == "mnemon":
        return None
    from ..mneme_cli import reads_alike

    return reads_alike


def _run_by_a_host(argv: Sequence[str]) -> bool:
    """Whether this is `mnemon hook …` as an agent host runs it, its event piped on stdin: then a line mnemon cannot
    answer (an event it does not know, an option it lacks) must not fail — Claude Code reads exit 2 as "block this
    prompt". At a terminal (stdin a TTY) it is a person trying the command: their mistakes are usage errors."""
    takes_value = {o for p in cli.params if isinstance(p, click.Option) and not p.is_flag for o in p.opts}
    args = iter(argv)
    for arg in args:
        if arg == "--" or not arg.startswith("-"):
            if arg != "hook":
                return False
            break
        if arg in takes_value:
            next(args, None)  # its value (`--db hook.db`)
    else:
        return False
    stdin = sys.stdin  # (any other command's stdin is left alone: it may be a stand-in without `closed`)
    return stdin is None or bool(getattr(stdin, "closed", False)) or not stdin.isatty()


def _hook_did_nothing(reason: str) -> int:
    from ...app.integrations.hooks import did_nothing

    click.echo(dumps(did_nothing(reason)))
    return 0


def _fail(payload: dict[str, Any], pretty: bool, code: int) -> int:
    """The error envelope on stdout; on stderr when the command's document has begun there (Ctrl-C while a large
    export is written out): glued to a part already printed, it made a second document no reader could parse.
    To a reader that went away it ends quietly with 1, as an answer does (it raised BrokenPipeError, traceback)."""
    try:
        click.echo(dumps(payload, pretty=pretty), err=_printing)
    except BrokenPipeError:
        from ..daemon.client import _silence  # what is left in the buffer would fail again, loudly, at exit

        _silence(sys.stderr if _printing else sys.stdout)
        return 1
    return code


def _usage_message(exc: click.UsageError, prog_name: str) -> str:
    """Click's message, and where a global option given after the command belongs: `mnemon recall x --pretty`
    said only "No such option", leaving the user to guess that the option exists, before the command."""
    message = exc.format_message()
    if isinstance(exc, click.NoSuchOption) and exc.ctx is not None and exc.ctx.parent is not None:
        option = next((p for p in cli.params if exc.option_name in p.opts), None)
        if isinstance(option, click.Option):
            value = "" if option.is_flag else " …"
            command = exc.ctx.command_path.split(" ", 1)[-1]  # `note read`, not `read`
            message += (f" {exc.option_name} is an option of {prog_name} itself: give it before the command"
                        f" ({prog_name} {exc.option_name}{value} {command} …).")
        elif any(isinstance(p, click.Argument) and p.nargs == -1 for p in exc.ctx.command.params):
            # a flag is what an agent looks up (`recall --no-verify`, `search -x`): say how to give it as text
            command = exc.ctx.command_path.split(" ", 1)[-1]
            message += (f" If {exc.option_name} is part of the text, put -- before the text"
                        f" ({prog_name} {command} -- {exc.option_name} …).")
    return message


def _check_utf8(argv: Sequence[str]) -> None:
    """An argument that is not UTF-8 reaches Python as lone surrogates, which no store can hold: refused here, for
    every command at once, naming the argument."""
    for position, arg in enumerate(argv, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "backslashreplace").decode("utf-8")
            raise InvalidInput(f"argument {position} ('{shown}') is not valid UTF-8 text") from None


if __name__ == "__main__":
    sys.exit(main())
