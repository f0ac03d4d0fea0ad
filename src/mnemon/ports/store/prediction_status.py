"""Migration m064: a prediction its research withdrew has the status `withdrawn`.

A re-run of research that no longer states a prediction closes it (`app/vault/withdrawals.py`). Before this step it
was closed `unverifiable` — the status of a check the evidence could not decide — with `withdrawn_by` in its
metadata, and `world_predictions.status` allowed no other value (a CHECK constraint). The step widens the constraint
and gives those rows, column and stored document alike, the status they mean; nothing else changes, nothing is
deleted. SQLite cannot alter a CHECK constraint: its table is copied once (world tables are small)."""
from __future__ import annotations

FIRST_PREDICTION_STATUSES = "'open', 'confirmed', 'missed', 'unverifiable'"  # (m010)
_STATUSES = f"{FIRST_PREDICTION_STATUSES}, 'withdrawn'"
_COLUMNS = ("id, status, sense_type, check_after, expires_at, subject_assertion_id, source_action_id, source_path,"
            " data, created_at, updated_at")


def predictions_table(name: str, statuses: str) -> str:
    """`world_predictions` (under `name`) with its indexes, its status one of `statuses`."""
    return f"""
        CREATE TABLE {name} (
            id TEXT PRIMARY KEY,
            status TEXT NOT NULL CHECK (status IN ({statuses})),
            sense_type TEXT NOT NULL,
            check_after TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            subject_assertion_id TEXT,
            source_action_id TEXT,
            source_path TEXT NOT NULL DEFAULT '',
            data TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE INDEX wp_status ON world_predictions(status, check_after);
        CREATE INDEX wp_assertion ON world_predictions(subject_assertion_id);
        CREATE INDEX wp_source ON world_predictions(source_path);
        """


_TABLE = predictions_table("world_predictions", _STATUSES)
WITHDRAWN_PREDICTIONS_MIGRATION = (
    "m064_withdrawn_predictions",
    f"""
    ALTER TABLE world_predictions RENAME TO world_predictions_m010;
    DROP INDEX wp_status;
    DROP INDEX wp_assertion;
    DROP INDEX wp_source;
    {_TABLE}
    INSERT INTO world_predictions ({_COLUMNS}) SELECT {_COLUMNS} FROM world_predictions_m010;
    DROP TABLE world_predictions_m010;
    UPDATE world_predictions SET status = 'withdrawn', data = json_set(data, '$.status', 'withdrawn')
        WHERE status = 'unverifiable' AND json_extract(data, '$.metadata.withdrawn_by') IS NOT NULL;
    """,
)

WITHDRAWN_PREDICTIONS_MIGRATION_POSTGRES = (
    WITHDRAWN_PREDICTIONS_MIGRATION[0],
    f"""
    ALTER TABLE world_predictions DROP CONSTRAINT IF EXISTS world_predictions_status_check;
    ALTER TABLE world_predictions ADD CONSTRAINT world_predictions_status_check CHECK (status IN ({_STATUSES}));
    UPDATE world_predictions SET status = 'withdrawn', data = jsonb_set(data::jsonb, '{{status}}', '"withdrawn"')::text
        WHERE status = 'unverifiable' AND (data::jsonb -> 'metadata' ->> 'withdrawn_by') IS NOT NULL;
    """,
)
