-- Sealed fields in attempt events name the person's link to that stream, not the person:
-- a different id per stream, deleted with the person's key on erasure (ON DELETE CASCADE
-- from pii_subjects), so nothing left in the events ties an erased person's attempts
-- together. Fields written before this migration name the subject and still open.
ALTER TABLE pii_stream_links ADD COLUMN link_id uuid NOT NULL DEFAULT gen_random_uuid();
CREATE UNIQUE INDEX pii_stream_links_link_id_idx ON pii_stream_links (link_id);
