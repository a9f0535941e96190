-- Issue 26: the staff sign-in failures kept the client's address in clear. They keep a keyed
-- hash of it now (`Vault::tag`, purpose "staff-sign-in-ip", of the IPv4 address or IPv6 /64).
-- The rows are at most 30 minutes of failures and cannot be converted (the old addresses are
-- not re-keyed): they are dropped, so the sign-in limit starts counting afresh.
DELETE FROM staff_sign_in_failures;
DROP INDEX staff_sign_in_failures_ip_idx;
ALTER TABLE staff_sign_in_failures DROP COLUMN ip;
ALTER TABLE staff_sign_in_failures ADD COLUMN ip_hash bytea NOT NULL;
CREATE INDEX staff_sign_in_failures_ip_idx ON staff_sign_in_failures (ip_hash, failed_at);
