-- 0010: a case's runs on the task's independent correct implementations (alternatives), as a
-- JSON list of {name, outcome, output}; a case passing on the oracle and failing there is
-- over-specified.
ALTER TABLE evidence ADD COLUMN alternatives TEXT;

-- A case that fails on an alternative is discarded as `over_specified`: the routes table's
-- CHECK on discard_reason takes the new value (SQLite rebuilds a table to change a CHECK).
CREATE TABLE routes_0010 (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id         TEXT NOT NULL,
    round           INTEGER NOT NULL,
    route           TEXT NOT NULL CHECK (route IN ('accepted', 'area_chair', 'refine', 'discarded')),
    reason          TEXT NOT NULL,
    discard_reason  TEXT CHECK (discard_reason IS NULL
        OR discard_reason IN ('low_quality', 'conflict', 'fails_on_oracle', 'invalid',
                              'over_specified')),
    mean            REAL,
    spread          INTEGER,
    created_at      TEXT NOT NULL,
    FOREIGN KEY (case_id, round) REFERENCES test_cases (case_id, round) ON DELETE CASCADE
);
INSERT INTO routes_0010 (id, case_id, round, route, reason, discard_reason, mean, spread,
                         created_at)
    SELECT id, case_id, round, route, reason, discard_reason, mean, spread, created_at
    FROM routes;
DROP TABLE routes;
ALTER TABLE routes_0010 RENAME TO routes;
CREATE INDEX routes_case ON routes (case_id, round, id);
