-- The funnel projection (docs/funnels.md): what each attempt's funnel needs, kept current from
-- the event log by a projector that stores its checkpoint in the same transaction as its rows.
-- No personal data: the attempt's stream id, coarse breakdown facts, the funnel-step events it
-- recorded (type and ms after its first event) and the message a refused visitor read.
CREATE TABLE funnel_attempts (
    attempt    text PRIMARY KEY,
    flow       text NOT NULL,
    variant    text NOT NULL,
    brand      text NOT NULL,
    partner    text NOT NULL,
    os         text NOT NULL,
    platform   text NOT NULL,
    -- São Paulo date of the attempt's first event.
    day        date NOT NULL,
    started_at timestamptz NOT NULL,
    -- [["code.sent", 1234], ...] in stream order.
    marks      jsonb NOT NULL,
    refusal    text,
    -- Taken from funnel_revision at each write, under the checkpoint's row lock: the order
    -- rows were written in, for exports that resume after the last revision they sent.
    revision   bigint NOT NULL
);
CREATE INDEX funnel_attempts_flow_day ON funnel_attempts (flow, day);
CREATE INDEX funnel_attempts_revision ON funnel_attempts (revision);
CREATE SEQUENCE funnel_revision;

-- Where each projection stands in the gap-free global read, by the table it writes.
CREATE TABLE projection_checkpoints (
    projection text PRIMARY KEY,
    tx_id      bigint NOT NULL,
    position   bigint NOT NULL,
    events     bigint NOT NULL,
    updated_at timestamptz NOT NULL,
    -- A new one each rebuild: exports of an older generation start over.
    generation uuid NOT NULL DEFAULT gen_random_uuid()
);
INSERT INTO projection_checkpoints (projection, tx_id, position, events, updated_at)
VALUES ('funnel_attempts', 0, 0, 0, now());

-- Where each export of the projection stands (`replay export --clickhouse`), by target.
CREATE TABLE export_checkpoints (
    target     text PRIMARY KEY,
    generation uuid NOT NULL,
    revision   bigint NOT NULL,
    updated_at timestamptz NOT NULL
);
