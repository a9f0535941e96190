-- Attempts as the HTTP API sees them: which browser started each one, the answers to
-- commands already handled (idempotency), and the upstream tokens kept out of events.

CREATE TABLE attempts (
    stream_id    text        PRIMARY KEY,
    flow         text        NOT NULL,
    -- SHA-256 of the browser's random session cookie; the cookie itself is never stored.
    session_hash bytea       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX attempts_session_idx ON attempts (session_hash);

CREATE TABLE attempt_commands (
    stream_id       text        NOT NULL REFERENCES attempts (stream_id) ON DELETE CASCADE,
    idempotency_key text        NOT NULL,
    response        jsonb       NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, idempotency_key)
);

-- Short-lived upstream tokens (custom tokens, id tokens, user tokens). Never in an event.
CREATE TABLE attempt_secrets (
    stream_id  text        NOT NULL,
    name       text        NOT NULL,
    value      text        NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (stream_id, name)
);
CREATE INDEX attempt_secrets_expiry_idx ON attempt_secrets (expires_at);
