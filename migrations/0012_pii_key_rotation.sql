-- Master key rotation (docs/security.md): which master key wrapped each data key, by its
-- public fingerprint (`Keys::kek_id`). NULL for keys wrapped before fingerprints were kept; the
-- rotation command wraps again every row not under the current key.
ALTER TABLE pii_subjects ADD COLUMN kek_id text;
CREATE INDEX pii_subjects_kek_id ON pii_subjects (kek_id);
