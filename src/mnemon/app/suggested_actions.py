"""What a surfaced thought card suggests doing next (`suggested_actions`), each with a command that runs as given
and, where an operation of the MCP and HTTP servers does the same, that call (`call`: operation and arguments) for a
caller who can type no command.

A suggestion is only useful if it can be pasted: every `command` is an argv list (a note path or id with a space
stays one argument) that names the store the card came from (`--db`, the path the runtime opened) and, for a note
edit, the vault that store was ingested from (`--vault`, the root ingestion recorded). Without them a pasted command
hit the default store or failed with "no vault given". It starts with the program the user ran: `mnemon`, or
`mneme`, which reads each of these lines as mnemon does.

A PostgreSQL URL that holds a password is the exception: the store's path is that URL masked (`u:***@`), and a
`--db` with it could never connect. The commands then leave `--db` out and say in `store` that they reach the store
through the config or `MNEMON_DB` that opened it.
"""
from __future__ import annotations

import re
from typing import Any

from ..core.surface import needs_writes, program, writes_offered
from ..core.text import tokens
from ..core.vault.proactive import DEADLINE_WORDS, reads_open, task_of
from ..render.card_text import clip
from .runtime import Runtime

NEXT_ACTIONS_HEADING = "Next Actions"
BULLET_CHARS = 120  # a follow-up bullet's text, not counting its "Follow up: " lead
# a word, with a wikilink (spaces and all) kept whole: a bullet cut inside "[[Bram Okafor]]" breaks the link
_PIECE = re.compile(r"\[\[[^\]\n]*\]\]\S*|\S+")
_WIKILINK = re.compile(r"\[\[[^\]\n]*\]\]")
_CLAUSE_END = (";", ".", "!", "?")
_LATE = re.compile(r"\b(?:is|are|was|were|runs?|running) late\b|\bdelayed\b", re.I)  # chased as a deadline is
# the mark `ports.store.postgres.redact` leaves where a URL's password was (`u:***@`, `password=***`)
_MASKED_PASSWORD = re.compile(r"://[^:/@]*:\*\*\*@|password=\*\*\*")
_CONFIGURED_STORE = ("{db}: run the command where this store is configured (the same config file, MNEMON_DB or "
                     "--store), or add --db with the full URL: it holds a password, which is never printed")


def vault_root(rt: Runtime) -> str | None:
    """The vault configured for this process (`mnemon note add-bullet`'s default too), else the one the store was last
    ingested from (ingestion records its resolved root), or None. Configured first: on a store several checkouts of
    a vault share (a team on one PostgreSQL), the last ingest's folder is a teammate's, or not on this machine."""
    if rt.vault:
        return rt.vault
    vault = getattr(rt.store, "vault", None)
    root = vault.get_state("root") if vault is not None else None
    return str(root) if root else None


def follow_up_text(text: str, limit: int = BULLET_CHARS) -> str:
    """`text` on one line, at most about `limit` characters, shortened at the end of a clause when one ends far enough
    in, else after a whole word — never inside a word or a wikilink — with "…" marking what was left out."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    kept: list[str] = []
    size = 0
    clause_end = 0
    for piece in _PIECE.findall(flat):
        grown = size + len(piece) + (1 if kept else 0)
        if grown > limit - 1:  # room for the "…"
            break
        kept.append(piece)
        size = grown
        if piece.endswith(_CLAUSE_END):
            clause_end = len(kept)
    if clause_end and sum(map(len, kept[:clause_end])) >= limit // 3:
        kept = kept[:clause_end]
    out = " ".join(kept).rstrip(" ;,:—–-")
    if len(out) < limit // 2:
        # a run without spaces follows (a Japanese sentence, emoji, one long word): it is cut where a card cuts it,
        # between two of its ideographs or emoji, never inside a character — "Risk: <sentence>" gave "Risk…", and a
        # cut inside a family emoji wrote a broken character into the note — unless that cut falls in a wikilink
        cut = clip(flat, limit)
        end = len(cut) - 1
        if cut.endswith("…") and not any(m.start() < end < m.end() for m in _WIKILINK.finditer(flat)):
            return cut
    if not out:  # a wikilink longer than the limit: cutting it is all there is
        return clip(flat, limit)
    return out + (" …" if out.endswith((".", "!", "?")) else "…")


def suggested_actions(item: dict[str, Any], *, db: str | None = None, vault: str | None = None,
                      text: str | None = None) -> list[dict[str, Any]]:
    """Suggestions for a retrieval item (or a proactive candidate in the same shape). `db` and `vault` go into the
    commands; `text` is the item's text as the card reads it (a section's list markers dropped), for the bullet."""
    # A masked URL cannot connect and the real one must never be printed. An env-var reference (`--db
    # "$MNEMON_DB"`) was the other choice, but an argv list is run without a shell, and a store named in the config
    # file or by --store sets no such variable. Without --db, the same config or environment reaches the store; one
    # opened by a bare --db needs it again, which `store` says.
    masked = bool(db and _MASKED_PASSWORD.search(db))
    # the program the user ran (`mneme` runs these commands alike): a Mneme user pasted `mnemon …` lines
    store = [program(), *(["--db", db] if db and not masked else [])]
    src = str(item.get("source_path") or "")
    out: list[dict[str, Any]] = []
    if item.get("item_type") == "edge" and item.get("candidate_only"):
        edge = str(item.get("edge_id"))
        out.append({"type": "synapse_review", "action": "validate_or_kill", "edge_id": item.get("edge_id"),
                    "why": "a candidate edge is a lead, not a fact; validate it or kill it before relying on it",
                    "commands": {"validate": [*store, "validate-edge", edge], "kill": [*store, "kill-edge", edge]},
                    "calls": {"validate": _call("validate_edge", id=item.get("edge_id")),
                              "kill": _call("kill_edge", id=item.get("edge_id"))}})
    elif src.startswith("mneme://"):
        out.append({"type": "graph_memory_review", "action": "keep_or_forget", "source_path": src,
                    "command": [*store, "forget", "--source", src], "call": _call("forget_source", source_path=src)})
    elif item.get("item_type") == "memory" and item.get("note") and _to_chase(item, text):
        bullet = f"Follow up: {follow_up_text(text if text is not None else str(item.get('text') or ''))}"
        action: dict[str, Any] = {"type": "vault_append_bullet", "note": item["note"], "heading": NEXT_ACTIONS_HEADING,
                                  "bullet": bullet, "vault": vault}
        # without a known vault the command falls back on the configured one (`vault` / MNEMON_VAULT)
        # the note last, after `--`: a note named "-draft.md" read as an option and the pasted command failed
        action["command"] = [*store, "note", "add-bullet", *(["--vault", vault] if vault else []),
                             "--heading", NEXT_ACTIONS_HEADING, "--bullet", bullet, "--", str(item["note"])]
        if vault:  # the servers' tool edits the vault the store was ingested from, the one named here
            action["call"] = _call("note_add_bullet", path=str(item["note"]), heading=NEXT_ACTIONS_HEADING,
                                   bullet=bullet)
        out.append(action)
    if item.get("item_type") == "edge":
        inspect = [*store, "explain-edge", str(item.get("edge_id"))]
        call = _call("explain_edge", id=item.get("edge_id"))
    elif item.get("item_type") == "world_state":  # an assertion id is no memory: `show` answered not_found
        inspect = [*store, "state", "explain", str(item.get("id"))]
        call = _call("state_explain", id=str(item.get("id")))
    elif item.get("item_type") == "world_prediction":  # its outcome as a check would find it now, recording nothing
        inspect = [*store, "predict", "check", "--id", str(item.get("id")), "--dry-run"]
        call = _call("predict_check", id=str(item.get("id")), dry_run=True)
    else:
        inspect, call = [*store, "show", str(item.get("id"))], _call("show", id=str(item.get("id")))
    out.append({"type": "inspect", "id": item.get("id"), "command": inspect, "call": call})
    if masked:
        for action in out:
            action["store"] = _CONFIGURED_STORE.format(db=db)
    if not writes_offered():
        for action in out:
            _drop_write_calls(action)
    return out


def _to_chase(item: dict[str, Any], text: str | None) -> bool:
    """Whether a vault memory is something to follow up: an open loop (`reads_open`), a risk, a deadline, something
    late. A fact
    ("Gull Electronics — enclosure supplier, contact sales@…") or a rule got "Follow up: <the fact>" to add; a done
    item, or one a later note marks done, has nothing to follow up: it asked to chase what was finished."""
    kind = str(item.get("observation_kind") or "")
    if kind == "done" or item.get("closed_later_in"):
        return False
    said = text if text is not None else str(item.get("text") or "")
    return (reads_open(said, kind, task_of(str(item.get("kind") or ""), str(item.get("id") or ""))) or kind == "risk"
            or not DEADLINE_WORDS.isdisjoint(tokens(said)) or _LATE.search(said) is not None)


# the operations a card suggests that write (`interfaces/operations.py`; predict_check's dry run writes nothing, but
# a read-only server offers no predict_check)
_WRITING = frozenset({"validate_edge", "kill_edge", "forget_source", "note_add_bullet", "predict_check"})


def _drop_write_calls(action: dict[str, Any]) -> None:
    """On a read-only server, a suggestion's calls that write are taken out and `no_call` says why: its cards named
    `predict_check`, `validate_edge` … which the server did not list (MCP) or refused (HTTP)."""
    calls = action.pop("calls", None) or ({"call": action.pop("call")} if "call" in action else {})
    kept = {key: call for key, call in calls.items() if call["operation"] not in _WRITING}
    dropped = sorted({call["operation"] for key, call in calls.items() if key not in kept})
    if "call" in kept:
        action["call"] = kept["call"]
    elif kept:
        action["calls"] = kept
    if dropped:
        action["no_call"] = needs_writes(" and ".join(dropped))


def _call(operation: str, **arguments: Any) -> dict[str, Any]:
    """An MCP tool call or HTTP route (`interfaces/operations.py` names them) and its arguments."""
    return {"operation": operation, "arguments": arguments}


__all__ = ["NEXT_ACTIONS_HEADING", "follow_up_text", "suggested_actions", "vault_root"]
