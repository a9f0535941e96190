-- Event store: one append-only table of events. See docs/event-store.md.

CREATE TABLE events (
    -- Global order of insertion. NOT gap-free and NOT commit order: concurrent
    -- transactions commit out of order and rolled-back ones leave holes.
    position       bigserial   PRIMARY KEY,
    -- Writing transaction; readers of "all events" filter on it against the
    -- snapshot xmin so an event that commits late is never skipped.
    tx_id          xid8        NOT NULL DEFAULT pg_current_xact_id(),
    stream_id      text        NOT NULL,
    -- `<flow>` part of `<flow>-<uuid>`, so a category read is an index scan.
    category       text        NOT NULL GENERATED ALWAYS AS (split_part(stream_id, '-', 1)) STORED,
    version        bigint      NOT NULL CHECK (version >= 1),
    event_type     text        NOT NULL,
    schema_version integer     NOT NULL CHECK (schema_version >= 1),
    payload        jsonb       NOT NULL,
    metadata       jsonb       NOT NULL,
    recorded_at    timestamptz NOT NULL DEFAULT now(),
    -- A second writer of the same version fails instead of interleaving; also the
    -- index that finds a stream's current version.
    CONSTRAINT events_stream_version_key UNIQUE (stream_id, version)
);

CREATE INDEX events_tx_position_idx ON events (tx_id, position);
CREATE INDEX events_category_position_idx ON events (category, position);

-- Append-only: history is never rewritten (erasure of personal data is done by
-- deleting keys, see 0002_pii.sql).
CREATE FUNCTION events_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events is append-only (% refused)', TG_OP;
END $$;

CREATE TRIGGER events_append_only
    BEFORE UPDATE OR DELETE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_reject_change();

-- Appends a batch of events to one stream in one statement (one round trip).
--   p_expected: NULL = any version, 0 = the stream must not exist, n = the stream
--   must be exactly at version n.
--   p_notify: NOTIFY 'events' inside this transaction. An autocommit caller passes
--   false and notifies right after the commit instead: a notifying transaction holds
--   a cluster-wide lock through its commit (WAL flush included), which serializes
--   concurrent commits (see docs/event-store.md, "Notifications").
-- Returns appended = false with the stream's actual version (0 = no events) on a
-- version conflict, instead of raising, so a caller's surrounding transaction stays
-- usable.
CREATE FUNCTION append_events(
    p_stream_id       text,
    p_expected        bigint,
    p_types           text[],
    p_schema_versions integer[],
    p_payloads        jsonb[],
    p_metadata        jsonb[],
    p_notify          boolean DEFAULT true
) RETURNS TABLE (appended boolean, stream_version bigint, positions bigint[])
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    n     integer := cardinality(p_types);
    v_new bigint;
    v_cur bigint;
BEGIN
    IF n IS NULL OR n = 0 THEN
        RAISE EXCEPTION 'append_events: no events to append';
    END IF;

    -- Version gate first, so a loser burns no position. Writers of one stream queue
    -- on a transaction-scoped advisory lock (in memory, no row written); the current
    -- version is read after the lock is granted, in a fresh snapshot that includes the
    -- previous holder's commit. Key: a fixed class id ('EVTS') and the stream id's
    -- hash; a hash collision only makes two streams queue behind each other.
    PERFORM pg_advisory_xact_lock(1163285587, hashtext(p_stream_id));
    SELECT coalesce(max(e.version), 0) INTO v_cur FROM events e WHERE e.stream_id = p_stream_id;
    IF p_expected IS NOT NULL AND p_expected <> v_cur THEN
        RETURN QUERY SELECT false, v_cur, NULL::bigint[];
        RETURN;
    END IF;
    v_new := v_cur + n;

    IF n = 1 THEN
        -- The common case, without the unnest/sort/aggregate of a batch (a third of
        -- the function's cost for one event).
        appended := true;
        stream_version := v_new;
        INSERT INTO events (stream_id, version, event_type, schema_version, payload, metadata)
        VALUES (p_stream_id, v_new, p_types[1], p_schema_versions[1], p_payloads[1], p_metadata[1])
        RETURNING ARRAY[position] INTO positions;
        RETURN NEXT;
    ELSE
    RETURN QUERY
    WITH ins AS (
        INSERT INTO events (stream_id, version, event_type, schema_version, payload, metadata)
        SELECT p_stream_id, v_new - n + t.ord, t.et, t.sv, t.pl, t.md
        FROM unnest(p_types, p_schema_versions, p_payloads, p_metadata)
             WITH ORDINALITY AS t(et, sv, pl, md, ord)
        ORDER BY t.ord
        RETURNING position
    )
    SELECT true, v_new, array_agg(ins.position ORDER BY ins.position) FROM ins;
    END IF;

    -- Delivered at commit only; wakes subscribers (see EventStore::subscribe_all).
    IF p_notify THEN
        PERFORM pg_notify('events', p_stream_id);
    END IF;
END $$;
