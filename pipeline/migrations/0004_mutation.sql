-- Mutation report per task input: computed once, reused by a resumed or repeated build.
CREATE TABLE mutation_reports (
    task_id    TEXT NOT NULL,
    input_hash TEXT NOT NULL,
    report     TEXT NOT NULL,
    PRIMARY KEY (task_id, input_hash)
);
