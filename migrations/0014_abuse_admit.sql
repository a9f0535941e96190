-- The abuse limits' admission in one round trip (issue 24: it was a lock and a count for each
-- counter, then an insert for each). For each counter in the order given (the caller sorts them,
-- so every request locks in one order): its advisory lock (class 'ABUS', held to the end of
-- the transaction, so two replicas cannot both take the last place), then its count in its
-- window. The first full counter is answered with when its oldest counted action leaves the
-- window, and nothing is counted; when every counter has room, the action is counted in all.
-- No row answered means admitted.
CREATE FUNCTION abuse_admit(
    p_rules   text[],
    p_keys    bytea[],
    p_limits  integer[],
    p_windows double precision[]
) RETURNS TABLE (refused_rule text, retry_after double precision)
LANGUAGE plpgsql AS $$
DECLARE
    i       integer;
    v_count bigint;
    v_retry double precision;
BEGIN
    FOR i IN 1 .. coalesce(cardinality(p_rules), 0) LOOP
        PERFORM pg_advisory_xact_lock(1094866259, hashtext(p_rules[i] || ':' || encode(p_keys[i], 'hex')));
        SELECT count(*), EXTRACT(EPOCH FROM (min(h.at) + make_interval(secs => p_windows[i]) - now()))::float8
          INTO v_count, v_retry
          FROM abuse_hits h
         WHERE h.rule = p_rules[i] AND h.key = p_keys[i] AND h.at > now() - make_interval(secs => p_windows[i]);
        IF v_count >= p_limits[i] THEN
            refused_rule := p_rules[i];
            retry_after := v_retry;
            RETURN NEXT;
            RETURN;
        END IF;
    END LOOP;
    INSERT INTO abuse_hits (rule, key) SELECT t.r, t.k FROM unnest(p_rules, p_keys) AS t(r, k);
END $$;
