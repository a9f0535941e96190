-- Issue 30: the portal-wide SMS ceiling and the per-prefix burst are rates kept as GCRA
-- (generic cell rate algorithm) rows: one row per rule and key holding its "theoretical arrival
-- time". A send takes a place in one INSERT ... ON CONFLICT statement, run outside the
-- command's transaction, so the row's lock lasts that statement only: no advisory lock held to
-- the end of every sending command, and no count of a minute's rows (issue 17's sliding window
-- serialised every code sent by every replica on one lock).
CREATE TABLE abuse_rates (
    rule text NOT NULL,
    key  bytea NOT NULL,
    tat  timestamptz NOT NULL,
    PRIMARY KEY (rule, key)
);
CREATE INDEX abuse_rates_tat ON abuse_rates (tat);

-- Takes one place of (rule, key): a place every p_interval seconds, up to p_burst seconds
-- ahead. NULL when taken; otherwise the seconds until one frees (nothing taken).
CREATE FUNCTION abuse_rate_take(
    p_rule     text,
    p_key      bytea,
    p_interval double precision,
    p_burst    double precision
) RETURNS double precision
LANGUAGE plpgsql AS $$
DECLARE
    v_now  timestamptz := clock_timestamp();
    v_tat  timestamptz;
    v_wait double precision;
BEGIN
    INSERT INTO abuse_rates AS r (rule, key, tat)
         VALUES (p_rule, p_key, v_now + make_interval(secs => p_interval))
    ON CONFLICT (rule, key) DO UPDATE
         SET tat = greatest(r.tat, v_now) + make_interval(secs => p_interval)
       WHERE greatest(r.tat, v_now) - v_now <= make_interval(secs => p_burst)
    RETURNING r.tat INTO v_tat;
    IF FOUND THEN
        RETURN NULL;
    END IF;
    SELECT EXTRACT(EPOCH FROM r.tat - v_now)::float8 - p_burst INTO v_wait
      FROM abuse_rates r WHERE r.rule = p_rule AND r.key = p_key;
    RETURN greatest(v_wait, 0.001);
END $$;
