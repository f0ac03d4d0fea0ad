"""SQLite schema as named, ordered migration steps. Each step runs in one transaction with its record."""
from __future__ import annotations

from .coded_edges_sqlite import coded_edges_migration
from .contained_sqlite import (EDGE_HEADS_MIGRATION_SQLITE, EDGE_IDS_MIGRATION, PACKED_METADATA_MIGRATION,
                               SOURCE_INDEX_MIGRATION, contained_edges_migration)
from .edge_rows import EDGE_BIRTH_MIGRATION, EDGE_EVIDENCE_MIGRATION, EDGE_ROW_DEFAULTS_MIGRATION, EDGE_VALUE_DDL, EDGES_ARM, SQLITE_EDGE_ROWS_MIGRATION
from .graph_sqlite import GRAPH_GENERATION_MIGRATION, GRAPH_TEXT_HASH_MIGRATION
from .prediction_status import FIRST_PREDICTION_STATUSES, WITHDRAWN_PREDICTIONS_MIGRATION, predictions_table
from .reply_steps import SQLITE_REPLY_STEPS_MIGRATION
from .sources import NOT_VAULT_ROW, OWNED_SOURCE
from .text_index_sqlite import CONTENTLESS_KEYWORDS_MIGRATION
from .vault_texts_sqlite import VAULT_TEXTS_MIGRATION
from .vectors_sqlite import VECTORS_PER_PROVIDER_MIGRATION
from .world_sqlite import WORLD_NFC_KEYS_MIGRATION, WORLD_PREDICATE_NAMES_MIGRATION

MIGRATIONS: list[tuple[str, str]] = [
    (
        "m001_graph",
        """
        CREATE TABLE nodes (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            kind TEXT NOT NULL DEFAULT 'memory',
            title TEXT,
            content TEXT NOT NULL DEFAULT '',
            content_hash TEXT NOT NULL DEFAULT '',
            category TEXT NOT NULL DEFAULT 'general',
            importance INTEGER NOT NULL DEFAULT 3,
            tags TEXT NOT NULL DEFAULT '[]',
            entities TEXT NOT NULL DEFAULT '[]',
            source TEXT NOT NULL DEFAULT 'user',
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            inserted_at TEXT NOT NULL DEFAULT '',
            last_accessed_at TEXT,
            access_count INTEGER NOT NULL DEFAULT 0,
            effective_importance REAL NOT NULL DEFAULT 0.5,
            deleted_at TEXT,
            metadata TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX nodes_active_hash ON nodes(content_hash) WHERE deleted_at IS NULL;
        CREATE INDEX nodes_kind_created ON nodes(kind, created_at) WHERE deleted_at IS NULL;
        CREATE INDEX nodes_source_created ON nodes(source, created_at) WHERE deleted_at IS NULL;
        CREATE INDEX nodes_prune ON nodes(effective_importance) WHERE deleted_at IS NULL AND kind = 'memory';

        CREATE TABLE node_entities (
            entity TEXT NOT NULL,
            node_seq INTEGER NOT NULL REFERENCES nodes(seq) ON DELETE CASCADE,
            created_at TEXT NOT NULL,
            PRIMARY KEY (entity, node_seq)
        ) WITHOUT ROWID;
        CREATE INDEX node_entities_recent ON node_entities(entity, created_at);
        CREATE INDEX node_entities_node ON node_entities(node_seq);

        -- rowid = nodes.seq; columns hold text already run through the shared tokenizer
        CREATE VIRTUAL TABLE memory_fts USING fts5(body, tags, entities, tokenize = 'unicode61 remove_diacritics 0');

        CREATE TABLE vectors (
            node_seq INTEGER PRIMARY KEY REFERENCES nodes(seq) ON DELETE CASCADE,
            provider TEXT NOT NULL,
            dim INTEGER NOT NULL,
            content_hash TEXT NOT NULL,
            vec BLOB NOT NULL,
            created_at TEXT NOT NULL
        );
        CREATE INDEX vectors_provider ON vectors(provider);

        CREATE TABLE edges (
            id INTEGER PRIMARY KEY,
            src TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
            dst TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
        """ + EDGE_VALUE_DDL + """
        );
        CREATE INDEX edges_dst ON edges(dst, status);

        CREATE TABLE edge_events (
            id INTEGER PRIMARY KEY,
            edge_id INTEGER NOT NULL,
            event TEXT NOT NULL,
            actor TEXT NOT NULL DEFAULT '',
            detail TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL
        );
        CREATE INDEX edge_events_edge ON edge_events(edge_id);

        CREATE TABLE oplog (
            id INTEGER PRIMARY KEY,
            op TEXT NOT NULL,
            node_id TEXT,
            detail TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL
        );
        CREATE INDEX oplog_node ON oplog(node_id);

        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta(key, value) VALUES ('active_memories', '0'), ('vector_generation', '0');

        -- the active-memory count is read on every remember (auto-prune); keep it O(1)
        CREATE TRIGGER nodes_count_ins AFTER INSERT ON nodes
            WHEN NEW.kind = 'memory' AND NEW.deleted_at IS NULL
            BEGIN UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'active_memories'; END;
        CREATE TRIGGER nodes_count_del AFTER UPDATE OF deleted_at ON nodes
            WHEN NEW.kind = 'memory' AND OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL
            BEGIN UPDATE meta SET value = CAST(value AS INTEGER) - 1 WHERE key = 'active_memories'; END;
        CREATE TRIGGER nodes_count_undel AFTER UPDATE OF deleted_at ON nodes
            WHEN NEW.kind = 'memory' AND OLD.deleted_at IS NOT NULL AND NEW.deleted_at IS NULL
            BEGIN UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'active_memories'; END;
        CREATE TRIGGER nodes_count_hard_del AFTER DELETE ON nodes
            WHEN OLD.kind = 'memory' AND OLD.deleted_at IS NULL
            BEGIN UPDATE meta SET value = CAST(value AS INTEGER) - 1 WHERE key = 'active_memories'; END;
        """,
    ),
    (
        "m002_fts_vocab",
        """
        -- document frequencies for IDF-weighted keyword signals, read straight from the FTS index
        CREATE VIRTUAL TABLE memory_fts_vocab USING fts5vocab(memory_fts, 'row');
        """,
    ),
    (
        "m010_world",
        """
        -- The world model: durable rows that no vault rebuild touches. Each table keeps its full domain row as
        -- JSON (`data`, the core's to_row()) plus the few columns the store filters and orders on.
        CREATE TABLE world_state_assertions (
            id TEXT PRIMARY KEY,
            subject_norm TEXT NOT NULL,
            predicate TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('current', 'superseded', 'retracted')),
            state_type TEXT NOT NULL DEFAULT 'belief',
            source_path TEXT NOT NULL DEFAULT '',
            source_edge_id TEXT,
            valid_until TEXT,
            data TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE INDEX wsa_pair ON world_state_assertions(subject_norm, predicate, status);
        CREATE INDEX wsa_status ON world_state_assertions(status, state_type);
        CREATE INDEX wsa_source ON world_state_assertions(source_path);

        """ + predictions_table("world_predictions", FIRST_PREDICTION_STATUSES) + """

        CREATE TABLE sense_events (
            id TEXT PRIMARY KEY,
            sense_type TEXT NOT NULL,
            source_id TEXT NOT NULL DEFAULT '',
            origin TEXT NOT NULL,
            observed_at TEXT NOT NULL,
            source_path TEXT NOT NULL DEFAULT '',
            data TEXT NOT NULL,
            recorded_at TEXT NOT NULL
        );
        CREATE INDEX se_type_time ON sense_events(sense_type, observed_at);
        CREATE INDEX se_source ON sense_events(source_path);

        CREATE TABLE world_actions (
            id TEXT PRIMARY KEY,
            actor TEXT NOT NULL,
            status TEXT NOT NULL,
            source_path TEXT NOT NULL DEFAULT '',
            data TEXT NOT NULL,
            created_at TEXT NOT NULL,
            recorded_at TEXT NOT NULL
        );
        CREATE INDEX wa_actor ON world_actions(actor, created_at);
        CREATE INDEX wa_source ON world_actions(source_path);

        CREATE TABLE entity_aliases (
            alias_norm TEXT PRIMARY KEY,
            alias_name TEXT NOT NULL,
            canonical_name TEXT NOT NULL,
            canonical_norm TEXT NOT NULL,
            source TEXT NOT NULL DEFAULT 'manual',
            confidence REAL NOT NULL DEFAULT 1.0,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL
        );
        CREATE INDEX ea_canonical ON entity_aliases(canonical_norm);

        -- append-only audit of every world-model write (the oplog's counterpart for durable state)
        CREATE TABLE world_events (
            id INTEGER PRIMARY KEY,
            event TEXT NOT NULL,
            target TEXT NOT NULL,
            target_id TEXT NOT NULL,
            detail TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL
        );
        CREATE INDEX we_target ON world_events(target, target_id);
        """,
    ),
    (
        "m020_vault",
        """
        -- Vault ingestion bookkeeping: one row per ingested Markdown file, so a re-ingest re-parses only files whose
        -- content hash changed; title/aliases let links in unchanged notes be re-resolved without re-parsing.
        CREATE TABLE vault_files (
            path TEXT PRIMARY KEY,
            content_hash TEXT NOT NULL,
            mtime REAL NOT NULL DEFAULT 0,
            size INTEGER NOT NULL DEFAULT 0,
            note_id TEXT NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            aliases TEXT NOT NULL DEFAULT '[]',
            ingested_at TEXT NOT NULL
        );
        CREATE TABLE vault_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        -- the relationship ontology, seeded from mnemon.core.ontology on every ingest (explain-edge reads it)
        CREATE TABLE relationship_types (
            name TEXT PRIMARY KEY,
            category TEXT NOT NULL,
            inverse TEXT,
            requires_validation INTEGER NOT NULL DEFAULT 1,
            graph TEXT,
            symmetric INTEGER NOT NULL DEFAULT 0,
            transitive INTEGER NOT NULL DEFAULT 0,
            domain TEXT NOT NULL DEFAULT 'any',
            range TEXT NOT NULL DEFAULT 'any',
            description TEXT NOT NULL DEFAULT ''
        );
        """,
    ),
    (
        "m021_vault_file_observations",
        """
        -- observation and task memories each file contributed, so ingest reports the total without scanning the
        -- node ids (26 ms of a 75 ms one-note re-ingest); filled as notes are (re)planned
        ALTER TABLE vault_files ADD COLUMN observations INTEGER NOT NULL DEFAULT 0;
        """,
    ),
    GRAPH_GENERATION_MIGRATION,  # kept in graph_sqlite.py beside the reads it serves
    SQLITE_EDGE_ROWS_MIGRATION,  # edges keyed by node seq (edge_rows.py)
    SQLITE_REPLY_STEPS_MIGRATION,  # the backbone step out of a question is a reply step (reply_steps.py)
    (
        "m042_prune_age",
        """
        -- auto-prune asks first whether any memory is past its grace period: without this, a store imported today
        -- walked all of nodes_prune on every write (230 ms at 100k) to find none
        CREATE INDEX nodes_prune_age ON nodes(inserted_at) WHERE deleted_at IS NULL AND kind = 'memory';
        """,
    ),
    (
        "m043_edge_counts",
        """
        -- edge rows per (type, status), so `status` does not count 5 M rows (7.5 s at 100k memories): updates and
        -- deletes are counted by these triggers (cascades included), inserts by the store's insert statements
        -- (`SQLiteStore._count_new_edges`: a trigger on every insert would slow bulk writes)
        CREATE TABLE edge_counts (
            type TEXT NOT NULL,
            status TEXT NOT NULL,
            n INTEGER NOT NULL,
            PRIMARY KEY (type, status)
        ) WITHOUT ROWID;
        INSERT INTO edge_counts(type, status, n) SELECT type, status, COUNT(*) FROM edge_rows GROUP BY type, status;
        CREATE TRIGGER edge_counts_del AFTER DELETE ON edge_rows
            BEGIN UPDATE edge_counts SET n = n - 1 WHERE type = OLD.type AND status = OLD.status; END;
        CREATE TRIGGER edge_counts_upd AFTER UPDATE OF type, status ON edge_rows
            WHEN OLD.type IS NOT NEW.type OR OLD.status IS NOT NEW.status
            BEGIN
                UPDATE edge_counts SET n = n - 1 WHERE type = OLD.type AND status = OLD.status;
                INSERT INTO edge_counts(type, status, n) VALUES (NEW.type, NEW.status, 1)
                    ON CONFLICT(type, status) DO UPDATE SET n = n + 1;
            END;
        """,
    ),
    CONTENTLESS_KEYWORDS_MIGRATION,  # beside the keyword index upkeep it relies on (text_index_sqlite.py)
    (
        "m045_owned_hash",
        f"""
        -- exact-repeat detection stands an existing memory in for a new one only when that memory lives until it
        -- is forgotten: a vault row goes with its note's next rebuild, a payload row with `forget --source`, and a
        -- `remember` skipped as their repeat went with them. Those rows leave the index (in a vault store, most rows)
        DROP INDEX nodes_active_hash;
        CREATE INDEX nodes_active_hash ON nodes(content_hash) WHERE deleted_at IS NULL AND {OWNED_SOURCE};
        """,
    ),
    (
        "m046_timed_created",
        f"""
        -- a remember's time neighbours (temporal proximity) are memories with a time of their own: right after a
        -- vault ingest, tens of thousands of rows dated "now" would otherwise be walked (2.2 s at 2,000 notes) to
        -- find the few that are not the vault's
        CREATE INDEX nodes_timed_created ON nodes(kind, created_at) WHERE deleted_at IS NULL AND {NOT_VAULT_ROW};
        """,
    ),
    (
        "m047_prune_skips_vault",
        f"""
        -- auto-prune soft-deleted the lowest-importance memories over the cap, and a vault's sections and bullets
        -- are most of a vault store's memories: every remember took ten of them, and an unchanged note is never
        -- re-read to bring them back. Prune now counts and takes only rows that are not the vault's, and its
        -- indexes hold only those (a vault store also loses most of them)
        DROP INDEX nodes_prune;
        CREATE INDEX nodes_prune ON nodes(effective_importance)
            WHERE deleted_at IS NULL AND kind = 'memory' AND {NOT_VAULT_ROW};
        DROP INDEX nodes_prune_age;
        CREATE INDEX nodes_prune_age ON nodes(inserted_at) WHERE deleted_at IS NULL AND kind = 'memory' AND {NOT_VAULT_ROW};
        """,
    ),
    (
        "m048_proactive_score",
        """
        -- a vault bullet's static proactive score (core/vault/proactive.py), NULL on every other row: `surface`,
        -- `thought` and `candidates` read bullets best-first through this index instead of scoring every one
        ALTER TABLE nodes ADD COLUMN proactive REAL;
        CREATE INDEX nodes_proactive ON nodes(proactive, seq) WHERE proactive IS NOT NULL AND deleted_at IS NULL;
        """,
    ),
    (
        "m049_vault_link_keys",
        """
        -- every link's lookup key per note, newline-separated (links no edge holds too: a second spelling, a link to
        -- the note itself): when a note claims or gives up a name, the notes linking by that name are planned again
        ALTER TABLE vault_files ADD COLUMN link_keys TEXT NOT NULL DEFAULT '';
        """,
    ),
    VAULT_TEXTS_MIGRATION,  # vault memory texts once per note, compressed (vault_texts_sqlite.py)
    GRAPH_TEXT_HASH_MIGRATION,  # ...so a packed row's text change moves the recall graph (graph_sqlite.py)
    EDGE_ROW_DEFAULTS_MIGRATION,  # an edge row's repeated timestamp and ingest path left out (edge_rows.py)
    EDGE_EVIDENCE_MIGRATION,  # an ingested edge's evidence in its note's blob (edge_rows.py)
    EDGE_BIRTH_MIGRATION,  # ...and its creation time when it is its source node's (edge_rows.py)
    contained_edges_migration(EDGES_ARM),  # a note's containment edges read from its items, not stored (contained_sqlite.py)
    EDGE_HEADS_MIGRATION_SQLITE,  # ...and a view of the edges' ends alone, for walks (contained_sqlite.py)
    PACKED_METADATA_MIGRATION,  # a vault memory's metadata in its note's blob (vault_texts_sqlite.py)
    SOURCE_INDEX_MIGRATION,  # the source index without vault rows, a note's items by id range (contained_sqlite.py)
    (
        "m059_deleted_nodes",
        """
        -- the soft-deleted rows alone (few, in any store): `status` counted deleted memories by reading every row
        CREATE INDEX nodes_deleted ON nodes(kind) WHERE deleted_at IS NOT NULL;
        """,
    ),
    WORLD_NFC_KEYS_MIGRATION,  # world rows keyed before keys were NFC: marked for the world layer (world_sqlite.py)
    VECTORS_PER_PROVIDER_MIGRATION,  # a vector per node and provider identity (vectors_sqlite.py)
    EDGE_IDS_MIGRATION,  # an edge id is never handed out twice (contained_sqlite.py)
    WITHDRAWN_PREDICTIONS_MIGRATION,  # a prediction its research withdrew reads withdrawn (prediction_status.py)
    WORLD_PREDICATE_NAMES_MIGRATION,  # predicates spelt as relation names: marked for the world layer (world_sqlite.py)
    coded_edges_migration(EDGES_ARM),  # an ingested edge as a narrow coded row (coded_edges_sqlite.py)
]

# steps that copy a whole table: the store is compacted once after applying them (SQLiteStore._compact)
REWRITING_MIGRATIONS = frozenset({SQLITE_EDGE_ROWS_MIGRATION[0], CONTENTLESS_KEYWORDS_MIGRATION[0],
                                  VECTORS_PER_PROVIDER_MIGRATION[0]})
