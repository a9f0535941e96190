-- Idempotency keys of visitors' commands (docs/attempts.md, "Idempotency-Key"):
-- fingerprint: SHA-256 of the command's JSON, so the same key with another command is refused
--   (422) instead of answered with the first command's reply. NULL on rows written before it.
-- The created_at index serves the purge of keys older than a day.
ALTER TABLE attempt_commands ADD COLUMN fingerprint bytea;
CREATE INDEX attempt_commands_created_idx ON attempt_commands (created_at);
