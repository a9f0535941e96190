-- Issue 24 and 30: a send takes its rate places in the command's own transaction, not in an
-- autocommit statement of its own (one transaction id less a send). A row locked there stays
-- locked until the command commits, so the portal-wide ceiling, which every send in every
-- replica is charged to, is kept in shards: `p_shards` rows of one rule, each holding an equal
-- share of the ceiling. A send takes a place in any shard with room, passing over the shards
-- other sends hold (SKIP LOCKED), and waits for one only when every shard with room is held.
-- It is refused only when every shard is full, so the shards together let through exactly what
-- the one row did, and concurrent sends do not queue behind one another's commits.
--
-- The rates each taken (the number's prefix) are locked in the order given, checked, then the
-- shared one; all or nothing. Returns full_at = NULL when every place was taken; otherwise the
-- (1-based) index of the first rate found full (cardinality(p_rules) + 1 for the shared one)
-- and the seconds until a place in it frees, with nothing taken.
CREATE FUNCTION abuse_rates_take_shared(
    p_rules           text[],
    p_keys            bytea[],
    p_intervals       double precision[],
    p_bursts          double precision[],
    p_shared_rule     text,
    p_shared_keys     bytea[],
    p_shared_interval double precision,
    p_shared_burst    double precision
) RETURNS TABLE (full_at integer, wait double precision)
LANGUAGE plpgsql AS $$
DECLARE
    v_now   timestamptz := clock_timestamp();
    v_burst interval := make_interval(secs => p_shared_burst);
    v_tat   timestamptz;
    v_key   bytea;
BEGIN
    FOR i IN 1 .. coalesce(cardinality(p_rules), 0) LOOP
        INSERT INTO abuse_rates (rule, key, tat) VALUES (p_rules[i], p_keys[i], v_now)
        ON CONFLICT (rule, key) DO NOTHING;
        SELECT r.tat INTO v_tat FROM abuse_rates r
         WHERE r.rule = p_rules[i] AND r.key = p_keys[i] FOR UPDATE;
        IF greatest(v_tat, v_now) - v_now > make_interval(secs => p_bursts[i]) THEN
            RETURN QUERY SELECT i, greatest(EXTRACT(EPOCH FROM v_tat - v_now)::float8 - p_bursts[i], 0.001);
            RETURN;
        END IF;
    END LOOP;

    -- Shards come and go with the purge (a row in the past says what no row says). Only the
    -- missing ones are inserted: an insert that meets a row another send has updated and not
    -- committed waits for that send, which is what the shards are for not doing.
    INSERT INTO abuse_rates (rule, key, tat)
    SELECT p_shared_rule, shard, v_now FROM unnest(p_shared_keys) AS shard
     WHERE NOT EXISTS (SELECT FROM abuse_rates r WHERE r.rule = p_shared_rule AND r.key = shard)
    ON CONFLICT (rule, key) DO NOTHING;
    -- Only a shard with room is locked (the condition is checked again on the row once it is
    -- locked), so a send never holds a full shard while it waits for another.
    SELECT r.key INTO v_key FROM abuse_rates r
     WHERE r.rule = p_shared_rule AND r.key = ANY(p_shared_keys) AND greatest(r.tat, v_now) - v_now <= v_burst
     ORDER BY random() LIMIT 1 FOR UPDATE SKIP LOCKED;
    IF v_key IS NULL THEN
        SELECT r.key INTO v_key FROM abuse_rates r
         WHERE r.rule = p_shared_rule AND r.key = ANY(p_shared_keys) AND greatest(r.tat, v_now) - v_now <= v_burst
         ORDER BY random() LIMIT 1 FOR UPDATE;
    END IF;
    IF v_key IS NULL THEN
        RETURN QUERY
        SELECT coalesce(cardinality(p_rules), 0) + 1,
               greatest(min(EXTRACT(EPOCH FROM r.tat - v_now))::float8 - p_shared_burst, 0.001)
          FROM abuse_rates r WHERE r.rule = p_shared_rule AND r.key = ANY(p_shared_keys);
        RETURN;
    END IF;

    FOR i IN 1 .. coalesce(cardinality(p_rules), 0) LOOP
        UPDATE abuse_rates r SET tat = greatest(r.tat, v_now) + make_interval(secs => p_intervals[i])
         WHERE r.rule = p_rules[i] AND r.key = p_keys[i];
    END LOOP;
    UPDATE abuse_rates r SET tat = greatest(r.tat, v_now) + make_interval(secs => p_shared_interval)
     WHERE r.rule = p_shared_rule AND r.key = v_key;
    RETURN QUERY SELECT NULL::integer, NULL::float8;
END $$;

-- The unsharded ceiling's row: the purge leaves the ceiling's rows, so it would stay for good.
DELETE FROM abuse_rates WHERE rule = 'sms_per_minute' AND key = 'all'::bytea;
