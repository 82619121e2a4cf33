-- 0007: Area Chair review sessions. A decision names the exact case version it was made on
-- (task, test-code hash, task input hash) and the state the case was in; decisions stay
-- append-only (0001's triggers still refuse UPDATE and DELETE; ADD COLUMN is not an UPDATE).
ALTER TABLE area_chair_decisions ADD COLUMN task_id TEXT;
ALTER TABLE area_chair_decisions ADD COLUMN code_hash TEXT;
ALTER TABLE area_chair_decisions ADD COLUMN input_hash TEXT;
ALTER TABLE area_chair_decisions ADD COLUMN state_before TEXT;
ALTER TABLE area_chair_decisions ADD COLUMN opened_at TEXT;  -- when the chair opened the case

-- What a chair judged a test against: the hash of the task's own files (README, oracle,
-- task.toml, tests/), without the pipeline version the build hash also covers, so upgrading
-- the pipeline does not make every human decision stale while editing the README does.
ALTER TABLE tasks ADD COLUMN content_hash TEXT;

-- Chairs who may log in to `chair serve`: only a hash of their one-time token is kept.
CREATE TABLE chair_users (
    name        TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL,
    created_at  TEXT NOT NULL
);

-- Who is looking at a case right now: a lease that expires, so two chairs do not work on one
-- case. Working state, not human work: replaced and released freely.
CREATE TABLE chair_claims (
    case_id     TEXT PRIMARY KEY,
    chair       TEXT NOT NULL,
    claimed_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL
);

-- Decision values are an enum (pipeline.chair.core.Verdict), enforced for every new row.
CREATE TRIGGER area_chair_decisions_enum BEFORE INSERT ON area_chair_decisions
WHEN NEW.decision NOT IN ('accept', 'reject', 'refine')
BEGIN
    SELECT RAISE(ABORT, 'area_chair_decisions.decision must be accept, reject or refine');
END;
