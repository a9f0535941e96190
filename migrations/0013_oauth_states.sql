-- The broadband partner's OAuth `state` values (issue 16, item 5): one row per authorization
-- request the portal prepared. The return is accepted only once, before `expires_at`, by an
-- attempt of the same browser session as the attempt that prepared it (`stream_id`). The PKCE
-- verifier rests sealed, bound to that attempt. `state_hash` is SHA-256 of the state: the state
-- itself is random, and the table never holds a value a forged return could replay.
CREATE TABLE oauth_states (
    state_hash   bytea       PRIMARY KEY,
    stream_id    text        NOT NULL REFERENCES attempts (stream_id) ON DELETE CASCADE,
    redirect_uri text        NOT NULL,
    verifier     text        NOT NULL,
    expires_at   timestamptz NOT NULL,
    -- The attempt that came back with this state; a retry of its own look-up finds it again.
    consumed_by  text
);
CREATE INDEX oauth_states_expiry_idx ON oauth_states (expires_at);
