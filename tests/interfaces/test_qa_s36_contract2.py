"""QA session 36, the interfaces' contract (second round): a missing prompt is a usage error as a missing query is,
every option's help says what it does and its real default, `link` takes the same arguments everywhere, a read-only
server's cards carry only calls it offers, and the servers' schemas refuse what the library refuses inside an
object."""
from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest

CliRun = Callable[..., tuple[int, Any]]


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


# ── a missing required argument: usage, exit 2, on every command ───────────────────────────────────────────────
@pytest.mark.parametrize("stdin", ["terminal", "empty pipe"])
def test_retrieve_without_a_prompt_is_a_usage_error_as_recall_without_a_query(
        cli_run: CliRun, monkeypatch: pytest.MonkeyPatch, stdin: str) -> None:
    """`mnemon retrieve` with no prompt answered invalid_input (exit 1, "--prompt must be a non-empty string") where
    `mnemon recall` and `mnemon search` with no query answer usage (exit 2)."""
    for argv in (["recall"], ["search"], ["retrieve"]):
        monkeypatch.setattr("sys.stdin", _Terminal() if stdin == "terminal" else io.StringIO(""))
        code, doc = cli_run(argv)
        assert (code, doc["error"]["code"]) == (2, "usage"), (argv, doc)
    assert "--prompt" in doc["error"]["message"]
    # a prompt given but empty is bad input, as `recall ""` is
    for argv in (["recall", ""], ["retrieve", ""], ["retrieve", "--prompt", ""]):
        code, doc = cli_run(argv)
        assert (code, doc["error"]["code"]) == (1, "invalid_input"), (argv, doc)
    code, doc = cli_run(["retrieve"], input="payments\n")
    assert code == 0 and doc["prompt"] == "payments"


# ── every option's help says what it does and its real default ────────────────────────────────────────────────
def _options() -> list[tuple[str, Any]]:
    import click

    from mnemon.interfaces.cli.main import cli, register_all

    register_all()
    ctx = click.Context(cli)
    found: list[tuple[str, Any]] = []

    def walk(command: Any, path: list[str]) -> None:
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), [*path, name])
            return
        found.extend((" ".join([*path, *param.opts]), param) for param in command.params
                     if isinstance(param, click.Option) and not param.hidden)

    walk(cli, [])
    return found


def test_every_option_says_what_it_does() -> None:
    """`--hints` of surface, thought, debug-candidates and run-once, and some 60 other options (every note command's
    --vault and --dry-run, --limit, --hops …) showed no help at all in `--help`."""
    bare = [name for name, option in _options() if not (option.help or "").strip()]
    assert not bare, bare


def test_every_hints_option_names_the_config_then_mnemes_list() -> None:
    """`candidates --hints` said its default was "Mneme's hint list", though the config file's `hints` apply
    first; retrieve's named the config's and not what applies without one."""
    from mnemon.core.vault.observations import DEFAULT_HINTS

    hints = {name: option.help for name, option in _options() if "--hints" in name and not name.startswith("init")}
    assert {"candidates --hints", "surface --hints", "thought --hints", "debug-candidates --hints",
            "run-once --hints", "retrieve --hints", "agent preflight --hints", "ingest --hints"} <= set(hints)
    for name, text in hints.items():
        assert "config's `hints`" in text and ", ".join(DEFAULT_HINTS) in text, (name, text)


def test_the_servers_hints_name_the_same_default() -> None:
    from mnemon.core.vault.observations import DEFAULT_HINTS
    from mnemon.interfaces.operations import OPERATIONS

    for op in OPERATIONS:
        if "hints" in op.properties:
            text = op.properties["hints"]["description"]
            assert "config's `hints`" in text and ", ".join(DEFAULT_HINTS) in text, op.name
