-- Human-written test methods keep the class they live in: its source without its test methods
-- (header, attributes, fixtures, helpers); empty for test functions.
ALTER TABLE test_cases ADD COLUMN test_class TEXT NOT NULL DEFAULT '';
