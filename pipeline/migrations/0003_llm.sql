-- 0003: LLM provider state (pipeline/llm): the durable response cache, batch jobs, and two
-- more ledger columns. Never edit once applied: add 0004_*.sql.

-- Content-addressed responses: key = sha256 of provider, model, messages, output schema and
-- the sampling settings that change the output (temperature, max_tokens). Not task-derived:
-- a task reset keeps it, so a rebuild with unchanged prompts costs no calls.
CREATE TABLE llm_cache (
    cache_key   TEXT PRIMARY KEY,
    provider    TEXT NOT NULL,
    model       TEXT NOT NULL,
    response    TEXT NOT NULL,             -- base.LLMResponse as JSON
    created_at  TEXT NOT NULL
);

-- One provider batch job; stored the moment it is submitted so a restarted build polls it
-- instead of submitting the same requests again.
CREATE TABLE llm_batches (
    batch_id      TEXT NOT NULL,
    provider      TEXT NOT NULL,
    model         TEXT NOT NULL,
    round_hash    TEXT NOT NULL,           -- content hash of the round's requests
    state         TEXT NOT NULL DEFAULT 'running',
    submitted_at  TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (provider, batch_id)
);
CREATE INDEX llm_batches_round ON llm_batches (round_hash);

-- Which request (by cache key) went out in which batch, under which custom id.
CREATE TABLE llm_batch_items (
    provider   TEXT NOT NULL,
    batch_id   TEXT NOT NULL,
    custom_id  TEXT NOT NULL,
    cache_key  TEXT NOT NULL,
    PRIMARY KEY (provider, batch_id, custom_id),
    FOREIGN KEY (provider, batch_id) REFERENCES llm_batches (provider, batch_id)
        ON DELETE CASCADE
);
CREATE INDEX llm_batch_items_key ON llm_batch_items (cache_key);

ALTER TABLE llm_calls ADD COLUMN error TEXT;     -- why the call failed (keys redacted)
ALTER TABLE llm_calls ADD COLUMN batch_id TEXT;  -- set for results that came from a batch
