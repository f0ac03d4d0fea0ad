"""`m041_reply_steps`: stores written before reply steps existed get them, on SQLite and PostgreSQL.

Since this step, the forward backbone edge out of a memory that ends with a question, to what its source wrote next
within 24 hours, has the sub-type `reply` (`core.graph_rules.backbone_pair`), and recall hands the question's
relevance on over it whole. The step marks the same edges in an existing store, so a store's graph does not depend
on when its memories were written. Only the sub-type and rule change: the edge keeps its id, weight and history.
"""
from __future__ import annotations

_MARK = """
    UPDATE edge_rows SET sub_type = 'reply', rule = 'temporal:reply'
    WHERE type = 'temporal' AND sub_type = 'backbone' AND metadata LIKE '%"direction": "precedes"%'
      AND EXISTS (SELECT 1 FROM nodes a JOIN nodes b ON b.seq = edge_rows.dst
                  WHERE a.seq = edge_rows.src AND {question} AND {within_a_day});
"""

# the same whitespace Python's str.rstrip() takes off the end of a memory, as far as memories carry it
_SQLITE_TRIMMED = "rtrim(a.content, char(9, 10, 11, 12, 13, 32, 160, 12288))"
SQLITE_REPLY_STEPS_MIGRATION = (
    "m041_reply_steps",
    _MARK.format(
        question=f"(substr({_SQLITE_TRIMMED}, -1) IN ('?', '？'))",
        within_a_day="julianday(b.created_at) - julianday(a.created_at) BETWEEN 0 AND 1",
    ),
)
POSTGRES_REPLY_STEPS_MIGRATION = (
    "m041_reply_steps",
    _MARK.format(
        question="right(regexp_replace(a.content, '[[:space:]\u00a0\u3000]+$', ''), 1) IN ('?', '？')",
        # CASE fixes the order: a timestamp that is not ISO 8601 (never written by mnemon) is skipped, not cast
        within_a_day="CASE WHEN a.created_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}'"
                     " AND b.created_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}'"
                     " THEN b.created_at::timestamptz - a.created_at::timestamptz"
                     " BETWEEN interval '0' AND interval '24 hours' ELSE false END",
    ),
)
