#!/usr/bin/env bash
# Backups with pgBackRest (Debian's) and a point-in-time restore into a fresh cluster, run by
# scripts/test.sh (it built target/debug). Its own PostgreSQL under target/ops/pgbr/, stopped at
# the end:
#  1. a primary archiving its WAL with `pgbackrest archive-push`; the schema and a seeded history;
#  2. a full backup, more history, an incremental backup, more history, the target time T, and
#     history after T that the restore must leave out;
#  3. `pgbackrest restore --type=time --target=T` into a new data directory, promoted;
#  4. on it: exactly the events up to T, the same funnel as the primary had at T, the portal
#     starts (its check that refuses a logical restore passes: the transaction-id counter came
#     back with the physical restore) and `replay tail` from the last checkpoint before T reads
#     the events written after the restore, each once.
# Prints how long the restore took (the recovery time of docs/operations.md's table).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
cd "$ROOT"
for bin in orchestrator replay; do
  [ -x "target/debug/$bin" ] || die "build first: cargo build -p orchestrator -p replay"
done
ensure_pgbackrest
bin="$(pg_bindir)"
[ -n "$bin" ] && [ -x "$bin/initdb" ] || { apt_install postgresql; bin="$(pg_bindir)"; }
PG_OS_USER="$(id -un)"
if is_root; then
  PG_OS_USER=postgres
  id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
fi

W="$ROOT/target/ops/pgbr"
rm -rf "$W" && mkdir -p "$W"/{repo,log,lock,spool}
is_root && chown -R "$PG_OS_USER" "$W"
PRIMARY_PORT="$(free_port "${OPS_PG_PORT:-18170}")"
RESTORED_PORT="$(free_port $((PRIMARY_PORT + 1)))"
SANDBOX_PORT="$(free_port $((RESTORED_PORT + 1)))"
PORTAL_PORT="$(free_port $((SANDBOX_PORT + 1)))"
CONF="$W/pgbackrest.conf"
cat >"$CONF" <<CONF
[global]
repo1-path=$W/repo
repo1-retention-full=2
log-path=$W/log
lock-path=$W/lock
spool-path=$W/spool
log-level-console=warn
log-level-file=info
start-fast=y
compress-type=lz4

[exa]
pg1-path=$W/primary
pg1-port=$PRIMARY_PORT
pg1-socket-path=$W
pg1-user=postgres
CONF
chmod 644 "$CONF"
as_pg() { pg_as_owner "$@"; }
br() { as_pg pgbackrest --config="$CONF" --stanza=exa "$@"; }

PIDS=()
stop_all() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for dir in primary restored; do
    [ -f "$W/$dir/postmaster.pid" ] && as_pg "$bin/pg_ctl" -D "$W/$dir" -m immediate stop >/dev/null 2>&1 || true
  done
}
trap stop_all EXIT INT TERM
started=$SECONDS

say "pgbackrest: a primary archiving its WAL"
as_pg "$bin/initdb" -D "$W/primary" -U postgres -A trust -E UTF8 --locale=C >/dev/null
cat >>"$W/primary/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $PRIMARY_PORT
unix_socket_directories = '$W'
max_connections = 60
wal_level = replica
archive_mode = on
archive_command = 'pgbackrest --config=$CONF --stanza=exa archive-push %p'
# The recovery point objective: a WAL segment is archived when full or after this long.
archive_timeout = 60
CONF
as_pg "$bin/pg_ctl" -D "$W/primary" -l "$W/primary.log" -w start >/dev/null
br stanza-create
br check

PRIMARY="postgres://postgres@127.0.0.1:$PRIMARY_PORT/postgres"
RESTORED="postgres://postgres@127.0.0.1:$RESTORED_PORT/postgres"
psql_at() { psql "$1" -qAtX -v ON_ERROR_STOP=1 -c "$2"; }
seed() { SANDBOX_MODE=true DATABASE_URL="$PRIMARY" ./target/debug/replay seed --attempts "$1" --seed "$2" --force >/dev/null; }
TODAY="$(date -u +%F)"
funnel() { DATABASE_URL="$1" ./target/debug/replay funnel --flow activation --from 2000-01-01 --to "$TODAY" --format json; }
last_checkpoint() { DATABASE_URL="$1" ./target/debug/replay tail --after start | tail -n 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["checkpoint"])'; }

SANDBOX_MODE=true DATABASE_URL="$PRIMARY" ./target/debug/orchestrator migrate >"$W/migrate.log" 2>&1 \
  || die "migrations failed ($W/migrate.log)"
seed 60 1
br --type=full backup
seed 40 2
br --type=incr backup
seed 40 3
events_at_t="$(psql_at "$PRIMARY" 'SELECT count(*) FROM events')"
checkpoint_at_t="$(last_checkpoint "$PRIMARY")"
funnel "$PRIMARY" >"$W/funnel-at-t.json"
TARGET="$(psql_at "$PRIMARY" "SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00'")"
seed 30 4 # after T: must not come back
events_after_t="$(psql_at "$PRIMARY" 'SELECT count(*) FROM events')"
[ "$events_after_t" -gt "$events_at_t" ] || die "the history after T was not written"
# Archives the segment holding the commits after T (and checks the archive is complete).
br check
br info >"$W/info.txt"
grep -q 'full backup' "$W/info.txt" && grep -q 'incr backup' "$W/info.txt" || die "pgbackrest info lacks a backup: $(cat "$W/info.txt")"
as_pg "$bin/pg_ctl" -D "$W/primary" -m fast stop >/dev/null

say "pgbackrest: point-in-time restore to $TARGET into a fresh cluster"
restore_started=$SECONDS
mkdir -p "$W/restored" && chmod 700 "$W/restored"
is_root && chown "$PG_OS_USER" "$W/restored"
br --pg1-path="$W/restored" --type=time --target="$TARGET" --target-action=promote restore
# The restored cluster listens elsewhere; the primary's settings came with the files.
cat >>"$W/restored/postgresql.auto.conf" <<CONF
port = $RESTORED_PORT
archive_mode = off
CONF
as_pg "$bin/pg_ctl" -D "$W/restored" -l "$W/restored.log" -w -t 120 start >/dev/null \
  || die "the restored cluster did not start ($W/restored.log)"
i=0
until [ "$(psql_at "$RESTORED" 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ]; do
  i=$((i + 1)); [ "$i" -lt 600 ] || die "the restored cluster was not promoted ($W/restored.log)"; sleep 0.2
done
restore_secs=$((SECONDS - restore_started))

check() { if [ "$2" != "$3" ]; then die "restore check, $1: expected '$3', got '$2'"; fi; }
check "events up to T, none after" "$(psql_at "$RESTORED" 'SELECT count(*) FROM events')" "$events_at_t"
check "the last checkpoint" "$(last_checkpoint "$RESTORED")" "$checkpoint_at_t"
funnel "$RESTORED" >"$W/funnel-restored.json"
cmp -s "$W/funnel-at-t.json" "$W/funnel-restored.json" || die "the funnels differ ($W/funnel-*.json)"

say "pgbackrest: the portal starts on the restored cluster; the global read continues"
SANDBOX_BIND="127.0.0.1:$SANDBOX_PORT" SANDBOX_SEED=7 ./target/debug/sandbox >"$W/sandbox.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$SANDBOX_PORT/sms" 60 || die "the sandbox did not start ($W/sandbox.log)"
SANDBOX_MODE=true DATABASE_URL="$RESTORED" BIND_ADDR="127.0.0.1:$PORTAL_PORT" SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" \
  WEB_DIST="$ROOT/web/dist" ./target/debug/orchestrator serve >"$W/portal.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$PORTAL_PORT/readyz" 60 || die "the portal did not start on the restored cluster ($W/portal.log)"
# A visitor's attempt through the portal, then more history: both after the restore.
status="$(curl -sS -o "$W/start.json" -w '%{http_code}' -H 'content-type: application/json' \
  --data '{"flow": "activation", "command": {"type": "start", "variant": "standard"}}' "http://127.0.0.1:$PORTAL_PORT/api/attempts")"
check "an attempt started on the restored portal" "$status" 201
SANDBOX_MODE=true DATABASE_URL="$RESTORED" ./target/debug/replay seed --attempts 10 --seed 5 --force >/dev/null
new_events="$(psql_at "$RESTORED" 'SELECT count(*) FROM events')"
new_events=$((new_events - events_at_t))
[ "$new_events" -gt 0 ] || die "no event was written after the restore"
DATABASE_URL="$RESTORED" ./target/debug/replay tail --after "$checkpoint_at_t" >"$W/after.jsonl"
check "events read after the last checkpoint" "$(wc -l <"$W/after.jsonl")" "$new_events"
check "each once" "$(python3 -c 'import json,sys; print(len({json.loads(l)["checkpoint"] for l in open(sys.argv[1])}))' "$W/after.jsonl")" "$new_events"
say "pgbackrest: $events_at_t events restored ($((events_after_t - events_at_t)) after T left out), $new_events read after it; restore (recovery and promotion) took ${restore_secs} s; whole test $((SECONDS - started)) s"
