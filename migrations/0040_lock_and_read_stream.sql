-- Issue 30: a visitor's command took three round trips before it could decide: the attempt's
-- lock (`lock_streams`, with the transaction's time), the answer stored under its idempotency
-- key, and the stream's events. One call now does the three, in this order.
--
-- A function, not one statement: under READ COMMITTED a statement reads with the snapshot it
-- began with, before its wait on the lock, so it could miss the events and the answer of the
-- writer it waited for. Each statement of a PL/pgSQL function takes a snapshot of its own,
-- after the lock.
--
-- The first row is the header: the transaction's time (what the command's events are recorded
-- with) and the answer stored under `p_key`, if any (then no events follow). The other rows are
-- the stream's events after `p_after` (the version of the history the caller already holds),
-- in version order, with the columns of the store's reads.
CREATE FUNCTION lock_and_read_stream(p_stream text, p_lock_timeout text, p_key text, p_after bigint)
RETURNS TABLE (
    locked_at      timestamptz,
    answer         jsonb,
    fingerprint    bytea,
    "position"     bigint,
    tx_id          bigint,
    stream_id      text,
    version        bigint,
    event_type     text,
    schema_version integer,
    payload        jsonb,
    metadata       jsonb,
    recorded_at    timestamptz
)
LANGUAGE plpgsql AS $$
DECLARE
    earlier record;
BEGIN
    PERFORM set_config('lock_timeout', p_lock_timeout, true);
    PERFORM lock_streams(ARRAY[p_stream]);
    IF p_key IS NOT NULL THEN
        SELECT c.response, c.fingerprint INTO earlier
        FROM attempt_commands c WHERE c.stream_id = p_stream AND c.idempotency_key = p_key;
        IF FOUND THEN
            RETURN QUERY SELECT now(), earlier.response, earlier.fingerprint,
                NULL::bigint, NULL::bigint, NULL::text, NULL::bigint, NULL::text, NULL::integer,
                NULL::jsonb, NULL::jsonb, NULL::timestamptz;
            RETURN;
        END IF;
    END IF;
    RETURN QUERY SELECT now(), NULL::jsonb, NULL::bytea,
        NULL::bigint, NULL::bigint, NULL::text, NULL::bigint, NULL::text, NULL::integer,
        NULL::jsonb, NULL::jsonb, NULL::timestamptz;
    RETURN QUERY SELECT NULL::timestamptz, NULL::jsonb, NULL::bytea,
        e.position, e.tx_id::text::bigint, e.stream_id, e.version, e.event_type, e.schema_version,
        e.payload, e.metadata, e.recorded_at
    FROM events e WHERE e.stream_id = p_stream AND e.version > p_after ORDER BY e.version;
END $$;
