"""`mneme`: Mneme's documented command lines, translated to `mnemon` argv and run by the same CLI. No logic here.

Translation only:
* `--db PATH` may appear anywhere after the command (Mneme's style); it becomes mnemon's global `--db PATH`;
* `remember add --file F [--dry-run]` → `remember --payload F [--dry-run]` (stdin when `--file` is omitted);
* `remember remove --source-path S [--dry-run]` → `forget --source S [--dry-run]`;
* `forget --days-threshold N [--dry-run]` is mnemon's own `forget` with that flag;
* `--json` is dropped where the mnemon command has no such flag (every mnemon command prints JSON);
* everything else (`ingest`, `update`, `retrieve`, `surface`, `thought`, `candidates`, `debug-candidates`, `run-once`,
  `explain-edge`, `promote-candidates`, `weaken-edge`, `resolve`, `init`, `doctor`, `note …`, `write`, `state …`,
  `predict …`, `world …`, `alias …`, `agent …`, …) keeps its name and flags.
"""
from __future__ import annotations

import os
import sys

GLOBAL_VALUE_FLAGS = ("--config", "--db", "--store", "--home", "--embed")
GLOBAL_BOOL_FLAGS = ("--pretty", "--readonly")


def _take_value(args: list[str], i: int, flag: str) -> tuple[str | None, int]:
    """(value, next index) for `flag VALUE` or `flag=VALUE` at position i."""
    token = args[i]
    if token.startswith(flag + "="):
        return token.split("=", 1)[1], i + 1
    if i + 1 < len(args):
        return args[i + 1], i + 2
    return None, i + 1


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
            if value is not None:
                globals_ += [flag, value]
            continue
        if flag in GLOBAL_BOOL_FLAGS:
            globals_.append(flag)
            i += 1
            continue
        break
    body = argv[i:]
    # `--db` anywhere after the command is mnemon's global flag
    j = 0
    while j < len(body):
        token = body[j]
        if token == "--db" or token.startswith("--db="):
            value, j = _take_value(body, j, "--db")
            if value is not None:
                globals_ += ["--db", value]
            continue
        rest.append(token)
        j += 1
    if len(rest) >= 2 and rest[0] == "remember" and rest[1] in ("add", "remove"):
        rest = _remember(rest[1], rest[2:])
    rest = _drop_json(rest)
    return [*globals_, *rest]


def _remember(action: str, args: list[str]) -> list[str]:
    out: list[str] = []
    found = False
    k = 0
    while k < len(args):
        token = args[k]
        key = token.split("=", 1)[0]
        if action == "add" and key == "--file":
            value, k = _take_value(args, k, "--file")
            out += ["--payload", value or "-"]
            found = True
            continue
        if action == "remove" and key == "--source-path":
            value, k = _take_value(args, k, "--source-path")
            out += ["--source", value or ""]
            found = True
            continue
        out.append(token)
        k += 1
    if action == "add":
        return ["remember", *([] if found else ["--payload", "-"]), *out]
    return ["forget", *out]


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
    """Run one Mneme command line; as a program, a call the resident process takes goes there (as `mnemon`'s do)."""
    args = list(sys.argv[1:] if argv is None else argv)
    translated = translate(args)
    if argv is None:
        from .daemon import client

        if client.forwardable(translated) and client.enabled(os.environ):
            code = client.forward(translated, os.environ)
            if code is not None:
                return code
    from .cli.main import main as mnemon_main

    return mnemon_main(translated, ends_process=argv is None)


if __name__ == "__main__":
    sys.exit(main())
