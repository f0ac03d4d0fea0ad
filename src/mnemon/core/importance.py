"""Effective importance: decay with a 30-day half-life, boosted by access and by connections; immunity rules."""
from __future__ import annotations

import math
from datetime import datetime

from .model import parse_iso

HALF_LIFE_DAYS = 30.0
LINKS_COUNTED = 5  # links beyond this many add nothing: a store may count each memory's links only up to it
_BASE = {5: 1.0, 4: 0.8, 3: 0.5, 2: 0.3, 1: 0.15}


def effective_importance(
    importance: int, access_count: int, last_touched: str, edge_count: int, now: datetime
) -> float:
    """base(imp) × max(1, ln(1+access)) × 0.5^(days/30) × (1 + 0.1·min(edges, 5))."""
    days = max(0.0, (now - parse_iso(last_touched)).total_seconds() / 86400.0)
    base = _BASE.get(importance, 0.5)
    access = max(1.0, math.log1p(max(0, access_count)))
    decay = 0.5 ** (days / HALF_LIFE_DAYS)
    return base * access * decay * (1.0 + 0.1 * min(edge_count, LINKS_COUNTED))


def is_immune(importance: int, access_count: int) -> bool:
    return importance >= 4 or access_count >= 3
