-- Fencing the step runner's writes (docs/reliability.md).
--
-- lease_token: a fresh value on every claim. Every write a runner makes to the row because of
--   its claim (renewal, retry, release, re-plan, give-up) names the token, so a runner whose
--   lease expired and was taken over cannot touch the row again.
-- stream_version: the stream version the planned step was folded from. A plan is only replaced
--   by one folded from the same or a later version, so a runner that re-plans from a stale read
--   cannot overwrite the plan a newer command wrote.
ALTER TABLE due_steps
    ADD COLUMN lease_token    uuid,
    ADD COLUMN stream_version bigint NOT NULL DEFAULT 0;
