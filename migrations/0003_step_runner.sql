-- The step runner's schedule: at most one due step per attempt stream.
-- It is a projection of the stream (what the flow's next_step says), written in the same
-- transaction as the events that changed it, so it never disagrees with the history.
CREATE TABLE due_steps (
    stream_id   text        PRIMARY KEY,
    flow        text        NOT NULL,
    step        text        NOT NULL,
    due_at      timestamptz NOT NULL,
    -- Set while a runner executes the step. A runner that dies leaves the lease to expire,
    -- and the step is claimed again: that is the resume after a crash.
    lease_until timestamptz,
    claimed_by  text,
    -- Times the step was claimed; bounds retries of a step that keeps failing.
    claims      integer     NOT NULL DEFAULT 0,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX due_steps_due_idx ON due_steps (due_at);
