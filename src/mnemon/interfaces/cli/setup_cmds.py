"""`mnemon setup` (wire agent hosts to mnemon, or `--eject` it) and `mnemon hook` (what the installed hooks run).

Thin: parse → one call of `app.integrations` → one JSON document.
"""
from __future__ import annotations

import sys
from typing import Any

import click

from ...core.errors import InvalidInput
from .main import Ctx, cli, run

_HOSTS = ("claude-code", "codex", "hermes")


def _options(c: Ctx) -> list[str]:
    import os

    from ...app.integrations.options import global_options

    return global_options(c.flags, os.environ, c.cfg.db_path)


def _shared_options(c: Ctx) -> list[str]:
    from ...app.integrations.options import shared_options

    return shared_options(c.flags)


@cli.command()
@click.option("--target", "targets", multiple=True, type=click.Choice(_HOSTS),
              help="Host to set up (repeatable); default: every host found on this machine.")
@click.option("--global", "user", is_flag=True, help="User-wide settings instead of the project's.")
@click.option("--project", help="The project folder (default: the current one).")
@click.option("--no-hooks", is_flag=True, help="Leave out the hooks (session start, prompt recall).")
@click.option("--no-mcp", is_flag=True, help="Leave out the MCP server entry.")
@click.option("--shared", is_flag=True, help="Write the project's shared files (.claude/settings.json, .mcp.json, "
              ".claude/skills/mnemon/, .codex/config.toml, AGENTS.md) with commands every teammate can run: 'mnemon' "
              "by name, the store by --store or a database URL. Default: this machine's commands in your personal "
              "files.")
@click.option("--eject", is_flag=True, help="Remove what setup wrote, and only that.")
@click.option("--dry-run", is_flag=True, help="Report the changes, write nothing.")
def setup(targets: tuple[str, ...], user: bool, project: str | None, no_hooks: bool, no_mcp: bool, shared: bool,
          eject: bool, dry_run: bool) -> None:
    """Wire agent hosts (Claude Code, Codex, Hermes) to this store: skill or guide, hooks, MCP server."""
    from ...app.integrations.setup import setup as do_setup

    if user and project:
        raise InvalidInput("--global writes the user-wide settings and --project a project's: give one")
    if eject and (no_hooks or no_mcp or shared):
        raise InvalidInput("--eject removes everything setup wrote, wherever it wrote it: drop --no-hooks / --no-mcp "
                           "/ --shared")
    if user and shared:
        raise InvalidInput("--global writes your own settings and --shared a project's shared files: give one")
    # (the shared options first: a path refused for them is named before a missing one is looked up)
    run(lambda c: do_setup(shared=_shared_options(c) if shared else None, targets=targets, user=user,
                           project=project, eject=eject, dry_run=dry_run, hooks=not no_hooks, mcp=not no_mcp,
                           options=_options(c)))


@cli.command()
@click.argument("host", type=click.Choice(["claude-code"]))
@click.argument("event", type=click.Choice(["session-start", "prompt"]))
def hook(host: str, event: str) -> None:
    """Answer a host's hook event (its JSON on stdin); installed by `mnemon setup`. Always exits 0."""
    from ...app.integrations.hooks import claude_code, read_event

    payload: dict[str, Any] = {}
    stdin: Any = sys.stdin
    if stdin is not None and not stdin.closed and not stdin.isatty():
        try:  # the bytes, as the host wrote them (UTF-8 JSON), not the locale's reading of them
            payload = read_event(getattr(stdin, "buffer", None) or stdin)
        except (OSError, UnicodeDecodeError):
            payload = {}
    run(lambda c: claude_code(lambda: (c.cfg, _options(c)), event, payload, c.flags.get("embed")))
