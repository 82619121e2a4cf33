-- The refiner's answer to each review of the previous version (what it changed, where it
-- disagrees), stored with the refined version as a JSON list of {reviewer, changed, disagree}.
ALTER TABLE test_cases ADD COLUMN rebuttal TEXT NOT NULL DEFAULT '[]';
