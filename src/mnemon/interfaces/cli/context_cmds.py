"""Context and thought commands (`retrieve`, `candidates`, `debug-candidates`, `thought`, `surface`, `run-once`)
and the path-safe note editor (`note read|write|replace|upsert-section|add-bullet`, `write`, and the vault-level
`note list|search|search-content|daily|move|delete|status`)."""
from __future__ import annotations

import os
import sys
from typing import Any

import click

from ...app import daily_notes, note_tools, notes
from ...core.errors import InvalidInput
from .files import stdin_text
from .main import ALLOW_EMPTY_OPTION, REPLACE_OPTION, Ctx, cli, hints_help, run

# the note editor's folder: every `note` command takes it
_VAULT = click.option("--vault", help="The vault directory (default: config `vault`, MNEMON_VAULT).")
_SHOW_DIFF = click.option("--dry-run", is_flag=True, help="Show the change as a diff; write nothing.")
_WRITE_MODE = click.option("--mode", default="append", show_default=True, type=click.Choice(notes.WRITE_MODES),
                           help="append: to the end; overwrite: replace the whole text; create: a new note only "
                                "(refused when one is there). A missing note is created.")
_HOPS = "Most edges in a thought's path, 0-12 (0: the memory alone, no path)."


def _prompt(option: str | None, words: tuple[str, ...]) -> str:
    if option is not None and words:
        raise InvalidInput("give the prompt either with --prompt or as arguments, not both")
    text = option if option is not None else " ".join(words)
    if option is None and not words:
        # no prompt given at all is a usage error, as `recall` and `search` without a query are (it was
        # invalid_input, exit 1, "--prompt must be a non-empty string"); a piped one is read
        if sys.stdin is None or sys.stdin.isatty():
            raise click.UsageError(_NO_PROMPT)
        text = stdin_text("the prompt").rstrip("\r\n")
        if not text:
            raise click.UsageError(_NO_PROMPT + " (stdin was empty)")
        return text
    if sys.stdin is None and text == "-":  # closed (`<&-`): nothing to read the prompt from
        raise InvalidInput("give the prompt with --prompt TEXT or as arguments: there is no stdin to read")
    if text == "-":
        text = stdin_text("the prompt").rstrip("\r\n")  # `echo supplier |` sends the prompt with echo's line end
    return text


_NO_PROMPT = "missing the prompt: give it as arguments, with --prompt TEXT, or piped on stdin"


def _out(c: Ctx, out: str | None) -> str:
    from ...app.vault.setup import chosen_out

    return chosen_out(c.cfg, out)


def _hints(c: Ctx, hints: str | None) -> tuple[str, ...] | None:
    from ...app.vault.setup import chosen_hints

    return chosen_hints(c.cfg, hints)


def _vault(c: Ctx, vault: str | None) -> str:
    chosen = vault or c.cfg.vault
    if not chosen:
        raise InvalidInput("no vault given: pass --vault DIR or set `vault` in the config (MNEMON_VAULT)")
    return str(chosen)


def _content(content: str | None, *, optional: bool = False) -> str:
    """--content, else stdin: piped, or a terminal only when asked for with '-' (omitted, the command waited there
    without a word, forever in an agent's pseudo-terminal); a closed stdin is refused too, not an AttributeError.
    `optional`: text the command can do without (`daily create` makes the note empty) — left out with nothing
    piped (a terminal, a closed or empty stdin), it is ""."""
    if content is not None and content != "-":
        return content
    if optional and content is None and (sys.stdin is None or sys.stdin.isatty()):
        return ""
    if sys.stdin is None or (content is None and sys.stdin.isatty()):
        raise InvalidInput("give the text with --content TEXT, or pipe it in (--content - reads "
                           + ("the terminal)" if sys.stdin is not None else "stdin, and there is none)"))
    text = stdin_text("the note text")
    if content is None and not text and not optional:
        # run by an agent or cron (stdin /dev/null): `--mode overwrite` without --content emptied the note
        raise InvalidInput("give the text with --content TEXT, or pipe it in: --content was left out and stdin was "
                           "empty (nothing written; --content '' writes nothing on purpose)")
    return text


@cli.command()
@click.argument("words", nargs=-1)
@click.option("--prompt", help="The prompt to build context for ('-' reads stdin).")
@click.option("--budget", default=2500, show_default=True, type=int, help="Budget in characters of title + text.")
@click.option("--max-items", default=8, show_default=True, type=int, help="At most this many items (1-100).")
@click.option("--no-candidates", is_flag=True, help="Drop candidate edges (they are listed as skipped).")
@click.option("--as-of", help="Replay at this ISO-8601 instant.")
@click.option("--verbose", is_flag=True, help="Recall signals and route per item.")
@click.option("--explain", is_flag=True, help="Add a ranking table and the recall trace.")
@click.option("--hints", help=hints_help("that raise the items holding them (up to x1.3); a prompt with no usable "
                                         "terms searches for them"))
def retrieve(words: tuple[str, ...], prompt: str | None, budget: int, max_items: int, no_candidates: bool,
             as_of: str | None, verbose: bool, explain: bool, hints: str | None) -> None:
    """Prompt-time context pack: memories, observations, edges and world rows, each with a truth_policy.

    A vault path in the prompt (Projects/, lighthouse.md, or a quoted path with spaces) keeps the pack to those
    notes."""
    text = _prompt(prompt, words)
    run(lambda c: c.mem.retrieve(text, budget=budget, max_items=max_items, as_of=as_of,
                                 include_candidates=not no_candidates, verbose=verbose, explain=explain,
                                 hints=_hints(c, hints)))


@cli.command()
@click.option("--hints", help=hints_help("that raise the score of candidates holding them"))
@click.option("--hops", default=5, show_default=True, type=int, help=_HOPS)
@click.option("--limit", default=5, show_default=True, type=int, help="At most this many candidates (1-100).")
def candidates(hints: str | None, hops: int, limit: int) -> None:
    """Top proactive thought candidates with score breakdowns and paths."""
    run(lambda c: c.mem.candidates(hints=_hints(c, hints), hops=hops, limit=limit))


@cli.command("debug-candidates")
@click.option("--hints", help=hints_help("that raise the score of candidates holding them"))
@click.option("--hops", default=5, show_default=True, type=int, help=_HOPS)
@click.option("--limit", default=20, show_default=True, type=int, help="At most this many candidates (1-100).")
@click.option("--include-skipped", is_flag=True, help="Also list suppressed candidates and why.")
def debug_candidates(hints: str | None, hops: int, limit: int, include_skipped: bool) -> None:
    """Scored and suppressed candidates, with reasons."""
    run(lambda c: c.mem.debug_candidates(hints=_hints(c, hints), hops=hops, limit=limit,
                                         include_skipped=include_skipped))


@cli.command()
@click.option("--hints", help=hints_help("that raise the score of the candidates holding them"))
@click.option("--hops", default=5, show_default=True, type=int, help=_HOPS)
@click.option("--out", help="Directory for the card (default: config `out`, else <home>/cards).")
def thought(hints: str | None, hops: int, out: str | None) -> None:
    """Generate the top thought (biased walk over active edges) and render its card."""
    run(lambda c: c.mem.thought(hints=_hints(c, hints), hops=hops, out=_out(c, out), theme=c.cfg.card_theme))


@cli.command()
@click.argument("words", nargs=-1)
@click.option("--prompt", help="Surface thoughts for this prompt ('-' reads stdin); without one, the proactive "
                              "candidates.")
@click.option("--limit", default=5, show_default=True, type=int, help="At most this many cards (1-50).")
@click.option("--hops", default=5, show_default=True, type=int, help=_HOPS)
@click.option("--hints", help=hints_help("that raise the items (with a prompt) or candidates (without) holding them"))
@click.option("--no-candidates", is_flag=True, help="Leave candidate edges out of the prompt's pack (needs a prompt).")
@click.option("--render", is_flag=True, help="Also write a card per thought.")
@click.option("--out", help="Directory for cards (implies --render; default: config `out`, else <home>/cards).")
def surface(words: tuple[str, ...], prompt: str | None, limit: int, hops: int, hints: str | None,
            no_candidates: bool, render: bool, out: str | None) -> None:
    """Thought cards from retrieval, with suggested_actions (one JSON shape with or without a prompt)."""
    if prompt is not None and words:
        raise InvalidInput("give the prompt either with --prompt or as arguments, not both")
    text = prompt if prompt is not None else (" ".join(words) or None)
    if text == "-":  # as `retrieve --prompt -`: it searched for the text "-"
        from .files import text_or_stdin

        text = text_or_stdin(text, "the prompt with --prompt TEXT or as arguments")
    run(lambda c: c.mem.surface(prompt=text, limit=limit, hops=hops, hints=_hints(c, hints),
                                include_candidates=not no_candidates,
                                out=_out(c, out) if render or out is not None else None, theme=c.cfg.card_theme))


@cli.command("run-once")
@click.option("--vault", help="Markdown vault (default: config `vault`).")
@click.option("--out", help="Directory for the card (default: config `out`, else <home>/cards).")
@click.option("--hints", help=hints_help("that raise observation and candidate scores"))
@click.option("--hops", default=5, show_default=True, type=int, help=_HOPS)
@click.option("--max-notes", type=int, help="Read at most this many notes (sorted by path).")
@click.option("--append", is_flag=True,
              help="Keep rows of notes missing from this run, as `ingest --append` (default: an update).")
@click.option("--follow-symlinks", is_flag=True,
              help="Follow symlinked notes/folders whose target resolves inside the vault.")
@ALLOW_EMPTY_OPTION
@REPLACE_OPTION
def run_once(vault: str | None, out: str | None, hints: str | None, hops: int, max_notes: int | None,
             append: bool, follow_symlinks: bool, allow_empty: bool, replace: bool) -> None:
    """Ingest the vault, then generate and render one thought."""
    from ...app.vault.setup import vault_settings

    # the flag, else the config's follow_symlinks, as `ingest` reads it (an update that did not follow the links
    # `ingest` followed removed the notes it had read through them)
    run(lambda c: c.mem.run_once(vault=_vault(c, vault), out=_out(c, out), hints=_hints(c, hints), hops=hops,
                                 theme=c.cfg.card_theme, max_notes=max_notes, append=append or None,
                                 follow_symlinks=vault_settings(c.cfg, follow_symlinks=follow_symlinks or None
                                                                ).follow_symlinks,
                                 allow_empty=allow_empty, replace=replace))


# ── note editor ────────────────────────────────────────────────────────────────────────────────────────────────
@cli.group()
def note() -> None:
    """Path-safe Markdown editor: vault-relative .md paths only, atomic writes, backups, --dry-run diffs."""


@note.command("read")
@click.argument("path")
@_VAULT
@click.option("--heading", help="Only the section under this heading.")
def note_read(path: str, vault: str | None, heading: str | None) -> None:
    """Print a note (or one section of it), with the file's size and sha256."""
    run(lambda c: notes.read_note(_vault(c, vault), path, heading=heading))


@note.command("write")
@click.argument("path")
@_VAULT
@_WRITE_MODE
@click.option("--content", help="Text to write (stdin when omitted).")
@_SHOW_DIFF
def note_write(path: str, vault: str | None, mode: str, content: str | None, dry_run: bool) -> None:
    """Create, append to or overwrite a note (backed up first when it changes)."""
    run(lambda c: notes.write_note(_vault(c, vault), path, _content(content), mode=mode, dry_run=dry_run))


@note.command("replace")
@click.argument("path")
@_VAULT
@click.option("--find", "find", required=True, help="The exact text to replace.")
@click.option("--replace", "replacement", required=True, help="The text to put in its place.")
@click.option("--all", "all_matches", is_flag=True, help="Replace every occurrence (else exactly one must exist).")
@_SHOW_DIFF
def note_replace(path: str, vault: str | None, find: str, replacement: str, all_matches: bool, dry_run: bool) -> None:
    """Replace exact text: it must occur once, or pass --all."""
    run(lambda c: notes.replace_in_note(_vault(c, vault), path, find, replacement, all_matches=all_matches,
                                        dry_run=dry_run))


@note.command("upsert-section")
@click.argument("path")
@_VAULT
@click.option("--heading", required=True, help="The section's heading text (without the #s).")
@click.option("--content", help="Section body (stdin when omitted).")
@click.option("--level", default=2, show_default=True, type=int, help="The heading's level (1-6) when it is added.")
@_SHOW_DIFF
def note_upsert_section(path: str, vault: str | None, heading: str, content: str | None, level: int,
                        dry_run: bool) -> None:
    """Replace the section under --heading (its sub-sections too), or append it as a new --level heading."""
    run(lambda c: notes.upsert_section(_vault(c, vault), path, heading, _content(content), level=level,
                                       dry_run=dry_run))


@note.command("add-bullet")
@click.argument("path")
@_VAULT
@click.option("--heading", required=True, help="The heading whose list gets the bullet (created when missing).")
@click.option("--bullet", required=True, help="The bullet's text, one line.")
@_SHOW_DIFF
def note_add_bullet(path: str, vault: str | None, heading: str, bullet: str, dry_run: bool) -> None:
    """Add a bullet to the end of a heading's own list (the section is created when missing), unless it is there."""
    run(lambda c: notes.add_bullet(_vault(c, vault), path, heading, bullet, dry_run=dry_run))


@note.command("list")
@click.argument("folder", required=False)
@_VAULT
@click.option("--pattern", help="Glob on the file name or vault path, e.g. '*review*' or 'Meetings/2026-*'.")
@click.option("--sort", default="path", show_default=True, type=click.Choice(note_tools.LIST_SORTS),
              help="The order of the notes.")
@click.option("--limit", type=int, help="At most this many notes (the answer says when it is truncated).")
def note_list(folder: str | None, vault: str | None, pattern: str | None, sort: str, limit: int | None) -> None:
    """Notes under FOLDER (default: the whole vault), with title, aliases, size and modification time."""
    run(lambda c: note_tools.list_notes(_vault(c, vault), folder, pattern=pattern, sort=sort, limit=limit))


@note.command("search")
@click.argument("words", nargs=-1, required=True)
@_VAULT
@click.option("--folder", help="Only notes under this vault folder.")
@click.option("--limit", default=20, show_default=True, type=int, help="At most this many notes.")
def note_search(words: tuple[str, ...], vault: str | None, folder: str | None, limit: int) -> None:
    """Notes whose file name, title or alias holds every word (case, '-' and '_' ignored), best match first."""
    run(lambda c: note_tools.search_notes(_vault(c, vault), " ".join(words), folder=folder, limit=limit))


@note.command("search-content")
@click.argument("query")
@_VAULT
@click.option("--folder", help="Only notes under this vault folder.")
@click.option("--max-results", default=10, show_default=True, type=int, help="Matching lines over the whole vault.")
@click.option("--context", default=3, show_default=True, type=int, help="Lines shown before and after each match.")
@click.option("--regex", is_flag=True, help="QUERY is a Python regular expression (else literal text).")
@click.option("--case-sensitive", is_flag=True, help="Match letters in their case (default: any case).")
def note_search_content(query: str, vault: str | None, folder: str | None, max_results: int, context: int,
                        regex: bool, case_sensitive: bool) -> None:
    """Lines inside notes that hold QUERY, with surrounding lines."""
    run(lambda c: note_tools.search_content(_vault(c, vault), query, folder=folder, max_results=max_results,
                                            context=context, regex=regex, case_sensitive=case_sensitive))


@note.command("daily")
@click.argument("action", required=False, type=click.Choice(daily_notes.DAILY_ACTIONS))
@_VAULT
@click.option("--date", "day", help="YYYY-MM-DD, today, yesterday or tomorrow (default: today, local time).")
@click.option("--content", help="Text to add ('-' or omitted with append/create: stdin).")
@click.option("--heading", help="Append under this heading (created when missing).")
@click.option("--pattern", help="Where daily notes live (default: $MNEMON_DAILY_PATTERN, else Obsidian's "
                                "daily-notes setting, else Daily/YYYY-MM-DD.md); tokens YYYY MM MMM MMMM DD ddd "
                                "dddd, [text] literal.")
@_SHOW_DIFF
def note_daily(action: str | None, vault: str | None, day: str | None, content: str | None, heading: str | None,
               pattern: str | None, dry_run: bool) -> None:
    """Today's daily note: read it, create it, or append to it (under --heading), creating it when missing.

    Without an action: append when --content is given, else read. create without text makes the note empty (with
    --heading, holding that heading)."""
    if (content == "-" and action != "read") or (action in ("append", "create") and content is None):
        content = _content(content, optional=action == "create")
    run(lambda c: daily_notes.daily_note(_vault(c, vault), action, content=content, heading=heading, day=day,
                                        pattern=pattern or os.environ.get("MNEMON_DAILY_PATTERN"),
                                        dry_run=dry_run))


@note.command("move")
@click.argument("path")
@click.option("--to", "to", required=True, help="New vault-relative path (.md); refused if a note is there.")
@_VAULT
@click.option("--update-links/--no-update-links", default=True, show_default=True,
              help="Rewrite wikilinks and Markdown links in other notes so they still reach the note.")
@click.option("--dry-run", is_flag=True, help="Show the move and every rewritten link (per-file diffs); write nothing.")
def note_move(path: str, to: str, vault: str | None, update_links: bool, dry_run: bool) -> None:
    """Move or rename a note; links that pointed at it keep pointing at it (#Section and |Alias kept)."""
    run(lambda c: note_tools.move_note(_vault(c, vault), path, to, update_links=update_links, dry_run=dry_run))


@note.command("delete")
@click.argument("path")
@_VAULT
@click.option("--force", is_flag=True, help="Delete even though other notes link to it (their links are listed).")
@click.option("--dry-run", is_flag=True, help="Report the note and the notes linking to it; delete nothing.")
def note_delete(path: str, vault: str | None, force: bool, dry_run: bool) -> None:
    """Delete a note after backing it up; refused while other notes link to it, unless --force."""
    run(lambda c: note_tools.delete_note(_vault(c, vault), path, force=force, dry_run=dry_run))


@note.command("status")
@_VAULT
def note_status(vault: str | None) -> None:
    """Vault summary: notes, folders, bytes, newest/oldest note, links and broken links, backups."""
    run(lambda c: note_tools.vault_status(_vault(c, vault)))


@cli.command("write")
@_VAULT
@click.option("--path", "path", required=True, help="The note's vault-relative path (.md).")
@_WRITE_MODE
@click.option("--content", help="Text to write (stdin when omitted).")
@_SHOW_DIFF
def write_compat(vault: str | None, path: str, mode: str, content: str | None, dry_run: bool) -> None:
    """Compatibility shortcut for `note write` (Mneme's top-level `write`)."""
    def go(c: Ctx) -> Any:
        return notes.write_note(_vault(c, vault), path, _content(content), mode=mode, dry_run=dry_run)
    run(go)
