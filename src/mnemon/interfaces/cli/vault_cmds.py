"""Vault commands of the `mnemon` CLI: ingest/update, edge lifecycle, scoped payload memory, resolve, init/doctor.

Thin: parse → one facade call → one JSON document. `remember` and `forget` (defined with mnemon's memory commands)
gain `--payload FILE [--dry-run]` and `--source mneme://… [--dry-run]` here, so scoped memory uses the same verbs.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import re

import click

from ...app.config import load_config
from .commands import progress_bar, read_input
from .main import ALLOW_EMPTY_OPTION, REPLACE_OPTION, Ctx, OnceOnlyCommand, cli, hints_help, run

_NEGATIVE_ID = re.compile(r"-[0-9]+")


class _EdgeIdCommand(OnceOnlyCommand):
    """`kill-edge -71`: a negative edge id (a note's edge to one of its own items) is the argument, not an unknown
    option, wherever it stands; any other unknown option is named as one (letting every unknown option through made
    `validate-edge -21 --dry-run` "Got unexpected extra argument (--dry-run)")."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" not in args:
            takes_value = {name for p in self.params if isinstance(p, click.Option) and not p.is_flag
                           for name in p.opts}
            ids = [i for i, arg in enumerate(args) if _NEGATIVE_ID.fullmatch(arg)
                   and not (i and args[i - 1] in takes_value)]  # (`--reason -2` is the reason)
            if ids:  # after `--` an argument is never an option
                rest = [a for i, a in enumerate(args) if i not in ids]
                if rest and rest[-1] in takes_value:  # (`--` is no option's value: `kill-edge -3 --reason`)
                    raise click.BadOptionUsage(rest[-1], f"Option '{rest[-1]}' requires an argument.", ctx)
                args = [*rest, "--", *(args[i] for i in ids)]
        return super().parse_args(ctx, args)


def _ingest(mode: str, vault: str | None, hints: str | None, max_notes: int | None, follow_symlinks: bool,
            workers: int | None, no_embed: bool, allow_empty: bool, replace: bool) -> None:
    from ...app.vault.setup import vault_settings

    def go(c: Ctx) -> Any:
        settings = vault_settings(c.cfg, vault=vault, hints=hints, follow_symlinks=follow_symlinks or None)
        return c.mem.ingest(settings.vault, mode=mode, max_notes=max_notes, follow_symlinks=settings.follow_symlinks,
                            hints=list(settings.hints), progress=progress_bar("parsing"), workers=workers,
                            embed=not no_embed, embed_progress=progress_bar("embedding"), bulk_threads=True,
                            allow_empty=allow_empty, replace=replace)
    run(go)


def _ingest_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed([
        click.option("--vault", help="Markdown vault directory (default: from config)."),
        click.option("--hints", help=hints_help("that raise observation scores")),
        click.option("--max-notes", type=int, help="Read at most this many notes (sorted by path)."),
        click.option("--follow-symlinks", is_flag=True,
                     help="Follow symlinked notes/folders whose target resolves inside the vault (a link to a "
                          "note the vault already holds is skipped: the real path wins)."),
        click.option("--workers", type=int, help="Parser processes for a large ingest (default: CPU count)."),
        click.option("--no-embed", is_flag=True, help="Write no vectors now (keyword and graph recall work at once; "
                                                      "`mnemon embed --all` adds them later)."),
        ALLOW_EMPTY_OPTION,
        REPLACE_OPTION,
    ]):
        fn = option(fn)
    return fn


@cli.command()
@_ingest_options
@click.option("--append", is_flag=True, help="Keep rows of notes missing from this run (stale data can remain).")
def ingest(vault: str | None, hints: str | None, max_notes: int | None, follow_symlinks: bool, workers: int | None,
           no_embed: bool, allow_empty: bool, replace: bool, append: bool) -> None:
    """Ingest a Markdown vault into the graph (incremental by content hash; rebuild semantics)."""
    _ingest("append" if append else "rebuild", vault, hints, max_notes, follow_symlinks, workers, no_embed, allow_empty,
            replace)


@cli.command()
@_ingest_options
def update(vault: str | None, hints: str | None, max_notes: int | None, follow_symlinks: bool,
           workers: int | None, no_embed: bool, allow_empty: bool, replace: bool) -> None:
    """Refresh the graph from the vault, keeping generated thought history."""
    _ingest("update", vault, hints, max_notes, follow_symlinks, workers, no_embed, allow_empty, replace)


@cli.command("explain-edge", cls=_EdgeIdCommand)
@click.argument("edge_id")
def explain_edge(edge_id: str) -> None:
    """Why an edge exists: evidence, source, relationship type and its audit timeline."""
    run(lambda c: c.mem.explain_edge(edge_id))


@cli.command("promote-candidates")
@click.option("--mode", default="validated-only", show_default=True, type=click.Choice(["validated-only", "all"]),
              help="validated-only: candidates validated by other than ingest (research, a person); all: every "
                   "candidate. The write gate re-checks each either way.")
@click.option("--dry-run", is_flag=True, help="Report which edges would become active; change nothing.")
def promote_candidates(mode: str, dry_run: bool) -> None:
    """Re-check candidate edges through the write gate and activate those that pass."""
    run(lambda c: c.mem.promote_candidates(mode=mode, dry_run=dry_run))


@cli.command("weaken-edge", cls=_EdgeIdCommand)
@click.argument("edge_id")
@click.option("--reason", default="", help="Why (kept in the edge's audit log).")
@click.option("--factor", default=0.5, show_default=True, type=float, help="Multiply the strength by this (0-1).")
@click.option("--floor", default=0.0, show_default=True, type=float, help="Never below this strength (0-1).")
def weaken_edge(edge_id: str, reason: str, factor: float, floor: float) -> None:
    """Multiply an edge's strength; an active edge below 0.10 becomes a candidate."""
    run(lambda c: c.mem.weaken_edge(edge_id, reason=reason, factor=factor, floor=floor))


@cli.command("kill-edge", cls=_EdgeIdCommand)
@click.argument("edge_id")
@click.option("--reason", default="", help="Why (kept in the edge's audit log).")
def kill_edge(edge_id: str, reason: str) -> None:
    """Kill an edge: a tombstone that rebuilds and re-parses cannot resurrect."""
    run(lambda c: c.mem.kill_edge(edge_id, reason=reason))


@cli.command("validate-edge", cls=_EdgeIdCommand)
@click.argument("edge_id")
@click.option("--reason", default="", help="Why (kept in the edge's audit log).")
def validate_edge(edge_id: str, reason: str) -> None:
    """Confirm an edge as a person: it becomes active (if the gate allows) and survives rebuilds."""
    run(lambda c: c.mem.validate_edge(edge_id, reason=reason))


@cli.command()
@click.option("--vault", help="Vault to write the evidence pack into (default: from config).")
@click.option("--file", "file", help="Resolution payload (JSON); '-' or omitted reads stdin.")
@click.option("--active-threshold", default=0.90, show_default=True, type=float,
              help="A confirmed, sourced claim at this confidence or more may become an active edge.")
@click.option("--dry-run", is_flag=True, help="Show the pack and claim statuses without writing.")
def resolve(vault: str | None, file: str | None, active_threshold: float, dry_run: bool) -> None:
    """Write research results back: a Markdown evidence pack under Sources/ plus weighted claim edges."""
    from ...app.vault.setup import vault_settings

    def go(c: Ctx) -> Any:
        raw = read_input(file, "resolution payload")
        return c.mem.resolve(vault_settings(c.cfg, vault=vault).vault, raw, active_threshold=active_threshold,
                             dry_run=dry_run)
    run(go)


def _init_environ(c: Ctx) -> dict[str, str]:
    """The environment `init` and `doctor` read: the `--config` flag goes in as `MNEMON_CONFIG`, so the settings
    still name that file when it does not exist yet."""
    import os

    env = dict(os.environ)
    if c.flags.get("config"):
        env["MNEMON_CONFIG"] = c.flags["config"]
    return env


def _init_flags(c: Ctx) -> dict[str, Any]:
    return {**{name: c.flags.get(name) for name in ("db", "store", "home")}, "embed_provider": c.flags.get("embed")}


def _config_for_init(c: Ctx, replacing: bool = False) -> Any:
    """The settings for `init` (about to create the file `--config` or `MNEMON_CONFIG` names, or with --force
    replace one that is not JSON) and `doctor` (reports it missing): the rest loads without requiring the file."""
    return load_config(_init_environ(c), missing_ok=True, unreadable_ok=replacing, **_init_flags(c))


@cli.command()
@click.option("--vault", required=True, help="Markdown vault directory.")
@click.option("--db", "db_path", help="Database path to remember (default: the current store).")
@click.option("--out", help="Output directory for cards and exports.")
@click.option("--hints", help="Comma-separated words to write as the config's `hints`, the default of every "
                              "--hints.")
@click.option("--follow-symlinks", is_flag=True, help="Write `follow_symlinks: true`: ingest follows symlinks "
                                                   "whose target is inside the vault.")
@click.option("--force", is_flag=True, help="Overwrite an existing config file.")
def init(vault: str, db_path: str | None, out: str | None, hints: str | None, follow_symlinks: bool,
         force: bool) -> None:
    """Write the config file (vault, db, out, hints) so later commands need no paths."""
    from ...app.vault.setup import init as do_init

    run(lambda c: do_init(_config_for_init(c, replacing=force), vault=vault, db=db_path, out=out, hints=hints,
                          follow_symlinks=follow_symlinks, force=force))


@cli.command()
def doctor() -> None:
    """Validate the config: file, vault, note count, writable db/out locations."""
    from ...app.vault.setup import doctor as do_doctor

    run(lambda c: do_doctor(lambda: _config_for_init(c), _config_named(c), environ=_init_environ(c),
                            flags=_init_flags(c)))


def _config_named(c: Ctx) -> Path:
    import os

    from ...app.config import default_config_path

    return Path(c.flags["config"]).expanduser() if c.flags.get("config") else default_config_path(os.environ)
