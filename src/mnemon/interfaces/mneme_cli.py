"""`mneme`: Mneme's documented command lines, translated to `mnemon` argv and run by the same CLI. No logic here.

Translation only:
* `--db PATH` may appear anywhere after the command (Mneme's style); it becomes mnemon's global `--db PATH`;
* what follows `--` is arguments, left as they are (no `--db`, `--json`, `--force` or `--help` there is read);
* without `--config` (and `$MNEMON_CONFIG`), Mneme's config is read where Mneme keeps it: `$MNEME_CONFIG`, else
  `<user config dir>/mneme/config.json` when mnemon has no config of its own (the keys are the same); a missing
  `$MNEME_CONFIG` file is refused naming that variable, not the `--config` flag it is passed on as;
* `MNEME_CARD_THEME` is `MNEMON_CARD_THEME` when that is unset (a theme mnemon lacks is refused by Mneme's name);
* `remember add --file F [--dry-run]` → `remember --payload F [--dry-run]` (stdin when `--file` is omitted);
* `remember remove --source-path S [--dry-run]` → `forget --source S [--dry-run]`; these two take Mneme's options
  and no others (`remember remove ID` would otherwise be mnemon's `forget ID` of a memory, outside the mneme://
  scope Mneme confines it to), and their `--help` states Mneme's options, not mnemon's `--payload`/`--source`;
* `forget --days-threshold N [--dry-run]` is mnemon's own `forget` with that flag;
* `forget` with neither a memory id nor `--source` is Mneme's date-based forget: `--days-threshold 30` (its default);
* `agent preflight` surfaces 5 thought cards unless `--surface-limit` says otherwise (Mneme's default; mnemon's is 0);
* `note … --force` is dropped: Mneme's flag bypassed guard rails, and the vault's path safety has no bypass. For
  `note delete` it was Mneme's required confirmation: without it the line is a usage error (Mneme refused too), with
  it the note goes unless other notes link to it (`mnemon note delete --force` deletes a linked note, and the refusal
  names that command: mnemon's own "pass --force" cannot be followed through `mneme`);
* `note daily` keeps Mneme's `memory/YYYY-MM-DD.md` unless `--pattern` says otherwise (mnemon's default is
  `Daily/YYYY-MM-DD.md`); `note move` rewrites links with or without Mneme's `--update-links`
  (`--no-update-links` to keep them);
* `--json` is dropped where the mnemon command has no such flag (every mnemon command prints JSON);
* `--help` of a command whose line `mneme` changes ends with what it changes (`HELP_NOTES`);
* `doctor`'s advice names the commands to run as typed here (`mneme update`, not `mnemon update`);
* Mneme commands mnemon does not have (`tick`, `feedback`, `path`, `meditate`, `brain`, …) answer with the error
  code `unsupported` and the nearest command mnemon has where there is one (`details.instead`, as typed here:
  `mneme candidates`), instead of a bare usage error;
* everything else (`ingest`, `update`, `retrieve`, `surface`, `thought`, `candidates`, `debug-candidates`, `run-once`,
  `explain-edge`, `promote-candidates`, `weaken-edge`, `resolve`, `init`, `doctor`, `note …`, `write`, `state …`,
  `predict …`, `world …`, `alias …`, `agent …`, …) keeps its name and flags.
"""
from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import shlex
import sys
import textwrap
from collections.abc import Mapping, MutableMapping
from typing import Any

from .payloads import dumps, error_envelope

GLOBAL_VALUE_FLAGS = ("--config", "--db", "--store", "--home", "--embed")
GLOBAL_BOOL_FLAGS = ("--pretty", "--readonly")


class Untranslatable(ValueError):
    """A Mneme command line that cannot mean anything: answered with a `usage` error, nothing run."""


def _take_value(args: list[str], i: int, flag: str) -> tuple[str, int]:
    """(value, next index) for `flag VALUE` or `flag=VALUE` at position i; a missing or empty value, or another
    option where the value should be (`--db --prompt x`), is refused rather than guessed around."""
    token = args[i]
    if token.startswith(flag + "="):
        value, after = token.split("=", 1)[1], i + 1
    elif i + 1 < len(args) and not args[i + 1].startswith("--"):
        value, after = args[i + 1], i + 2
    else:
        value, after = "", i + 1
    if not value:
        raise Untranslatable(f"{flag} needs a value")
    return value, after


def translate(argv: list[str]) -> list[str]:
    """Mneme argv → mnemon argv."""
    globals_: list[str] = []
    rest: list[str] = []
    i = 0
    # global options before the command, as Mneme documents `mneme --config PATH init …`
    while i < len(argv) and argv[i].startswith("--"):
        flag = argv[i].split("=", 1)[0]
        if flag in GLOBAL_VALUE_FLAGS:
            value, i = _take_value(argv, i, flag)
            globals_ += [flag, value]
            continue
        if flag in GLOBAL_BOOL_FLAGS:
            globals_.append(flag)
            i += 1
            continue
        break
    body = argv[i:]
    # after `--` every word is an argument (a note searched for "--json"): kept as it is, and what `mneme` adds
    # goes before it
    end = body.index("--") if "--" in body else len(body)
    body, tail = body[:end], body[end:]
    # `--db` anywhere after the command is mnemon's global flag
    j = 0
    while j < len(body):
        token = body[j]
        if token == "--db" or token.startswith("--db="):
            value, j = _take_value(body, j, "--db")
            globals_ += ["--db", value]
            continue
        rest.append(token)
        j += 1
    if rest[:1] == ["remember"]:
        if len(rest) < 2 or rest[1] not in ("add", "remove"):
            # Mneme's `remember` has two actions; anything else would be stored as a memory by mnemon's `remember`
            raise Untranslatable("`mneme remember` takes `add --file F` or `remove --source-path S`"
                                 " (`mnemon remember TEXT` stores a memory)")
        rest, tail = _remember(rest[1], rest[2:] + tail), []
    elif rest[:1] == ["forget"] and not _has_any(rest[1:], ("--source", "--days-threshold")) and not any(
            not a.startswith("-") for a in rest[1:]) and not tail[1:]:
        rest = [*rest, "--days-threshold", "30"]
    elif rest[:2] == ["agent", "preflight"] and not _has_any(rest[2:], ("--surface-limit",)):
        rest = [*rest, "--surface-limit", "5"]
    elif rest[:1] == ["note"]:
        rest = _note(rest)
    rest = _drop_json(rest)
    return [*globals_, *rest, *tail]


def reads_alike(command: str) -> bool:
    """Whether `mneme COMMAND` runs what `mnemon COMMAND` does (the words after the program's name, as a library
    text names them): `remember TEXT`, a bare `forget` or `note delete … --force` are read otherwise here."""
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: read as words
        words = command.split()
    try:
        return bool(words) and unsupported(words) is None and translate(words) == words
    except Untranslatable:
        return False


def mneme_config(argv: list[str], environ: Mapping[str, str]) -> list[str]:
    """`--config PATH` for Mneme's own config file when the line names none and mnemon would find none."""
    if _has_any(argv, ("--config",)) or environ.get("MNEMON_CONFIG"):
        return []
    if environ.get("MNEME_CONFIG"):
        return ["--config", environ["MNEME_CONFIG"]]
    from ..app.config import default_config_path

    ours = default_config_path(environ)
    theirs = ours.parent.parent / "mneme" / "config.json"
    return ["--config", str(theirs)] if not ours.exists() and theirs.exists() else []


# Mneme's environment variables that name a mnemon setting: honoured when the mnemon one is not set
MNEME_ENV = {"MNEME_CARD_THEME": "MNEMON_CARD_THEME"}


def adopt_mneme_environment(environ: MutableMapping[str, str]) -> dict[str, Any] | None:
    """Copy each Mneme variable to its mnemon one; the error envelope, naming Mneme's variable, for a value mnemon
    would refuse (its own message would name the mnemon variable, which the user never set)."""
    for theirs, ours in MNEME_ENV.items():
        if environ.get(theirs) and not environ.get(ours):
            refused = _refused_mneme_value(theirs, environ[theirs])
            if refused is not None:
                return refused
            environ[ours] = environ[theirs]
    return None


def _refused_mneme_value(name: str, value: str) -> dict[str, Any] | None:
    """The refusal of a Mneme variable's value, named as the user set it (mnemon's own would name its variable)."""
    from ..app.config import SETTINGS, check_setting
    from ..core.errors import InvalidInput

    setting = next(s.name for s in SETTINGS if s.env == MNEME_ENV[name])

    try:
        check_setting(setting, value)
    except InvalidInput as exc:
        return error_envelope("invalid_input", f"{name} must be {exc.message.split(' must be ', 1)[-1]}: fix or "
                              f"unset {name}", {**exc.details, "variable": name})
    return None


def _has_any(args: list[str], flags: tuple[str, ...]) -> bool:
    return any(a.split("=", 1)[0] in flags for a in args)


# Mneme commands with no mnemon counterpart → what to use instead (None: nothing comparable here), the command's
# words without the program: the advice names it as typed here (`mneme candidates`), since `mneme` reads it as
# mnemon does (README: an error's advice starts with `mneme` where it does)
UNSUPPORTED: dict[tuple[str, ...], str | None] = {
    ("tick",): "candidates",
    ("feedback",): "weaken-edge|kill-edge|validate-edge ID",
    ("explain",): "explain-edge ID",
    ("path",): None, ("index",): "embed --all", ("think",): "recall QUERY",
    ("packet",): None, ("consolidate",): None, ("brain",): None, ("meditate",): None, ("bridge",): None,
    ("physarum",): None, ("harness",): None,
    ("sense", "list"): None, ("sense", "run"): "ingest --vault DIR",
}
MNEME_DAILY_PATTERN = "memory/YYYY-MM-DD.md"


def _command_words(argv: list[str]) -> list[str]:
    """The first two words of the command, past the global options and their values."""
    words: list[str] = []
    i = 0
    while i < len(argv) and len(words) < 2:
        flag = argv[i].split("=", 1)[0]
        if flag in GLOBAL_VALUE_FLAGS:
            i += 1 if "=" in argv[i] else 2
        elif argv[i].startswith("-"):
            i += 1
        else:
            words.append(argv[i])
            i += 1
    return words


def unsupported(argv: list[str]) -> dict[str, Any] | None:
    """The error envelope for a Mneme command mnemon does not have, else None."""
    words = _command_words(argv)
    for size in (2, 1):
        key = tuple(words[:size])
        if len(key) == size and key in UNSUPPORTED:
            instead = UNSUPPORTED[key]
            if instead is not None:  # `a|b|c ID`: each of the commands
                names, _, rest = instead.partition(" ")
                alike = all(reads_alike(f"{name} {rest}") for name in names.split("|"))
                instead = ("mneme " if alike else "mnemon ") + instead
            message = f"`mneme {' '.join(key)}` is not part of mnemon" + (f"; use `{instead}`" if instead else "")
            return error_envelope("unsupported", message, {"command": " ".join(key), "instead": instead})
    return None


def _note(args: list[str]) -> list[str]:
    sub = args[1] if len(args) > 1 else None
    if sub == "delete" and "--force" not in args and not _wants_help(args):
        raise Untranslatable("Mneme's `note delete` needs --force to confirm; mnemon then deletes the note (backed "
                             "up) unless other notes link to it")
    out = [a for a in args if a != "--force"]
    if sub == "daily" and not _has_any(out, ("--pattern",)):
        out += ["--pattern", MNEME_DAILY_PATTERN]
    return out


# Mneme's `remember add|remove`, as click commands that only parse (and render `--help`): their options are the
# whole of what Mneme takes, so anything else is refused here instead of reaching mnemon's `remember`/`forget`,
# where `remember remove ID` would soft-delete a memory and `--days-threshold` would age vault edges. Built on
# first use: importing click costs ~40 ms that a call the resident process answers never needs.
_DB_HELP = "SQLite database (default: from the config)."
_HELP_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 110}  # as mnemon's own commands


@functools.lru_cache(maxsize=1)
def remember_group() -> Any:
    import click

    group = click.Group("remember", context_settings=_HELP_SETTINGS,
                        help="Scoped agent memory under a mneme:// source_path: add a payload of nodes, edges and "
                             "observations, or remove one scope as a unit.")

    @group.command("add", context_settings=_HELP_SETTINGS)
    @click.option("--db", help=_DB_HELP)
    @click.option("--file", "file", help="Payload JSON file ('-' or omitted: stdin).")
    @click.option("--dry-run", is_flag=True, help="Validate and show what would be written; write nothing.")
    def remember_add(db: str | None, file: str | None, dry_run: bool) -> None:
        """Add scoped memory: a JSON payload {source_path: "mneme://…", nodes, edges, observations}; edges and
        observations name nodes of the same payload by their ref."""

    @group.command("remove", context_settings=_HELP_SETTINGS)
    @click.option("--db", help=_DB_HELP)
    @click.option("--source-path", required=True, help="The mneme:// scope to remove (any other source is refused).")
    @click.option("--dry-run", is_flag=True, help="Report what would be removed; change nothing.")
    def remember_remove(db: str | None, source_path: str, dry_run: bool) -> None:
        """Remove every node, edge and observation a `remember add` wrote under one mneme:// source_path."""

    return group


def _wants_help(args: list[str]) -> bool:
    return any(a in ("--help", "-h") for a in _before_end(args))


def remember_help(argv: list[str]) -> str | None:
    """The help of Mneme's `remember [add|remove]` when the line asks for it, else None."""
    words = _command_words(argv)
    if words[:1] != ["remember"] or not _wants_help(argv):
        return None
    group = remember_group()
    command, name = group, "mneme remember"
    if len(words) > 1 and words[1] in group.commands:
        command, name = group.commands[words[1]], f"{name} {words[1]}"
    return command.get_help(command.context_class(command, info_name=name, **command.context_settings))


def _remember(action: str, args: list[str]) -> list[str]:
    if _wants_help(args):  # `main` prints Mneme's help (`remember_help`) before it translates anything
        return ["remember" if action == "add" else "forget", "--help"]
    import click

    command = remember_group().commands[action]
    args = [a for a in args if a != "--json"]  # every answer is JSON already
    try:
        params = command.make_context(f"mneme remember {action}", args).params
    except click.UsageError as exc:
        raise Untranslatable(f"mneme remember {action}: {exc.format_message()}") from None
    dry_run = ["--dry-run"] if params["dry_run"] else []
    if action == "add":
        if params["file"] == "":
            raise Untranslatable("--file needs a value")
        return ["remember", "--payload", params["file"] or "-", *dry_run]
    if not params["source_path"]:
        raise Untranslatable("--source-path needs a value")
    return ["forget", "--source", params["source_path"], *dry_run]


def _drop_json(args: list[str]) -> list[str]:
    if "--json" not in args or not args:
        return args
    from .cli.main import cli

    _register()
    command = cli.commands.get(args[0])
    sub = args[1] if len(args) > 1 else None
    if command is not None and sub and hasattr(command, "commands"):
        command = command.commands.get(sub, command)  # type: ignore[attr-defined]
    declares = command is not None and any("--json" in getattr(p, "opts", ()) for p in command.params)
    return args if declares else [a for a in args if a != "--json"]


def _register() -> None:
    from .cli import commands, world_cmds  # noqa: F401  (the same registrations `mnemon` makes)

    for name in ("context_cmds", "vault_cmds"):
        try:
            __import__(f"mnemon.interfaces.cli.{name}")
        except ImportError:
            pass


def main(argv: list[str] | None = None) -> int:
    """Run one Mneme command line; as a program, a call the resident process takes goes there (as `mnemon`'s do).

    What it prints itself ends as mnemon's own output does: to a reader that went away (`| head -c1`), quietly with
    exit 1 (it raised BrokenPipeError with a traceback); with stdout closed (`>&-`), nowhere (AttributeError)."""
    if sys.stdout is None:
        with open(os.devnull, "w", encoding="utf-8") as nowhere, contextlib.redirect_stdout(nowhere):
            return _main(argv)
    try:
        return _main(argv)
    except BrokenPipeError:
        from .daemon.client import _silence  # what is left in the buffer would fail again, loudly, at exit

        _silence(sys.stdout)
        return 1


def _main(argv: list[str] | None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    # what it prints itself is indented when asked, as mnemon's own replies and errors are
    pretty = "--pretty" in _before_end(args)
    refused = unsupported(args)
    if refused is not None:
        print(dumps(refused, pretty=pretty))
        return 2
    help_text = remember_help(args)
    if help_text is not None:
        print(help_text)
        return 0
    note = help_note(args)
    refused = adopt_mneme_environment(os.environ)
    if refused is not None and not _wants_help(args):  # help loads no settings, as `mnemon CMD --help`
        print(dumps(refused, pretty=pretty))
        return 1
    try:
        config = mneme_config(args, os.environ)
        translated = [*config, *translate(args)]
    except Untranslatable as exc:
        print(dumps(error_envelope("usage", str(exc)), pretty=pretty))
        return 2
    missing = _missing_mneme_config(config, os.environ)
    if missing is not None:
        # mnemon can only say the file came from `--config` (how it was handed over): the user set MNEME_CONFIG.
        # Run here, not in the resident process, so the refusal can be reworded before it is printed.
        return _naming_mneme_config(translated, missing, ends_process=argv is None)
    if argv is None:
        from .daemon import client

        if client.forwardable(translated) and client.enabled(os.environ):
            code = client.forward(translated, os.environ, prog_name="mneme")
            if code is not None:
                return code
    from .cli.main import main as mnemon_main

    if note is not None:
        captured = io.StringIO()
        with contextlib.redirect_stdout(captured):
            code = mnemon_main(translated, ends_process=argv is None, prog_name="mneme")
        printed = captured.getvalue()
        # only under the help itself: a line answered with a JSON document instead (a usage error, `--version`)
        # prints it alone, or stdout would hold no valid JSON
        sys.stdout.write(printed.rstrip("\n") + "\n\n" + note + "\n" if code == 0 and _is_help(printed) else printed)
        return code
    if _command_words(translated) == ["note", "delete"]:
        return _note_delete(translated, ends_process=argv is None)
    if _command_words(translated)[:1] == ["doctor"]:
        return _doctor(translated, ends_process=argv is None)
    if _command_words(translated) == ["note", "daily"] and not _has_any(_before_end(args), ("--pattern",)):
        return _note_daily(translated, ends_process=argv is None)
    return mnemon_main(translated, ends_process=argv is None, prog_name="mneme")


# What `mneme` changes about a mnemon command, said under that command's `--help` (the rest of the help is
# mnemon's, and would otherwise state mnemon's defaults for a line that runs with Mneme's)
HELP_NOTES: dict[tuple[str, ...], str] = {
    (): "--config defaults to $MNEMON_CONFIG, else $MNEME_CONFIG, else <user config dir>/mnemon/config.json, or "
        "Mneme's <user config dir>/mneme/config.json when only that one exists. --db may come anywhere on the line. "
        "MNEME_CARD_THEME picks the card theme when MNEMON_CARD_THEME is unset. Mneme commands mnemon lacks (tick, "
        "feedback, path, brain, …) answer with the error code `unsupported`.",
    ("init",): "The config is written where --config says, else as `mneme --help` reads it. --db defaults to the "
               "current mnemon store, not Mneme's ~/.local/share/mneme/mneme.sqlite (mnemon refuses a Mneme "
               "database: ingest the vault again).",
    ("agent", "preflight"): "--surface-limit defaults to 5 here, as in Mneme's preflight (not 0).",
    ("forget",): "With neither NODE_ID nor --source this is Mneme's date-based forget: --days-threshold 30 unless "
                 "given.",
    ("note", "daily"): "--pattern defaults to memory/YYYY-MM-DD.md here, where Mneme keeps daily notes.",
    ("note", "delete"): "--force is Mneme's required confirmation here: without it nothing is deleted, and with it a "
                        "note other notes link to is still kept (`mnemon note delete PATH --force` deletes it).",
    ("note", "move"): "--update-links is accepted (links are rewritten unless --no-update-links); --force is "
                      "ignored.",
    ("note",): "--force is accepted and ignored: the vault's path safety has no bypass.",
}


def help_note(argv: list[str]) -> str | None:
    """The `mneme` note for the command whose `--help` the line asks for, else None."""
    if not _wants_help(argv):
        return None
    words = _command_words(argv)
    for size in (2, 1, 0):
        key = tuple(words[:size])
        if len(key) == size and key in HELP_NOTES and (size or not words):
            text = HELP_NOTES[key]
            return "Through `mneme`:\n" + textwrap.fill(text, 78, initial_indent="  ", subsequent_indent="  ",
                                                          break_on_hyphens=False, break_long_words=False)
    return None


def _is_help(printed: str) -> bool:
    """Whether the command printed click's help rather than a JSON document."""
    try:
        json.loads(printed)
    except ValueError:
        return True
    return False


def _missing_mneme_config(config: list[str], environ: Mapping[str, str]) -> str | None:
    """The path `$MNEME_CONFIG` names when that is the config handed to mnemon and no such file exists, else None."""
    named = environ.get("MNEME_CONFIG")
    if not named or config != ["--config", named]:
        return None
    from pathlib import Path

    return None if Path(named).expanduser().exists() else named


def _run_captured(translated: list[str], *, ends_process: bool) -> tuple[int, str, Any, Any]:
    """Run the translated line with its output held back: (exit code, output, its JSON, its error envelope or None),
    for a caller that rewords a refusal before printing it."""
    from .cli.main import main as mnemon_main

    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        code = mnemon_main(translated, ends_process=ends_process, prog_name="mneme")
    text = captured.getvalue()
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    error = doc.get("error") if isinstance(doc, dict) and doc.get("ok") is False else None
    return code, text, doc, error


def _naming_mneme_config(translated: list[str], named: str, *, ends_process: bool) -> int:
    """Run the line; a refusal of the missing config file names MNEME_CONFIG, the variable the user set, instead of
    the `--config` flag it was passed to mnemon as (`init` writes the file; `doctor` reports it without a flag)."""
    code, text, doc, error = _run_captured(translated, ends_process=ends_process)
    if isinstance(error, dict) and error.get("code") == "not_found" and "(--config)" in str(error.get("message")):
        given = error.get("details")
        details: dict[str, Any] = given if isinstance(given, dict) else {}
        path = details.get("config", named)
        error["message"] = (f"config file {path} (MNEME_CONFIG) does not exist; create it with "
                            "`mneme init --vault DIR`, or unset MNEME_CONFIG")
        error["details"] = {**details, "named_by": "MNEME_CONFIG"}
        text = dumps(doc, pretty="--pretty" in translated) + "\n"
    if _command_words(translated)[:1] == ["doctor"]:
        text = _doctor_as_mneme(text, doc, translated)
    sys.stdout.write(text)
    return code


def _doctor(translated: list[str], *, ends_process: bool) -> int:
    """`doctor`, its advice naming commands as the user runs them here (`doctor_as_mneme`)."""
    code, text, doc, _error = _run_captured(translated, ends_process=ends_process)
    sys.stdout.write(_doctor_as_mneme(text, doc, translated))
    return code


# a report's keys whose text is a path (or a setting as written), never advice: kept as it is
_DOCTOR_PATH_KEYS = frozenset({"config", "path", "vault", "db", "out", "url", "hints", "origin"})


def _doctor_as_mneme(text: str, doc: Any, translated: list[str]) -> str:
    """Doctor's output with each command it advises (`mnemon init …`, `mnemon update`) as typed under `mneme`, the
    script the user ran: the same commands, and "run `mnemon update`" sent them to another program's name."""
    def reword(value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {k: reword(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [reword(v, key) for v in value]
        if isinstance(value, str) and key not in _DOCTOR_PATH_KEYS:
            return value.replace("`mnemon ", "`mneme ")
        return value
    reworded = reword(doc)
    return text if reworded == doc else dumps(reworded, pretty="--pretty" in translated) + "\n"


def _before_end(args: list[str]) -> list[str]:
    """The words before `--` (after it, a "--pattern" is an argument, not the option)."""
    return args[:args.index("--")] if "--" in args else args


def _note_daily(translated: list[str], *, ends_process: bool) -> int:
    """`note daily` with the pattern `mneme` added (Mneme's default): its `pattern_source` says "default", as for
    mnemon's own default; "argument" named a --pattern the user never gave."""
    code, text, doc, _error = _run_captured(translated, ends_process=ends_process)
    if isinstance(doc, dict) and doc.get("pattern_source") == "argument" and doc.get("pattern") == MNEME_DAILY_PATTERN:
        doc["pattern_source"] = "default"
        text = dumps(doc, pretty="--pretty" in translated) + "\n"
    sys.stdout.write(text)
    return code


def _note_delete(translated: list[str], *, ends_process: bool) -> int:
    """`note delete`, with its refusal of a linked note reworded: mnemon says "pass --force", but through `mneme`
    the --force given is Mneme's confirmation and is dropped, so the advice could not be followed. The refusal names
    the mnemon command that does delete the note instead (`details.instead`)."""
    code, text, doc, error = _run_captured(translated, ends_process=ends_process)
    details = error.get("details") if isinstance(error, dict) else None
    if isinstance(error, dict) and error.get("code") == "conflict" and isinstance(details, dict) \
            and isinstance(details.get("linked_from"), dict):
        instead = "mnemon " + shlex.join([*translated, "--force"])
        error["message"] = (f"{details['linked_from'].get('count')} note(s) link to {details.get('path')}; through "
                            "`mneme`, --force only confirms the delete and never deletes a linked note: fix those "
                            f"links, or delete it anyway with `{instead}`")
        details["instead"] = instead
        text = dumps(doc, pretty="--pretty" in translated) + "\n"
    sys.stdout.write(text)
    return code


if __name__ == "__main__":
    sys.exit(main())
