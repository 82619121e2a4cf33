-- 0009: which build process holds a running task (host:pid:process start), so a task whose
-- build was killed (Ctrl-C, SIGTERM, SIGKILL) shows as interrupted, not running forever.
ALTER TABLE tasks ADD COLUMN runner TEXT;
