-- Event store guards (issue 14, defect 9; docs/event-store.md).

-- Append-only includes TRUNCATE: a statement trigger on UPDATE OR DELETE does not fire for it.
CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_reject_change();

-- Takes the append locks (see append_events) of several streams in one fixed order, ascending
-- lock key, so two transactions that append to the same streams in opposite orders queue
-- instead of deadlocking. append_events takes each lock again later; advisory locks are
-- re-entrant within a transaction.
CREATE FUNCTION lock_streams(p_stream_ids text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    k integer;
BEGIN
    FOR k IN SELECT DISTINCT hashtext(s) FROM unnest(p_stream_ids) AS s ORDER BY 1 LOOP
        PERFORM pg_advisory_xact_lock(1163285587, k);
    END LOOP;
END $$;
