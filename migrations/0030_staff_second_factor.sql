-- Issue 26: two-factor sign-in for staff (docs/security.md). The TOTP secret (RFC 6238) is
-- sealed with the attempts' SecretBox under the master key, bound to the member's stream and
-- the name "totp"; the last time step accepted refuses a code seen once from being used again.
ALTER TABLE staff ADD COLUMN totp_sealed text;
ALTER TABLE staff ADD COLUMN totp_last_step bigint;

-- One-time recovery codes: only their keyed hash (Vault::tag, purpose "staff-recovery-code");
-- a code used is deleted.
CREATE TABLE staff_recovery_codes (
    staff_id  uuid  NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
    code_hash bytea NOT NULL,
    PRIMARY KEY (staff_id, code_hash)
);

-- The sign-in throttle is a delay that grows with the failures of the last 24 hours
-- (staff/throttle.rs): failures are kept a day, and counted by e-mail and address together.
CREATE INDEX staff_sign_in_failures_pair_idx ON staff_sign_in_failures (email_hash, ip_hash, failed_at);
