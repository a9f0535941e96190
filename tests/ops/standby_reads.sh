# Sourced by tests/ops/failover.sh once its cluster and orchestrators run (issue 28): orchestrator 1
# reads the funnel page (and the support look-ups) from the standby through HAProxy's read port
# (DATABASE_READ_URL), orchestrator 2 from the primary. With the standby's replay paused, a row
# committed on the primary is in orchestrator 2's answer and not yet in orchestrator 1's, which
# says it is behind; once replay resumes, both agree and the lag is gone.
# Needs: DB (through HAProxy to the primary), PG2_PORT, REST1_PORT, REST2_PORT, SUPERUSER_PASSWORD,
# PORTAL1_PORT, PORTAL2_PORT, W, and psql_at/until_true/say/die from failover.sh.

# Patroni's maintenance mode on ($1 = true) or off, once every member says so.
patroni_pause() {
  curl -fsS -X PATCH -H 'content-type: application/json' -d "{\"pause\": $1}" \
    "http://127.0.0.1:$REST1_PORT/config" >/dev/null || die "Patroni refused pause=$1"
  member_paused() {
    [ "$(curl -fsS "http://127.0.0.1:$1/patroni" | python3 -c 'import json,sys; print(str(json.load(sys.stdin).get("pause", False)).lower())')" = "$2" ]
  }
  until_true 30 member_paused "$REST1_PORT" "$1" && until_true 30 member_paused "$REST2_PORT" "$1" \
    || die "Patroni's members did not turn pause=$1"
}

check_standby_reads() {
  local standby="postgres://postgres:$SUPERUSER_PASSWORD@127.0.0.1:$PG2_PORT/postgres"
  local email="analista.replica@exa.com.br" password
  password="senha-$(openssl rand -hex 8)"
  SANDBOX_MODE=true DATABASE_URL="$DB" STAFF_PASSWORD="$password" \
    ./target/debug/orchestrator staff add --email "$email" --role analyst >"$W/staff.log" 2>&1 \
    || die "staff add failed ($W/staff.log)"
  # Patroni resumes a standby's paused replay on its next loop: the cluster goes into
  # maintenance mode for the check (no failover meanwhile), and out of it before the visitors.
  patroni_pause true
  # An attempt of today in the projection, committed on the primary while the standby is paused.
  local attempt="cloud-ops-standby-read"
  psql_at "$standby" "SELECT pg_wal_replay_pause()" >/dev/null
  psql_at "$DB" "INSERT INTO funnel_attempts (attempt, flow, variant, brand, partner, os, platform, day, started_at, marks, refusal, revision)
    VALUES ('$attempt', 'cloud', '', 'exa', '', 'android', 'mobile', (now() AT TIME ZONE 'America/Sao_Paulo')::date, now(),
            '[[\"details.submitted\", 0]]', NULL, nextval('funnel_revision'))" >/dev/null
  local portals=("http://127.0.0.1:$PORTAL1_PORT" "http://127.0.0.1:$PORTAL2_PORT")
  python3 tests/ops/standby_reads.py paused "$email" "$password" "${portals[@]}" >"$W/standby-reads.log" 2>&1 || {
    psql_at "$standby" "SELECT pg_wal_replay_resume()" >/dev/null
    die "reads from the standby, replay paused: $(tail -n 5 "$W/standby-reads.log")"
  }
  psql_at "$standby" "SELECT pg_wal_replay_resume()" >/dev/null
  python3 tests/ops/standby_reads.py resumed "$email" "$password" "${portals[@]}" >>"$W/standby-reads.log" 2>&1 \
    || die "reads from the standby, replay resumed: $(tail -n 5 "$W/standby-reads.log")"
  psql_at "$DB" "DELETE FROM funnel_attempts WHERE attempt = '$attempt'" >/dev/null
  patroni_pause false
  say "failover: reads from the standby: $(grep -E '^(paused|resumed)' "$W/standby-reads.log" | paste -sd';' -)"
}
