-- Mutant kills are evidence for the reviewers: stored with each case version's evidence
-- (JSON of records.MutationEvidence, NULL when not run), and the per-round mutant statuses
-- (which mutants started, which did not) per task input. The post-loop report goes.
ALTER TABLE evidence ADD COLUMN mutation TEXT;
DROP TABLE mutation_reports;
CREATE TABLE mutation_rounds (
    task_id    TEXT NOT NULL,
    input_hash TEXT NOT NULL,
    round      INTEGER NOT NULL,
    report     TEXT NOT NULL,
    PRIMARY KEY (task_id, input_hash, round)
);
