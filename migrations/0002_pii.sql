-- Personal data vault for crypto-shredding (see docs/event-store.md, "Personal data").
-- Events carry only ciphertext; the per-person key lives here, wrapped with the master
-- key. Deleting a subject's row makes every ciphertext of that person unreadable.

CREATE TABLE pii_subjects (
    subject_id  uuid        PRIMARY KEY,
    -- nonce (24 bytes) || XChaCha20-Poly1305(KEK, data key)
    wrapped_key bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Keyed HMAC-SHA256 of (kind, normalized value) -> subject: finds the person from a
-- phone/CPF/e-mail without storing it, and without a guessable plain hash.
CREATE TABLE pii_lookup (
    kind       text  NOT NULL CHECK (kind IN ('phone', 'cpf_cnpj', 'email')),
    hmac       bytea NOT NULL,
    subject_id uuid  NOT NULL REFERENCES pii_subjects (subject_id) ON DELETE CASCADE,
    PRIMARY KEY (kind, hmac)
);
CREATE INDEX pii_lookup_subject_idx ON pii_lookup (subject_id);

-- Which streams mention a subject, for support look-ups.
CREATE TABLE pii_stream_links (
    subject_id uuid        NOT NULL REFERENCES pii_subjects (subject_id) ON DELETE CASCADE,
    stream_id  text        NOT NULL,
    linked_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (subject_id, stream_id)
);
