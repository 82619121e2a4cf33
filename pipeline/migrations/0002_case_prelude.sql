-- Human-written tests keep their module's imports/helpers and the module they came from.
ALTER TABLE test_cases ADD COLUMN prelude TEXT NOT NULL DEFAULT '';
ALTER TABLE test_cases ADD COLUMN module TEXT;
