"""World-model commands: state, predict, sense, world, action, alias, contract, agent preflight, eval retrieval.

Thin: read the flags (and a JSON file where the command takes one), call one facade method, print one JSON
document. A failing contract check (and `eval retrieval` below `--min-score`) raises `ContractViolation`, whose
envelope carries the full report in `error.details` and exits non-zero.
"""
from __future__ import annotations

from typing import Any

import click

from .main import Ctx, cli, hints_help, run

AS_OF_HELP = "Evaluate at this ISO-8601 instant (deterministic replay) instead of now."


def read_file(path: str, what: str) -> str:
    """A JSON payload file, or stdin for '-'; a missing path is a JSON error, not a traceback."""
    from .files import read_document

    return read_document(path, what)


# ── state ──────────────────────────────────────────────────────────────────────────────────────────────────────
@cli.group()
def state() -> None:
    """Durable state assertions: list, explain, backfill, conflicts."""


@state.command("list")
@click.option("--status", help="current|lapsed|future|superseded|retracted|unbacked|all (validity at --as-of; "
                                "unbacked: its source edge is a candidate, killed or retired).")
@click.option("--subject", help="Only subjects containing this text (case-insensitive).")
@click.option("--predicate", help="Only this predicate.")
@click.option("--type", "state_type", help="belief|open_loop")
@click.option("--as-of", "as_of", help=AS_OF_HELP)
@click.option("--limit", default=200, show_default=True, type=int, help="At most this many assertions (1-10000).")
@click.option("--order-by", "order_by", default="subject", show_default=True,
              help="subject | updated_at_desc | created_at_desc")
def state_list(**kw: Any) -> None:
    """Assertions with their read-time validity and truth policy."""
    run(lambda c: c.mem.state_list(**kw))


@state.command("explain")
@click.argument("assertion_id")
@click.option("--as-of", "as_of", help=AS_OF_HELP)
def state_explain(assertion_id: str, as_of: str | None) -> None:
    """One assertion with its supersession chains, linked predictions and audit events."""
    run(lambda c: c.mem.state_explain(assertion_id, as_of=as_of))


@state.command("backfill")
@click.option("--dry-run", is_flag=True, help="Report what would be written; change nothing.")
def state_backfill(dry_run: bool) -> None:
    """Derive assertions from active edges written by `resolve`, through the same gate."""
    run(lambda c: c.mem.state_backfill(dry_run=dry_run))


@state.command("conflicts")
@click.option("--as-of", "as_of", help=AS_OF_HELP)
def state_conflicts(as_of: str | None) -> None:
    """Contradiction radar: state collisions and evidence conflicts (read-only)."""
    run(lambda c: c.mem.state_conflicts(as_of=as_of))


@state.command("assert")
@click.option("--file", "file", required=True, help="Assertion JSON (or '-' for stdin).")
@click.option("--dry-run", is_flag=True, help="Report what the gate would do; write nothing.")
def state_assert(file: str, dry_run: bool) -> None:
    """Propose one assertion through the gate (confirmed, evidenced, confidence ≥ 0.9, validated)."""
    run(lambda c: c.mem.state_assert(read_file(file, "assertion"), dry_run=dry_run))


@state.command("retract")
@click.argument("assertion_id")
@click.option("--reason", required=True, help="Why this value was never true.")
def state_retract(assertion_id: str, reason: str) -> None:
    """Mark one assertion as never true (a correction); a value it had superseded is current again."""
    run(lambda c: c.mem.state_retract(assertion_id, reason=reason))


# ── predictions ────────────────────────────────────────────────────────────────────────────────────────────────
@cli.group()
def predict() -> None:
    """Deterministic expectations about future sense evidence."""


@predict.command("add")
@click.option("--file", "file", required=True, help="Prediction JSON (or '-' for stdin).")
def predict_add(file: str) -> None:
    """Store a prediction (id = content hash when the payload has none; replays are idempotent)."""
    run(lambda c: c.mem.predict_add(read_file(file, "prediction")))


@predict.command("due")
@click.option("--before", help="ISO instant or a duration from now (4h, 7d, 2w); default now.")
@click.option("--as-of", "as_of", help=AS_OF_HELP)
def predict_due(before: str | None, as_of: str | None) -> None:
    """Open predictions due by --before (read-only)."""
    run(lambda c: c.mem.predict_due(before=before, as_of=as_of))


@predict.command("check")
@click.option("--id", "prediction_id", help="Check this prediction (default: every due one).")
@click.option("--as-of", "as_of", help="Check at this ISO instant (default now; a future one only with "
              "--dry-run; a past one judges only the predictions and evidence recorded by then).")
@click.option("--dry-run", is_flag=True, help="Evaluate without recording outcomes.")
def predict_check(prediction_id: str | None, as_of: str | None, dry_run: bool) -> None:
    """Evaluate predictions against stored sense events; records outcomes unless --dry-run."""
    run(lambda c: c.mem.predict_check(prediction_id=prediction_id, as_of=as_of, dry_run=dry_run))


# ── senses ─────────────────────────────────────────────────────────────────────────────────────────────────────
@cli.group()
def sense() -> None:
    """Sense events: the evidence predictions are checked against."""


@sense.command("add")
@click.option("--file", "file", required=True, help="One event, a list, or {\"events\": [...]} (or '-').")
def sense_add(file: str) -> None:
    """Record external evidence (an email, a calendar event) as sense events."""
    run(lambda c: c.mem.sense_add(read_file(file, "sense event")))


# ── world loop ─────────────────────────────────────────────────────────────────────────────────────────────────
@cli.group()
def world() -> None:
    """The world loop: watch and tick."""


@world.command("watch")
@click.option("--lead", default="1d", show_default=True, help="Look-ahead: 4h, 1d, 2w.")
@click.option("--as-of", "as_of", help=AS_OF_HELP)
def world_watch(lead: str, as_of: str | None) -> None:
    """Open predictions due within --lead that have no matching evidence yet (read-only)."""
    run(lambda c: c.mem.world_watch(lead=lead, as_of=as_of))


@world.command("tick")
@click.option("--before", help="Run the loop at this ISO instant (or now + duration); default now. A past instant "
              "judges only the predictions and evidence recorded by then; a future one only with --dry-run "
              "(outcomes are recorded up to now).")
@click.option("--dry-run", is_flag=True, help="Report every transition; change nothing.")
def world_tick(before: str | None, dry_run: bool) -> None:
    """Due checks, watch, lapsed open loops, contradictions, contract, attention list."""
    run(lambda c: c.mem.world_tick(before=before, dry_run=dry_run))


# ── action ledger ──────────────────────────────────────────────────────────────────────────────────────────────
@cli.group()
def action() -> None:
    """The action ledger of side effects."""


@action.command("record")
@click.option("--file", "file", help="Action JSON ('-': stdin; left out: stdin when piped).")
def action_record(file: str | None) -> None:
    """Record an action; side effects need external_ref or tool_call_id; `verify` spawns a prediction."""
    from .commands import read_input  # left out on a terminal: refused (it waited there without a word)

    run(lambda c: c.mem.action_record(read_input(file, "action")))


# ── aliases ────────────────────────────────────────────────────────────────────────────────────────────────────
@cli.group()
def alias() -> None:
    """Canonical world-state subjects."""


@alias.command("add")
@click.argument("alias_name")
@click.argument("canonical")
@click.option("--source", default="manual", show_default=True, help="Who says so.")
@click.option("--confidence", default=1.0, show_default=True, type=float, help="How sure (0-1).")
def alias_add(alias_name: str, canonical: str, source: str, confidence: float) -> None:
    """ALIAS names the same subject as CANONICAL (affects future writes)."""
    run(lambda c: c.mem.alias_add(alias_name, canonical, source=source, confidence=confidence))


@alias.command("merge")
@click.argument("from_subject")
@click.argument("into_subject")
@click.option("--dry-run", is_flag=True, help="Report the rewrites; change nothing.")
def alias_merge(from_subject: str, into_subject: str, dry_run: bool) -> None:
    """Register the alias and rewrite FROM's assertions onto INTO, recomputing current values."""
    run(lambda c: c.mem.alias_merge(from_subject, into_subject, dry_run=dry_run))


@alias.command("ls")
@click.option("--canonical", help="Only aliases of this canonical subject.")
def alias_ls(canonical: str | None) -> None:
    run(lambda c: c.mem.alias_ls(canonical=canonical))


# ── contract, preflight, eval ──────────────────────────────────────────────────────────────────────────────────
@cli.group()
def contract() -> None:
    """Database invariants."""


@contract.command("check")
@click.option("--as-of", "as_of", help=AS_OF_HELP)
def contract_check(as_of: str | None) -> None:
    """Check the graph/world contract; exits non-zero (error code contract_failed) on any violation."""
    run(lambda c: c.mem.contract_check(as_of=as_of))


@cli.group()
def agent() -> None:
    """Calls an agent makes around its answers."""


@agent.command("preflight")
@click.option("--prompt", required=True, help="The prompt the agent is about to answer ('-' reads stdin).")
@click.option("--as-of", "as_of", help=AS_OF_HELP)
@click.option("--budget", default=2500, show_default=True, type=int, help="Context budget in characters.")
@click.option("--max-items", default=8, show_default=True, type=int, help="At most this many pack items (1-100).")
@click.option("--surface-limit", default=0, show_default=True, type=int,
              help="Also surface this many thought cards for the prompt (Mneme's preflight: 5).")
@click.option("--hints", help=hints_help("that raise the items holding them, as `retrieve`'s"))
@click.option("--no-candidates", is_flag=True, help="Drop candidate edges from the pack.")
def agent_preflight(prompt: str, as_of: str | None, budget: int, max_items: int, surface_limit: int,
                    hints: str | None, no_candidates: bool) -> None:
    """Context pack, thoughts, state, predictions, contradictions, contract, rules (non-zero exit on contract fail)."""
    from ...app.vault.setup import chosen_hints  # retrieve's own fallback: the same prompt must rank the same

    from .files import text_or_stdin

    prompt = text_or_stdin(prompt, "the prompt with --prompt TEXT")  # '-' as `retrieve --prompt -` reads it
    run(lambda c: c.mem.agent_preflight(prompt, as_of=as_of, budget=budget, max_items=max_items,
                                        include_candidates=not no_candidates, hints=chosen_hints(c.cfg, hints),
                                        surface_limit=surface_limit))


@cli.group("eval")
def eval_() -> None:
    """Quality guards."""


@eval_.command("retrieval")
@click.option("--demo", is_flag=True, help="Score the built-in fictional demo on a temporary store.")
@click.option("--cases", "cases", help="JSON cases file (a list, or {cases, memories, now}).")
@click.option("-k", "k", default=3, show_default=True, type=int, help="hit@k counts a hit in the top k results.")
@click.option("--min-score", "min_score", type=float, help="Exit non-zero when the score is below this.")
def eval_retrieval(demo: bool, cases: str | None, k: int, min_score: float | None) -> None:
    """hit@k, MRR and forbidden-top-1 rate of the recall engine (scored), min-items and node-name rates
    (reported); deterministic."""
    def go(c: Ctx) -> Any:
        return c.mem.eval_retrieval(demo=demo, cases=None if cases is None else read_file(cases, "eval cases"), k=k,
                                    min_score=min_score)
    run(go)
