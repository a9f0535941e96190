-- Issue 26: the phones each attempt sent codes to, not only the last one, and kept while the
-- attempt is (they were purged a day after the last typed send, so a later "Reenviar código"
-- was charged to the attempt instead of its phone).
--
-- One row per attempt and phone (its keyed look-up hash): the number of rows of an attempt is
-- how many distinct phones it sent codes to ("Voltar" and a new phone in the cloud flow, the
-- download's restart); the latest `typed_at` is the phone a resend goes to. `typed_at` takes
-- the clock at the statement (the attempt's lock orders its commands; `now()` would be the
-- time each transaction began). Rows are deleted when the person is erased.
ALTER TABLE abuse_attempt_phones DROP CONSTRAINT abuse_attempt_phones_pkey;
ALTER TABLE abuse_attempt_phones ADD PRIMARY KEY (stream_id, phone_hash);
ALTER TABLE abuse_attempt_phones RENAME COLUMN updated_at TO typed_at;
ALTER TABLE abuse_attempt_phones ALTER COLUMN typed_at SET DEFAULT clock_timestamp();
