"""Recall's `source` filter: a source no memory has is said, not answered as an ordinary sparse result.

A category is one of a closed set, so an unknown one is refused; a source is any name a writer chose (`user`, an
agent's, `vault:<note>`, `mneme://<scope>`), so one nobody wrote is not an error — but an empty list with the
`sparse_results` hint read as "few memories match", when the filter could never match anything (a typo, or another
agent's name)."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .runtime import Runtime

SUGGESTIONS = 3


def warn_on_unknown_source(rt: Runtime, source: str | None, kinds: Sequence[str] = ("memory",)) -> None:
    """Add a warning naming `source` when no live memory has it, with the nearest sources that some memory has."""
    if not source:
        return
    snap = rt.graph.snapshot()
    live = ~snap.deleted & np.isin(snap.kind, [snap.code_of("kinds", k) for k in kinds])
    code = snap.code_of("sources", source)
    if code >= 0 and bool((live & (snap.source == code)).any()):
        return
    import difflib  # (only when warning: a recall's start-up imports stay what recall uses)

    held = [snap.sources[c] for c in np.unique(snap.source[live]).tolist()]
    near = difflib.get_close_matches(source, held, n=SUGGESTIONS)
    rt.warnings.append(f"no memory has source {source!r}: the filter matches nothing"
                       + (f" (did you mean {', '.join(repr(n) for n in near)}?)" if near else ""))
