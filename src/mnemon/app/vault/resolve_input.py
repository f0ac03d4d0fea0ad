"""What `resolve` refuses of a payload an agent sends, beyond its shape (`resolve.validate_payload`): a claim's key
no rule reads, and texts over a scoped payload's limits. A pack already in the vault, replayed by ingest, is read
as it is."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.errors import InvalidInput
from ...core.world.values import refuse_unknown_keys

# every key a claim's edge, its gate or its belief reads (`claim_edges`, `claim_status`, `claim_beliefs.claim_proposal`)
CLAIM_KEYS = ("subject", "subject_type", "predicate", "object", "object_type", "confidence", "strength", "certainty",
              "source_type", "evidence", "status", "date", "valid_from", "valid_until", "metadata")


def refuse_unfit(data: Mapping[str, Any]) -> None:
    """`InvalidInput` for a claim key no rule reads, named with the closest known one, as a scoped payload's items
    refuse theirs (a misspelt "confidnce" was read as 0.5 and "sorce" as unsourced: the claim became a candidate with
    no word why), and for a text over its limit (`_refuse_long_texts`)."""
    for i, claim in enumerate(data["claims"]):
        try:
            refuse_unknown_keys(claim, CLAIM_KEYS, f"claims[{i}]")
        except InvalidInput as exc:  # the field as the claim holds it, as the other per-claim refusals name theirs
            raise InvalidInput(exc.message, **{**exc.details, "field": f"claims[{i}].{exc.details['field']}"}) from None
        _refuse_unknown_status(claim, i)
    _refuse_long_texts(data)


CLAIM_STATUSES = ("active", "candidate", "killed")


def _refuse_unknown_status(claim: Mapping[str, Any], i: int) -> None:
    """A status the claim asks for is one of `CLAIM_STATUSES`: a misspelt "actve" was read as no wish at all, and the
    claim became a candidate with no word why."""
    status = claim.get("status")
    if status is None or (isinstance(status, str) and status.strip().lower() in ("", *CLAIM_STATUSES)):
        return
    raise InvalidInput(f"claims[{i}].status: expected one of {', '.join(CLAIM_STATUSES)} (or none); got {status!r}",
                       field=f"claims[{i}].status", got=status, valid=list(CLAIM_STATUSES))


def _refuse_long_texts(data: Mapping[str, Any]) -> None:
    """A resolution's texts have a scoped payload's limits: a claim's 3 MB evidence was written whole into the pack (7
    MB of text and base64 in the vault, read at every ingest) and into its belief (`state explain` printed 3 MB)."""
    from .payload import MAX_PAYLOAD_NAME_CHARS as NAME, MAX_PAYLOAD_TEXT_CHARS as TEXT  # (payload imports resolve)

    fields = [("title", data["title"], NAME)]
    for i, claim in enumerate(data["claims"]):
        fields += [(f"claims[{i}].{key}", claim.get(key), NAME) for key in ("subject", "predicate", "object")]
        fields.append((f"claims[{i}].evidence", claim.get("evidence"), TEXT))
    for key in ("unresolved", "sources_checked"):
        fields += [(f"{key}[{i}]", text, TEXT) for i, text in enumerate(data.get(key) or [])]
    for where, value, limit in fields:
        if isinstance(value, str) and len(value) > limit:
            raise InvalidInput(f"the resolution payload's {where} is {len(value):,} characters; the limit is {limit:,}",
                               field=where, length=len(value), limit=limit)
