"""SQLite schema as named, ordered migration steps. Each step runs in one transaction with its record."""
from __future__ import annotations

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
        CREATE INDEX nodes_deleted ON nodes(deleted_at);

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
            type TEXT NOT NULL,
            sub_type TEXT NOT NULL DEFAULT '',
            weight REAL NOT NULL DEFAULT 1.0,
            confidence REAL NOT NULL DEFAULT 1.0,
            status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'candidate', 'killed', 'retired')),
            evidence TEXT NOT NULL DEFAULT '',
            origin TEXT NOT NULL DEFAULT 'auto',
            rule TEXT NOT NULL DEFAULT '',
            source_path TEXT NOT NULL DEFAULT '',
            metadata TEXT NOT NULL DEFAULT '{}',
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            UNIQUE (src, dst, type)
        );
        CREATE INDEX edges_dst ON edges(dst, status);
        CREATE INDEX edges_src_status ON edges(src, status);

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
]
