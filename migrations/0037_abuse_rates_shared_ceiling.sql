-- Issue 24 and 30: a send takes its rate places in the command's own transaction, not in an
-- autocommit statement of its own (one transaction id less a send). A row locked there stays
-- locked until the command commits, so the portal-wide ceiling, which every send in every
-- replica is charged to, is kept in shards: rows of one rule (`p_shared_keys`), each holding
-- an equal share of the ceiling. A send takes a place in any shard with room, passing over the shards
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
    v_full  integer;
    v_wait  double precision;
    v_key   bytea;
BEGIN
    -- The rates each taken: rows made where missing, locked in the order given, then checked.
    INSERT INTO abuse_rates (rule, key, tat)
    SELECT rated.rule, rated.key, v_now FROM unnest(p_rules, p_keys) AS rated(rule, key)
    ON CONFLICT (rule, key) DO NOTHING;
    PERFORM FROM abuse_rates r
       JOIN unnest(p_rules, p_keys) WITH ORDINALITY AS rated(rule, key, n) ON r.rule = rated.rule AND r.key = rated.key
     ORDER BY rated.n FOR UPDATE OF r;
    SELECT rated.n, greatest(EXTRACT(EPOCH FROM r.tat - v_now)::float8 - rated.burst, 0.001) INTO v_full, v_wait
      FROM abuse_rates r
      JOIN unnest(p_rules, p_keys, p_bursts) WITH ORDINALITY AS rated(rule, key, burst, n)
        ON r.rule = rated.rule AND r.key = rated.key
     WHERE greatest(r.tat, v_now) - v_now > make_interval(secs => rated.burst)
     ORDER BY rated.n LIMIT 1;
    IF v_full IS NOT NULL THEN
        RETURN QUERY SELECT v_full, v_wait;
        RETURN;
    END IF;

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

    UPDATE abuse_rates r SET tat = greatest(r.tat, v_now) + make_interval(secs => rated.step)
      FROM unnest(p_rules, p_keys, p_intervals) AS rated(rule, key, step)
     WHERE r.rule = rated.rule AND r.key = rated.key;
    UPDATE abuse_rates r SET tat = greatest(r.tat, v_now) + make_interval(secs => p_shared_interval)
     WHERE r.rule = p_shared_rule AND r.key = v_key;
    RETURN QUERY SELECT NULL::integer, NULL::float8;
END $$;

-- The unsharded ceiling's row: the purge leaves the ceiling's rows, so it would stay for good.
DELETE FROM abuse_rates WHERE rule = 'sms_per_minute' AND key = 'all'::bytea;
