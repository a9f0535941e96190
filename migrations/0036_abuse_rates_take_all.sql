-- Issue 24: a send takes its places in every rate it is charged to (the number's prefix, then
-- the portal-wide ceiling) in one autocommit statement: one transaction where there were two
-- (and a third to give the prefix's place back when the ceiling was full). All or nothing: the
-- rows are locked in the order given (every caller names the prefix first and the ceiling
-- last, so two sends never wait on each other crosswise), checked, and only then taken.
-- Returns full_at = NULL when every place was taken; otherwise the (1-based) index of the
-- first rate found full and the seconds until a place in it frees, with nothing taken.
CREATE FUNCTION abuse_rates_take(
    p_rules     text[],
    p_keys      bytea[],
    p_intervals double precision[],
    p_bursts    double precision[]
) RETURNS TABLE (full_at integer, wait double precision)
LANGUAGE plpgsql AS $$
DECLARE
    v_now timestamptz := clock_timestamp();
    v_tat timestamptz;
BEGIN
    FOR i IN 1 .. coalesce(cardinality(p_rules), 0) LOOP
        -- A row to lock: a free one (a time in the past says what no row says).
        INSERT INTO abuse_rates (rule, key, tat) VALUES (p_rules[i], p_keys[i], v_now)
        ON CONFLICT (rule, key) DO NOTHING;
        SELECT r.tat INTO v_tat FROM abuse_rates r
         WHERE r.rule = p_rules[i] AND r.key = p_keys[i] FOR UPDATE;
        IF greatest(v_tat, v_now) - v_now > make_interval(secs => p_bursts[i]) THEN
            RETURN QUERY SELECT i, greatest(EXTRACT(EPOCH FROM v_tat - v_now)::float8 - p_bursts[i], 0.001);
            RETURN;
        END IF;
    END LOOP;
    FOR i IN 1 .. coalesce(cardinality(p_rules), 0) LOOP
        UPDATE abuse_rates r SET tat = greatest(r.tat, v_now) + make_interval(secs => p_intervals[i])
         WHERE r.rule = p_rules[i] AND r.key = p_keys[i];
    END LOOP;
    RETURN QUERY SELECT NULL::integer, NULL::float8;
END $$;
