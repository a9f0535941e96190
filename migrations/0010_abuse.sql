-- Abuse limits (issue 17): counts every replica shares, the phone each attempt sends codes to,
-- and spent proof-of-work challenges. Keys are keyed hashes (never a clear phone, e-mail or IP).

-- One row per counted action (a code sent, an attempt started, a partner log-in): a limit is
-- a count of rows of its rule and key in a sliding window. Rows older than the longest window
-- are deleted by the server's periodic purge.
CREATE TABLE abuse_hits (
    rule text NOT NULL,
    key bytea NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX abuse_hits_rule_key_at ON abuse_hits (rule, key, at);
CREATE INDEX abuse_hits_at ON abuse_hits (at);

-- The phone an attempt last sent a code to (its look-up hash), so "Reenviar código" counts
-- against the same phone as the first send without opening the sealed phone.
CREATE TABLE abuse_attempt_phones (
    stream_id text PRIMARY KEY,
    phone_hash bytea NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- Proof-of-work challenges already used once (by their signature), until they expire.
CREATE TABLE altcha_spent (
    signature text PRIMARY KEY,
    expires_at timestamptz NOT NULL
);
CREATE INDEX altcha_spent_expires_at ON altcha_spent (expires_at);
