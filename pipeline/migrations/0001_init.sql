-- 0001: the build loop's state. Applied once inside a transaction by pipeline/store.py,
-- which records it in schema_migrations. Never edit an applied migration: add 0002_*.sql.

-- One row per input task. `input_hash` is the hash of README + oracle + task.toml the
-- derived rows were built from; a change means the task is reset and rebuilt.
CREATE TABLE tasks (
    id          TEXT PRIMARY KEY,
    input_hash  TEXT,
    split       TEXT CHECK (split IS NULL OR split IN ('verified', 'train', 'auto')),
    state       TEXT NOT NULL DEFAULT 'pending',
    error       TEXT,                      -- why the task failed, shown by `status`
    spec        TEXT,                      -- records.Spec as JSON
    difficulty  TEXT,                      -- records.Difficulty as JSON
    updated_at  TEXT NOT NULL
);

-- One row per version of a test case; a refine writes the next round.
CREATE TABLE test_cases (
    case_id    TEXT NOT NULL,
    task_id    TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    round      INTEGER NOT NULL CHECK (round >= 0),
    category   TEXT NOT NULL
        CHECK (category IN ('api_compliance', 'error_handling', 'edge_case', 'integration')),
    name       TEXT NOT NULL,
    code       TEXT NOT NULL,
    endpoints  TEXT NOT NULL DEFAULT '[]',  -- JSON list of "METHOD /path"
    origin     TEXT NOT NULL CHECK (origin IN ('generated', 'existing', 'refined')),
    author     TEXT NOT NULL,
    PRIMARY KEY (case_id, round)
);
CREATE INDEX test_cases_task ON test_cases (task_id, round);

-- What running one case version on the oracle showed.
CREATE TABLE evidence (
    case_id   TEXT NOT NULL,
    round     INTEGER NOT NULL,
    runs      TEXT NOT NULL,               -- JSON list of records.RunResult
    requests  TEXT NOT NULL DEFAULT '[]',  -- JSON list of "METHOD /path"
    PRIMARY KEY (case_id, round),
    FOREIGN KEY (case_id, round) REFERENCES test_cases (case_id, round) ON DELETE CASCADE
);

-- One review per reviewer per case version; scores NULL means the reviewer failed (see error).
CREATE TABLE reviews (
    case_id      TEXT NOT NULL,
    round        INTEGER NOT NULL,
    reviewer     TEXT NOT NULL,
    scores       TEXT,                     -- records.Scores as JSON, or NULL
    rationale    TEXT NOT NULL DEFAULT '',
    rubric_hash  TEXT NOT NULL,
    error        TEXT,
    PRIMARY KEY (case_id, round, reviewer),
    FOREIGN KEY (case_id, round) REFERENCES test_cases (case_id, round) ON DELETE CASCADE
);

-- Every routing transition, in the order it was made (id), with its reason.
CREATE TABLE routes (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id         TEXT NOT NULL,
    round           INTEGER NOT NULL,
    route           TEXT NOT NULL CHECK (route IN ('accepted', 'area_chair', 'refine', 'discarded')),
    reason          TEXT NOT NULL,
    discard_reason  TEXT CHECK (discard_reason IS NULL
        OR discard_reason IN ('low_quality', 'conflict', 'fails_on_oracle', 'invalid')),
    mean            REAL,
    spread          INTEGER,
    created_at      TEXT NOT NULL,
    FOREIGN KEY (case_id, round) REFERENCES test_cases (case_id, round) ON DELETE CASCADE
);
CREATE INDEX routes_case ON routes (case_id, round, id);

-- Completion markers for resume (datatrove style): a stage is done for a task and round
-- only if it finished with the same input hash.
CREATE TABLE stage_markers (
    task_id     TEXT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    stage       TEXT NOT NULL,
    round       INTEGER NOT NULL,
    input_hash  TEXT NOT NULL,
    done        INTEGER NOT NULL DEFAULT 1 CHECK (done IN (0, 1)),
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (task_id, stage, round)
);

-- Ledger of every model call (filled by pipeline/llm/client.py, next issue). Not task-derived:
-- resetting a task keeps it, because money spent stays spent.
CREATE TABLE llm_calls (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at     TEXT NOT NULL,
    provider       TEXT NOT NULL,
    model          TEXT NOT NULL,
    stage          TEXT NOT NULL,
    task_id        TEXT,
    case_id        TEXT,
    tokens_in      INTEGER NOT NULL DEFAULT 0,
    tokens_out     INTEGER NOT NULL DEFAULT 0,
    tokens_cached  INTEGER NOT NULL DEFAULT 0,
    cost           REAL NOT NULL DEFAULT 0,
    latency_ms     INTEGER NOT NULL DEFAULT 0,
    outcome        TEXT NOT NULL,
    cache_key      TEXT
);
CREATE INDEX llm_calls_cache_key ON llm_calls (cache_key);

-- Area Chair decisions are human work: append-only, never tied by a foreign key to the
-- derived rows (a task reset must not cascade into them), never updated or deleted.
CREATE TABLE area_chair_decisions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id       TEXT NOT NULL,
    round         INTEGER NOT NULL,
    decision      TEXT NOT NULL,
    scores        TEXT,                    -- records.Scores as JSON, or NULL
    note          TEXT NOT NULL DEFAULT '',
    chair         TEXT NOT NULL,
    submitted_at  TEXT NOT NULL
);
CREATE INDEX area_chair_decisions_case ON area_chair_decisions (case_id, round, id);

CREATE TRIGGER area_chair_decisions_no_update BEFORE UPDATE ON area_chair_decisions
BEGIN
    SELECT RAISE(ABORT, 'area_chair_decisions is append-only: UPDATE refused');
END;

CREATE TRIGGER area_chair_decisions_no_delete BEFORE DELETE ON area_chair_decisions
BEGIN
    SELECT RAISE(ABORT, 'area_chair_decisions is append-only: DELETE refused');
END;
