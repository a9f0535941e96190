-- Support console staff (docs/support.md): accounts, server-side sessions and failed sign-ins.
-- A staff member's e-mail is personal data: the table keeps its vault subject (found through
-- the keyed look-up hash) and the sealed e-mail for listing, never the clear address.

CREATE TABLE staff (
    id            uuid        PRIMARY KEY,
    email_subject uuid        NOT NULL UNIQUE,
    -- {"$pii": ...} under the subject's key.
    email_sealed  jsonb       NOT NULL,
    role          text        NOT NULL CHECK (role IN ('support', 'analyst', 'admin')),
    -- Argon2id PHC string.
    password_hash text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    disabled_at   timestamptz
);

-- The cookie holds 32 random bytes; only their SHA-256 is kept. A session ends 30 minutes
-- after its last request or 8 hours after sign-in (checked on every read).
CREATE TABLE staff_sessions (
    token_hash   bytea       PRIMARY KEY,
    staff_id     uuid        NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
    csrf_token   text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX staff_sessions_staff_idx ON staff_sessions (staff_id);

-- Failed sign-ins, for the brute-force limit: keyed hash of the e-mail typed (never the clear
-- address, and whether or not it belongs to anyone) and the client's IP.
CREATE TABLE staff_sign_in_failures (
    id         bigserial   PRIMARY KEY,
    email_hash bytea       NOT NULL,
    ip         text        NOT NULL,
    failed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX staff_sign_in_failures_email_idx ON staff_sign_in_failures (email_hash, failed_at);
CREATE INDEX staff_sign_in_failures_ip_idx ON staff_sign_in_failures (ip, failed_at);

-- The staff trail of one attempt: staff events name the attempt they concern.
CREATE INDEX events_staff_attempt_idx ON events ((payload->>'attempt')) WHERE category = 'staff';

-- Look-up by licence (serial), which the activation flow keeps in clear.
CREATE INDEX events_licence_idx ON events ((payload->>'licence')) WHERE payload ? 'licence';
