"""Memory commands of the `mnemon` CLI (mnemon's surface)."""
from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

import click

from ...app.config import show_settings
from ...core.errors import InvalidInput, MnemonError
from ...core.surface import program
from .main import Ctx, cli, emit, run, stream


def _read_text_arg(parts: tuple[str, ...], what: str) -> str:
    if parts == ("-",):  # as `$(…)` would: `echo fact | remember -` is the same memory as `remember fact`
        from .files import text_or_stdin

        return text_or_stdin("-", f"the {what} as arguments, or pipe it in")
    return " ".join(parts)


def progress_bar(label: str) -> Callable[[int, int], None] | None:
    """A one-line progress bar on stderr, only when a person is watching a terminal (and stderr is open: `2>&-`)."""
    if sys.stderr is None or not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        width = 30
        filled = int(width * done / max(1, total))
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def read_input(file: str | None, what: str, give: str = "with --file PATH") -> str:
    """A JSON payload from a file, or from stdin with '-' (or when piped). Left out with nothing piped (a terminal, no
    stdin, an empty pipe) it is missing: a usage error, as `predict add` or `sense add` without --file is (it was
    invalid_input, exit 1)."""
    from .files import read_document, read_stdin

    missing = f"missing the {what}: give it {give}, or pipe it in ('-' reads stdin)"
    if file is None and (sys.stdin is None or sys.stdin.isatty()):
        raise click.UsageError(missing)
    if file is None:
        text = read_stdin(what, give)
        if not text.strip():
            raise click.UsageError(missing + " (stdin was empty)")
        return text
    return read_document(file, what, give)


@cli.command()
@click.argument("content", nargs=-1)
@click.option("--cat", "category", help="preference|decision|fact|insight|context|general  [default: general]")
@click.option("--imp", "--importance", "importance", help="Importance 1-5.  [default: 3]")
@click.option("--tags", help="Comma-separated tags (≤20).")
@click.option("--entities", help="Comma-separated entities (≤50).")
@click.option("--entity-mode", default="merge", show_default=True, help="merge|provided|auto")
@click.option("--source", help="Who wrote it.  [default: user]")
@click.option("--created-at", help="When it happened (RFC 3339); at most a day past the clock.")
@click.option("--no-diff", is_flag=True, help="Skip the duplicate check and the advisory diff.")
@click.option("--payload", help="Scoped memory payload (JSON file, '-' for stdin) under a mneme:// source_path.")
@click.option("--dry-run", is_flag=True, help="With --payload: validate and show, write nothing.")
def remember(content: tuple[str, ...], payload: str | None, dry_run: bool, **kw: Any) -> None:
    """Store one memory (use '-' to read the content from stdin), or a scoped payload with --payload."""
    if payload is not None:
        # a payload carries its own fields: an option beside it would be dropped without a word, so it is refused
        # before anything is read or written (by source, not value: `--entity-mode merge` is as stray as any)
        ctx = click.get_current_context()
        stray = ["CONTENT"] if content else []
        stray += [p.opts[0] for p in ctx.command.params if p.name in kw
                  and ctx.get_parameter_source(p.name) not in (None, click.core.ParameterSource.DEFAULT)]
        if stray:
            raise click.UsageError(f"{', '.join(stray)} {'does' if len(stray) == 1 else 'do'} not apply to --payload"
                                   " (a payload carries its own fields); give them in the payload, or drop --payload")
        # (`mneme remember add --file PATH` is this command under Mneme's spelling)
        raw = read_input(payload, "payload", f"with {'--payload' if program() == 'mnemon' else '--file'} PATH")
        run(lambda c: c.mem.remember_payload(raw, dry_run=dry_run))
        return
    if dry_run:
        raise click.UsageError("--dry-run only applies to --payload")
    if not content:
        raise click.UsageError("missing CONTENT (or --payload FILE)")
    text = _read_text_arg(content, "content")
    run(lambda c: c.mem.remember(text, **kw))


@cli.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", default=10, show_default=True, type=int, help="At most this many memories (1-100).")
@click.option("--intent", help="WHY|WHEN|ENTITY|GENERAL (overrides detection).")
@click.option("--cat", "category", help="Only this category.")
@click.option("--source", help="Only this source (one no memory has is answered with a warning).")
@click.option("--verbose", is_flag=True, help="Full insight objects and meta (intent, intent_source, …).")
@click.option("--brief", is_flag=True, help="Excerpts only; `mnemon show <id>` gives the rest.")
@click.option("--excerpt-chars", type=int, help="Length of --brief's excerpts.  [default: 240]")
@click.option("--explain", is_flag=True,
              help="Add the stage-by-stage trace (with --brief, each result's signals and via too).")
@click.option("--basic", is_flag=True, help="Legacy substring (LIKE) mode.")
def recall(query: tuple[str, ...], **kw: Any) -> None:
    """Smart recall: intent, anchors (RRF), beam search over the graph, re-rank with signals ('-' reads the query
    from stdin)."""
    text = _read_text_arg(query, "query")  # '-' reads stdin, as `remember -` and `retrieve --prompt -` do
    run(lambda c: c.mem.recall(text, **kw))


@cli.command()
@click.argument("query", nargs=-1, required=True)
@click.option("--limit", default=10, show_default=True, type=int, help="At most this many memories (1-100).")
@click.option("--brief", is_flag=True, help="Excerpts only; `mnemon show <id>` gives the rest.")
@click.option("--excerpt-chars", type=int, help="Length of --brief's excerpts.  [default: 240]")
def search(query: tuple[str, ...], limit: int, brief: bool, excerpt_chars: int | None) -> None:
    """Keyword-only search (FTS5 BM25; '-' reads the query from stdin)."""
    text = _read_text_arg(query, "query")
    run(lambda c: c.mem.search(text, limit=limit, brief=brief, excerpt_chars=excerpt_chars))


@cli.command()
@click.argument("node_id")
def show(node_id: str) -> None:
    """Print one memory in full, with its edges."""
    run(lambda c: c.mem.show(node_id))


@cli.command()
@click.argument("node_ids", nargs=-1)
@click.option("--source", help="Forget every row of this mneme:// scope (any other source is refused).")
@click.option("--days-threshold", help="Demote to candidates the active bullet edges whose dates are all older "
                                       "than this many days (Mneme's `forget`); nothing is deleted.")
@click.option("--undo", is_flag=True, help="Bring back the memories these ids name, removed by `forget ID` or "
                                           "auto-prune, with the edges their removal retired (all or none).")
@click.option("--dry-run", is_flag=True, help="Report, change nothing (a forget lists the edges it would "
                                              "retire).")
def forget(node_ids: tuple[str, ...], source: str | None, days_threshold: str | None, undo: bool,
           dry_run: bool) -> None:
    """Soft-delete a memory (edges retired, oplog entry), bring forgotten ones back with --undo ID [ID ...], remove
    one payload scope with --source, or age the vault's past-dated bullets with --days-threshold."""
    if sum(x for x in (bool(node_ids), source is not None, days_threshold is not None)) > 1:
        raise click.UsageError("give one of NODE_ID, --source or --days-threshold")
    if undo:
        if source is not None or days_threshold is not None:
            raise click.UsageError("--undo brings back memories by id: give their ids, not --source or "
                                   "--days-threshold")
        if not node_ids:
            raise click.UsageError("missing NODE_ID: --undo brings back the memories these ids name")
        run(lambda c: c.mem.undo_forget(list(node_ids), dry_run=dry_run))
        return
    if source is not None:
        run(lambda c: c.mem.forget_source(source, dry_run=dry_run))
        return
    if days_threshold is not None:
        run(lambda c: c.mem.forget_dated(days_threshold, dry_run=dry_run))
        return
    if not node_ids:
        raise click.UsageError("missing NODE_ID (or --source mneme://…, or --days-threshold N)")
    if len(node_ids) > 1:
        raise click.UsageError("forget takes one NODE_ID (--undo takes several)")
    run(lambda c: c.mem.forget(node_ids[0], dry_run=dry_run))


@cli.command()
@click.argument("source_id")
@click.argument("target_id")
@click.option("--type", "edge_type", default="semantic", show_default=True,
              help="temporal|entity|causal|semantic|supersedes")
@click.option("--sub-type", default="", help="e.g. causes|enables|prevents for causal edges.")
@click.option("--weight", default="0.5", show_default=True, help="0..1")
@click.option("--meta", help="JSON object of metadata.")
def link(source_id: str, target_id: str, edge_type: str, sub_type: str, weight: str, meta: str | None) -> None:
    """Create or replace an edge between two memories."""
    run(lambda c: c.mem.link(source_id, target_id, edge_type, sub_type=sub_type, weight=weight, meta=meta))


@cli.command()
@click.argument("node_id")
@click.option("--depth", default=2, show_default=True, type=int, help="Most edges from the memory (1-10).")
@click.option("--type", "--edge", "edge_type", help="Only follow this edge type.")
@click.option("--direction", default="both", show_default=True,
              help="both|out|in: edges leaving the memory (out), entering it (in: e.g. the memory that supersedes "
                   "it), or both; each result says which.")
def related(node_id: str, depth: int, edge_type: str | None, direction: str) -> None:
    """Breadth-first neighbourhood of a memory, along edges in both directions by default."""
    run(lambda c: c.mem.related(node_id, depth=depth, edge_type=edge_type, direction=direction))


@cli.command()
@click.option("--focus", help="Centre on this node (default: the best-connected notes or memories).")
@click.option("--depth", default=1, show_default=True, type=int, help="Hops from the focus (1-4).")
@click.option("--max-nodes", default=150, show_default=True, type=int, help="At most this many nodes (1-2000).")
@click.option("--max-links", default=600, show_default=True, type=int, help="At most this many links (0-10000).")
@click.option("--no-candidates", is_flag=True, help="Leave candidate edges out.")
@click.option("--killed", is_flag=True, help="Include killed edges (tombstones).")
@click.option("--folder", help="Only the notes under this vault folder (without --focus).")
@click.option("--format", "fmt", type=click.Choice(["json", "dot", "html"]), default="json", show_default=True,
              help="json: print the nodes and links. dot (Graphviz) or html (one self-contained page, no network): "
                   "write them to --out FILE and print what was written.")
@click.option("--out", "-o", "out", metavar="FILE",
              help="The file --format dot|html writes (renamed into place once whole). Not '-': stdout carries "
                   "the one JSON document every command prints.")
def graph(focus: str | None, depth: int, max_nodes: int, max_links: int, no_candidates: bool, killed: bool,
          folder: str | None, fmt: str, out: str | None) -> None:
    """A bounded part of the graph (nodes and the links among them), as the workbench draws it; with --format dot or
    html, written to a file for Graphviz or a browser."""
    given = click.get_current_context().get_parameter_source("depth") != click.core.ParameterSource.DEFAULT
    if focus is None and given:
        # the overview (no focus) has no hops to count: it drew the same graph and reported the depth as applied
        raise click.UsageError("--depth counts hops from --focus: give --focus NODE, or drop --depth")
    bounds: dict[str, Any] = dict(focus=focus, depth=depth, max_nodes=max_nodes, max_links=max_links,
                                  include_candidates=not no_candidates, include_killed=killed, folder=folder)
    if fmt == "json":
        if out is not None:
            raise click.UsageError("--out writes a drawing: give --format dot or html with it (the JSON graph is "
                                   "what `graph` prints)")
        run(lambda c: c.mem.graph(**bounds))
    elif out is None or out == "-":
        raise click.UsageError(f"--format {fmt} writes a file: give --out FILE (stdout carries one JSON document, "
                               "what was written; '-' is not a file)")
    else:
        run(lambda c: c.mem.graph_export(fmt, out, **bounds))


viz = copy.copy(graph)  # the real mnemon's name for the drawing (`viz --format dot -o FILE`): taken, not listed
viz.name, viz.hidden = "viz", True
cli.add_command(viz)


@cli.command("find-nodes")
@click.argument("words", nargs=-1, required=True)
@click.option("--limit", default=10, show_default=True, type=int, help="1-50.")
def find_nodes(words: tuple[str, ...], limit: int) -> None:
    """Graph nodes whose title holds the words, in any case: notes first, then headings, tags, people and other named
    nodes; exact titles, then prefixes, then the rest; a [[wikilink]] looks for the note it names, and the note a link
    written as the words lands on (by file name, path or alias too) comes first. Their ids are what `graph --focus`
    and `show` take."""
    run(lambda c: c.mem.find_nodes(" ".join(words), limit=limit))


@cli.command()
def status() -> None:
    """Counts by category and edge type, top entities, size, embedding coverage."""
    run(lambda c: c.mem.status())


@cli.command()
@click.option("--limit", default=20, show_default=True, type=int, help="At most this many entries (1-10000).")
@click.option("--op", help="Only this operation (remember, forget, prune, link, kill-edge, validate-edge, "
                           "weaken-edge, promote-candidates, …).")
def log(limit: int, op: str | None) -> None:
    """The operation log, newest first."""
    run(lambda c: c.mem.log(limit=limit, op=op))


@cli.command()
@click.option("--limit", default=20, show_default=True, type=int, help="1-10000 of the newest log rows.")
def receipt(limit: int) -> None:
    """The operation log as a privacy-reduced audit export to share (schema mnemon.memory.receipt.v1): each row's
    operation and time, and SHA-256 hashes of its node id and detail; no memory text, query, path or id in clear."""
    run(lambda c: c.mem.receipt(limit=limit))


@cli.command()
@click.option("--threshold", default=0.5, show_default=True, type=float,
              help="List memories whose effective importance is below this.")
@click.option("--limit", default=20, show_default=True, type=int, help="At most this many prune candidates.")
@click.option("--keep", help="Boost this memory's access count by 3.")
def gc(threshold: float, limit: int, keep: str | None) -> None:
    """Recompute effective importance and list prune candidates."""
    run(lambda c: c.mem.gc(threshold=threshold, limit=limit, keep=keep))


@cli.command("import")
@click.argument("file")
@click.option("--dry-run", is_flag=True, help="Check the file and report what would be imported; write nothing.")
@click.option("--no-diff", is_flag=True,
              help="A draft: skip the duplicate check (a memory the store holds already is imported again).")
@click.option("--revive-forgotten", is_flag=True,
              help="Restoring an export: bring back the memories it holds that this store has forgotten since "
                   "(same id, vector and edges); without it they are skipped with reason \"forgotten\".")
@click.option("--full-report", is_flag=True,
              help="Each row of results with its text, and every refused row in full (by default a row is its index, "
                   "id and action, and past 20 refused rows the rest are counted by message in error_groups).")
def import_(file: str, dry_run: bool, no_diff: bool, revive_forgotten: bool, full_report: bool) -> None:
    """Bulk import a JSON draft (schema_version "1") or a `mnemon export` file, either gzip-compressed or not."""
    def go(c: Ctx) -> Any:
        from .files import open_document

        # read as it is imported: an export of any size fits in memory
        with open_document(file, "import", "as a path (import FILE)") as fh:
            return c.mem.import_json(fh, dry_run=dry_run, no_diff=no_diff, revive_forgotten=revive_forgotten,
                                     full_report=full_report)
    run(go)


@cli.command()
@click.option("--no-vectors", is_flag=True,
              help="Leave vectors out (smaller file). `import` embeds the restored memories with the store's "
                   "provider afterwards (or, with embedding off, warns to run `mnemon embed --all`).")
@click.option("--out", "out", default=None, metavar="FILE",
              help="Write to FILE, renamed into place only once complete, and print a summary ('-': print the "
                   "export, as without --out). A FILE ending in .gz is written gzip-compressed.")
@click.option("--gzip", "packed", is_flag=True,
              help="gzip-compress the export, to --out FILE whatever its name or to stdout (which otherwise stays "
                   "JSON). `import` reads gzip as it is.")
def export(no_vectors: bool, out: str | None, packed: bool) -> None:
    """Print every active memory, payload scope, edge and world-model row as JSON that `mnemon import` restores
    exactly. Printed once whole (held in memory, past 32 MB in a file under TMPDIR), so a failure prints the error
    alone."""
    if out is not None and out != "-":
        run(lambda c: c.mem.export_to(out, include_vectors=not no_vectors, gzip=packed))
    elif packed:
        stream(lambda c: c.mem.export_gzip_stream(include_vectors=not no_vectors), binary=True)
    else:
        stream(lambda c: c.mem.export_stream(include_vectors=not no_vectors))


@cli.command()
@click.option("--status", "show_status", is_flag=True, help="Coverage for the current provider.")
@click.option("--all", "backfill", is_flag=True, help="Embed every memory that lacks a vector.")
def embed(show_status: bool, backfill: bool) -> None:
    """Embedding status and backfill."""
    if show_status and backfill:  # the backfill ran and --status was dropped without a word
        raise click.UsageError("give --status (coverage) or --all (backfill), not both")
    def go(c: Ctx) -> Any:
        if backfill:
            return c.mem.embed_all(progress=progress_bar("embedding"), bulk_threads=True)
        return c.mem.embed_status()
    run(go)


@cli.group()
def store() -> None:
    """Named stores: list, create, set, remove."""


def _stores() -> ModuleType:
    from ...app import stores  # here: shutil (with bz2 and lzma) loads only for `mnemon store …`

    return stores


@store.command("list")
def store_list() -> None:
    run(lambda c: _stores().list_stores(c.cfg))


@store.command("create")
@click.argument("name")
def store_create(name: str) -> None:
    run(lambda c: _stores().create_store(c.cfg.home, name))


@store.command("set")
@click.argument("name")
def store_set(name: str) -> None:
    run(lambda c: _stores().set_store(c.cfg.home, name, c.cfg))


@store.command("remove")
@click.argument("name")
@click.option("--force", is_flag=True, help="Remove a store that holds memories or cannot be read (for good).")
def store_remove(name: str, force: bool) -> None:
    run(lambda c: _stores().remove_store(c.cfg.home, name, in_use=c.cfg.db_path, force=force))


@cli.command("config")
def config_show() -> None:
    """Print the effective settings."""
    run(lambda c: show_settings(c.cfg))


@cli.group()
def bench() -> None:
    """Benchmarks that print JSON."""


@bench.command("recall")
@click.option("--data", "data_dir", required=True, help="Directory with memories.jsonl and queries.jsonl.")
@click.option("--out", "out_path", help="Write the run file (JSONL) here.")
@click.option("--samples", help="Comma-separated sample ids (default: all).")
@click.option("--limit", default=20, show_default=True, type=int, help="Memories recalled per question.")
@click.option("--cache", "cache_dir", help="Directory to cache document vectors between runs.")
def bench_recall(data_dir: str, out_path: str | None, samples: str | None, limit: int, cache_dir: str | None) -> None:
    """Retrieval quality on a benchmark in the neutral JSONL format (e.g. LoCoMo)."""
    from ...app.bench.locomo import run_bench

    def go(c: Ctx) -> Any:
        sample_list = [s.strip() for s in samples.split(",") if s.strip()] if samples else None
        def progress(sample: str) -> None:
            sys.stderr.write(f"done {sample}\n")

        return run_bench(data_dir, out_path, c.mem.rt.provider, samples=sample_list, limit=limit,
                         cache_dir=cache_dir, progress=progress if sys.stderr and sys.stderr.isatty() else None)
    run(go)


@cli.group()
def mcp() -> None:
    """Model Context Protocol server."""


@mcp.command("serve")
def mcp_serve() -> None:
    """Serve the memory tools over stdio (JSON-RPC 2.0, one message per line) until stdin closes."""
    from ..mcp import serve

    ctx = click.get_current_context().find_root().obj
    try:
        # a server that takes writes: it opens (and may create) the database as a write would
        serve(ctx.facade, defaults=_configured_defaults(ctx.cfg), read_only=bool(ctx.flags.get("readonly")))
    except MnemonError as exc:  # it never started (each message's errors are answered, never raised)
        # the envelope goes to stdout as ever, where a client expects JSON-RPC and logs nothing it can read: the
        # reason the server never started goes to its stderr too, which MCP clients keep in their logs
        sys.stderr.write(f"mnemon mcp serve: {exc.code}: {exc.message}\n")
        raise


@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="0 picks a free port (the printed url says which).")
@click.option("--mount", default="/", show_default=True,
              help="URL path the workbench and API live under (behind a reverse proxy: /mnemon).")
@click.option("--allow-writes", is_flag=True,
              help="Accept the calls that write: remember (and its payloads), link, forget (by id, source or date), "
                   "validate, weaken or kill an edge, action record, predict add and check, sense add, state "
                   "retract, alias add, note add-bullet. Read-only otherwise.")
@click.option("--token", envvar="MNEMON_HTTP_TOKEN", help="Require `Authorization: Bearer TOKEN` on the API "
              "(default: $MNEMON_HTTP_TOKEN).")
@click.option("--no-auth", is_flag=True, help="Listen off loopback without a token (an authenticating proxy is in "
              "front).")
def serve(host: str, port: int, mount: str, allow_writes: bool, token: str | None, no_auth: bool) -> None:
    """The HTTP API and the graph workbench page, until interrupted. Prints one JSON line once listening."""
    from ..http.server import serve as serve_http

    ctx = click.get_current_context().find_root().obj
    if allow_writes and ctx.flags.get("readonly"):
        # it announced `"read_only": false` and offered every write, each refused by the read-only store
        raise InvalidInput("--allow-writes asks for writes on a store opened --readonly: leave out one of them")
    if not allow_writes:
        ctx.flags["readonly"] = True  # a read-only server cannot write even by a bug of its own

    def announce(doc: dict[str, Any]) -> None:
        emit(doc)
        sys.stdout.flush()  # a caller reads the url from this line while the server runs

    serve_http(ctx.facade, host=host, port=port, mount=mount, allow_writes=allow_writes, token=token,
               no_auth=no_auth, announce=announce, defaults=_configured_defaults(ctx.cfg))


def _configured_defaults(cfg: Any) -> dict[str, Any]:
    """What the CLI's own commands read from the config file when an option is left out, for the servers' calls
    (so a tool's payload is the CLI's): the config's `hints`."""
    from ...app.vault.setup import chosen_hints

    hints = chosen_hints(cfg, None)
    return {"hints": hints} if hints else {}
