#!/usr/bin/env bash
# Two orchestrators, one database that fails over (issue 28), run by scripts/test.sh (it built
# target/debug, the example `failover_visitors` included). Everything under target/ops/failover/,
# stopped at the end:
#  1. etcd (Debian's etcd-server), two PostgreSQL members managed by Patroni (Debian's patroni)
#     from deploy/patroni/patroni.yml, a primary and a synchronous standby; HAProxy (Debian's)
#     from deploy/haproxy/haproxy.cfg, sending to the member whose Patroni answers GET /primary;
#  2. the sandbox and two `orchestrator serve` (SANDBOX_MODE=true), DATABASE_URL through
#     HAProxy, and `replay tail --follow` from the start of the log;
#  3. visitors of the three flows (target/debug/examples/failover_visitors) through the two
#     orchestrators' public API; with attempts in flight, `kill -9` of the primary's PostgreSQL;
#     Patroni promotes the standby, HAProxy switches, the orchestrators reconnect on their own;
#  4. the checks: every visitor's attempt reached its normal end and no visitor was answered a
#     500; every event the follower printed before the kill is still in the log; the follower
#     printed every event of the log exactly once, in order; no step ran under two idempotency
#     keys and no subscription was made twice; nothing is left due; the runners ran steps after
#     the switch.
# Prints the time from the kill to the first transaction committed after it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
cd "$ROOT"
for bin in orchestrator replay sandbox examples/failover_visitors; do
  [ -x "target/debug/$bin" ] || die "build first: cargo build -p orchestrator -p replay -p sandbox --bins --example failover_visitors"
done
command -v patroni >/dev/null || apt_install --no-install-recommends patroni
command -v etcd >/dev/null || apt_install --no-install-recommends etcd-server
command -v haproxy >/dev/null || apt_install --no-install-recommends haproxy
quiet_service etcd haproxy patroni
command -v envsubst >/dev/null || apt_install gettext-base
bin="$(pg_bindir)"
[ -n "$bin" ] && [ -x "$bin/initdb" ] || { apt_install postgresql; bin="$(pg_bindir)"; }
# Patroni runs every PostgreSQL program from one directory: the real one, not a PATH of links.
bin="$(dirname "$(readlink -f "$bin/initdb")")"
[ -x "$bin/pg_controldata" ] && [ -x "$bin/pg_rewind" ] || die "no pg_controldata/pg_rewind beside $bin/initdb"
PG_OS_USER="$(id -un)"
if is_root; then
  PG_OS_USER=postgres
  id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
fi
as_pg() { pg_as_owner "$@"; }
# As as_pg, but the command replaces this process (runuser stays the parent and does not pass a
# kill on): its pid is the engine's own, for `kill` at the end.
as_pg_exec() {
  if is_root; then
    HOME="$W" exec setpriv --reuid="$PG_OS_USER" --regid="$PG_OS_USER" --init-groups "$@"
  else
    exec "$@"
  fi
}

W="$ROOT/target/ops/failover"
rm -rf "$W" && mkdir -p "$W"
chmod 755 "$W"
is_root && chown "$PG_OS_USER" "$W"
# Every port of the run in 18600-18699, each the first free one after the previous.
port=18600
for name in ETCD_PORT ETCD_PEER_PORT PG1_PORT PG2_PORT REST1_PORT REST2_PORT HAPROXY_PORT HAPROXY_READ_PORT SANDBOX_PORT \
  PORTAL1_PORT PORTAL2_PORT; do
  port="$(free_port "$port")"
  printf -v "$name" '%s' "$port"
  port=$((port + 1))
done
[ "$PORTAL2_PORT" -le 18699 ] || die "no free ports left in 18600-18699"

PIDS=()
stop_all() {
  local pid
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do kill "${PIDS[$i]}" 2>/dev/null || true; done
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do wait "${PIDS[$i]}" 2>/dev/null || true; done
  # Patroni stops its PostgreSQL when it is stopped; one that outlived it is stopped here.
  for dir in "$W"/pg1 "$W"/pg2; do
    [ -f "$dir/postmaster.pid" ] && as_pg "$bin/pg_ctl" -D "$dir" -m immediate stop >/dev/null 2>&1 || true
  done
}
trap stop_all EXIT INT TERM
started=$SECONDS

# Polls `$2...` until it succeeds, for at most $1 seconds.
until_true() {
  local limit="$1" deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.2
  done
}

say "failover: etcd on 127.0.0.1:$ETCD_PORT"
etcd --name exa-etcd --data-dir "$W/etcd" \
  --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "exa-etcd=http://127.0.0.1:$ETCD_PEER_PORT" >"$W/etcd.log" 2>&1 &
PIDS+=($!)
until_true 30 curl -fsS "http://127.0.0.1:$ETCD_PORT/health" || die "etcd did not start ($W/etcd.log)"

# Passwords made for this run; Patroni reads them from its environment.
SUPERUSER_PASSWORD="$(openssl rand -hex 16)"
export PATRONI_SUPERUSER_USERNAME=postgres PATRONI_SUPERUSER_PASSWORD="$SUPERUSER_PASSWORD"
export PATRONI_REPLICATION_USERNAME=replicator PATRONI_REPLICATION_PASSWORD="$(openssl rand -hex 16)"
export PATRONI_REWIND_USERNAME=rewinder PATRONI_REWIND_PASSWORD="$(openssl rand -hex 16)"
export EXA_PG_BIN="$bin" EXA_PG_SOCKETS="$W" EXA_ETCD_HOSTS="127.0.0.1:$ETCD_PORT" \
  EXA_PG_NETWORK=127.0.0.1/32
PATRONI_VARS='${EXA_PG_NAME} ${EXA_PG_ADDRESS} ${EXA_PG_REST_ADDRESS} ${EXA_PG_DATA} ${EXA_PG_BIN} ${EXA_PG_SOCKETS} ${EXA_ETCD_HOSTS} ${EXA_PG_NETWORK}'
start_member() {
  local name="$1" pg_port="$2" rest_port="$3"
  EXA_PG_NAME="$name" EXA_PG_ADDRESS="127.0.0.1:$pg_port" EXA_PG_REST_ADDRESS="127.0.0.1:$rest_port" \
    EXA_PG_DATA="$W/$name" envsubst "$PATRONI_VARS" <deploy/patroni/patroni.yml >"$W/$name.yml"
  chmod 644 "$W/$name.yml"
  (as_pg_exec env PATH="$bin:$PATH" patroni "$W/$name.yml") >"$W/$name.log" 2>&1 &
  PIDS+=($!)
}
rest() { curl -fsS "http://127.0.0.1:$1$2"; }
# patronictl's view of the cluster: "member role state lag" lines.
members() {
  curl -fsS "http://127.0.0.1:$1/cluster" | python3 -c '
import json, sys
for m in json.load(sys.stdin)["members"]:
    print(m["name"], m["role"], m["state"], m.get("lag", "-"))'
}
is_sync_standby() { members "$1" | grep -qE '^pg[12] sync_standby (running|streaming) 0$'; }

say "failover: Patroni members pg1 (PostgreSQL :$PG1_PORT, REST :$REST1_PORT) and pg2 (:$PG2_PORT, :$REST2_PORT)"
start_member pg1 "$PG1_PORT" "$REST1_PORT"
until_true 90 rest "$REST1_PORT" /primary || die "pg1 did not become the primary ($W/pg1.log)"
start_member pg2 "$PG2_PORT" "$REST2_PORT"
until_true 120 is_sync_standby "$REST1_PORT" || die "pg2 did not become the synchronous standby ($W/pg2.log; $(members "$REST1_PORT" 2>&1))"

say "failover: HAProxy on 127.0.0.1:$HAPROXY_PORT, to the member answering GET /primary"
EXA_HAPROXY_BIND="127.0.0.1:$HAPROXY_PORT" EXA_HAPROXY_READ_BIND="127.0.0.1:$HAPROXY_READ_PORT" EXA_PG1_ADDRESS="127.0.0.1:$PG1_PORT" EXA_PG2_ADDRESS="127.0.0.1:$PG2_PORT" \
  EXA_PG1_REST_PORT="$REST1_PORT" EXA_PG2_REST_PORT="$REST2_PORT" \
  envsubst '${EXA_HAPROXY_BIND} ${EXA_HAPROXY_READ_BIND} ${EXA_PG1_ADDRESS} ${EXA_PG2_ADDRESS} ${EXA_PG1_REST_PORT} ${EXA_PG2_REST_PORT}' \
  <deploy/haproxy/haproxy.cfg >"$W/haproxy.cfg"
haproxy -c -q -f "$W/haproxy.cfg" || die "haproxy -c refused $W/haproxy.cfg"
haproxy -db -f "$W/haproxy.cfg" >"$W/haproxy.log" 2>&1 &
PIDS+=($!)
DB="postgres://postgres:$SUPERUSER_PASSWORD@127.0.0.1:$HAPROXY_PORT/postgres"
psql_at() { PGCONNECT_TIMEOUT=3 psql "$1" -qAtX -v ON_ERROR_STOP=1 -c "$2"; }
through_proxy_is() { [ "$(psql_at "$DB" "SELECT inet_server_port()")" = "$1" ]; }
until_true 30 through_proxy_is "$PG1_PORT" || die "HAProxy does not reach pg1 ($W/haproxy.log)"
READ_DB="postgres://postgres:$SUPERUSER_PASSWORD@127.0.0.1:$HAPROXY_READ_PORT/postgres"
reads_reach() { [ "$(psql_at "$READ_DB" "SELECT inet_server_port()")" = "$1" ]; }
until_true 30 reads_reach "$PG2_PORT" || die "HAProxy's read port does not reach the standby pg2 ($W/haproxy.log)"

say "failover: the sandbox and two orchestrators (:$PORTAL1_PORT, :$PORTAL2_PORT) through HAProxy"
SANDBOX_BIND="127.0.0.1:$SANDBOX_PORT" SANDBOX_SEED=28 ./target/debug/sandbox >"$W/sandbox.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$SANDBOX_PORT/health" 60 || die "the sandbox did not start ($W/sandbox.log)"
SANDBOX_MODE=true DATABASE_URL="$DB" ./target/debug/orchestrator migrate >"$W/migrate.log" 2>&1 \
  || die "migrations failed ($W/migrate.log)"
# Orchestrator 1 reads look-ups and funnels from the standby (through HAProxy's read port), 2
# from the primary.
start_portal() {
  local n="$1" port="$2" reads="$3"
  SANDBOX_MODE=true DATABASE_URL="$DB" DATABASE_READ_URL="$reads" BIND_ADDR="127.0.0.1:$port" SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" \
    WEB_DIST="$ROOT/web/dist" RUST_LOG="${FAILOVER_RUST_LOG:-warn}" \
    LIMIT_SMS_PER_MINUTE=1000000 LIMIT_SMS_PER_PREFIX_MINUTE=1000000 \
    ./target/debug/orchestrator serve >"$W/portal$n.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$port/readyz" 60 || die "orchestrator $n did not start ($W/portal$n.log)"
}
start_portal 1 "$PORTAL1_PORT" "$READ_DB"
start_portal 2 "$PORTAL2_PORT" ""
source tests/ops/standby_reads.sh
check_standby_reads

# The global read, from the start of the log, left running across the switch.
DATABASE_URL="$DB" RUST_LOG=warn ./target/debug/replay tail --after start --follow >"$W/tail.jsonl" 2>"$W/tail.log" &
TAIL_PID=$!
PIDS+=($TAIL_PID)

VISITORS="${FAILOVER_VISITORS:-48}"
CONCURRENCY="${FAILOVER_CONCURRENCY:-12}"
say "failover: $VISITORS visitors of the three flows, $CONCURRENCY at a time, through both orchestrators"
./target/debug/examples/failover_visitors "$VISITORS" "$CONCURRENCY" \
  "http://127.0.0.1:$PORTAL1_PORT,http://127.0.0.1:$PORTAL2_PORT" "http://127.0.0.1:$SANDBOX_PORT" \
  >"$W/visitors.json" 2>"$W/visitors.log" &
VISITORS_PID=$!
PIDS+=($VISITORS_PID)

# Attempts in flight: a third of the visitors' attempts started, steps due or running.
in_flight() {
  [ "$(psql_at "$DB" "SELECT count(DISTINCT stream_id) >= $((VISITORS / 3)) AND (SELECT count(*) FROM due_steps) > 0 FROM events")" = t ]
}
until_true 120 in_flight || die "the visitors did not get going ($W/visitors.log)"
kill -0 "$VISITORS_PID" 2>/dev/null || die "the visitors ended before the kill ($W/visitors.log)"

# Everything the follower printed so far was committed on the primary: it must survive.
cp "$W/tail.jsonl" "$W/tail-before-kill.jsonl"
# The primary crashes: its postmaster and every process it started (backends, the WAL sender),
# so no transaction commits on it after this instant (a backend outliving its postmaster
# could still commit, and the first commit after the kill would not be the new primary's).
PRIMARY_PID="$(head -n 1 "$W/pg1/postmaster.pid")"
PRIMARY_PIDS="$PRIMARY_PID $(ps -o pid= --ppid "$PRIMARY_PID" | tr '\n' ' ')"
say "failover: kill -9 of the primary (pg1's postmaster $PRIMARY_PID and its $(($(wc -w <<<"$PRIMARY_PIDS") - 1)) processes), $(wc -l <"$W/tail-before-kill.jsonl") events read so far"
KILLED_AT="$(date -u +'%Y-%m-%d %H:%M:%S.%6N+00')"
kill_started=$SECONDS
# shellcheck disable=SC2086 # one pid a word
kill -9 $PRIMARY_PIDS
until_true 90 rest "$REST2_PORT" /primary || die "pg2 was not promoted ($W/pg2.log; $(members "$REST2_PORT" 2>&1))"
until_true 30 through_proxy_is "$PG2_PORT" || die "HAProxy does not send to pg2 ($W/haproxy.log)"
say "failover: pg2 promoted and reached through HAProxy $((SECONDS - kill_started)) s after the kill"

wait "$VISITORS_PID" || die "the visitors failed ($W/visitors.log)"
# The old primary comes back as the new primary's standby (pg_rewind if needed).
until_true 120 is_sync_standby "$REST2_PORT" || say "warning: pg1 is not the synchronous standby yet ($(members "$REST2_PORT" 2>&1))"

# The follower has read everything once its last line is the log's last event.
last_checkpoint() { psql_at "$DB" "SELECT tx_id || ':' || position FROM events ORDER BY tx_id DESC, position DESC LIMIT 1"; }
tail_caught_up() { [ "$(tail -n 1 "$W/tail.jsonl" | python3 -c 'import json,sys; print(json.load(sys.stdin)["checkpoint"])')" = "$(last_checkpoint)" ]; }
until_true 60 tail_caught_up || die "replay tail --follow did not reach the log's end ($W/tail.log)"
kill -0 "$TAIL_PID" 2>/dev/null || die "replay tail --follow stopped ($W/tail.log)"
psql_at "$DB" "SELECT tx_id || ':' || position FROM events ORDER BY tx_id, position" >"$W/log-checkpoints.txt"

FIRST_COMMIT="$(psql_at "$DB" "SELECT round(extract(epoch FROM min(pg_xact_commit_timestamp(xid(tx_id))) - timestamptz '$KILLED_AT')::numeric, 2)
  FROM events WHERE pg_xact_commit_timestamp(xid(tx_id)) > timestamptz '$KILLED_AT'")"

say "failover: the checks"
python3 - "$W" "http://127.0.0.1:$SANDBOX_PORT" <<'PY' || die "failover checks failed (files in $W)"
import json, sys, urllib.request
w, sandbox = sys.argv[1], sys.argv[2]
failures = []
def check(name, ok, detail=""):
    print(f"  {'ok' if ok else 'FAILED'}: {name}{' (' + detail + ')' if detail and not ok else ''}")
    if not ok:
        failures.append(name)

report = json.load(open(f"{w}/visitors.json"))
ends = report["visitors"]
abnormal = [v for v in ends if not v["normal"]]
check(f"every visitor's attempt reached its normal end ({len(ends)} visitors)", not abnormal and len(ends) == report["total"],
      "; ".join(f"{v['visitor']}: {v['end']}" for v in abnormal[:10]))
check("no visitor was answered a 500", report["answered_500"] == 0, f"{report['answered_500']} answers 500")

lines = [json.loads(l) for l in open(f"{w}/tail.jsonl")]
printed = [l["checkpoint"] for l in lines]
log = [l.strip() for l in open(f"{w}/log-checkpoints.txt") if l.strip()]
before = [json.loads(l)["checkpoint"] for l in open(f"{w}/tail-before-kill.jsonl")]
check("every event read before the kill is still in the log", set(before) <= set(log),
      f"{len(set(before) - set(log))} lost")
check("replay tail --follow printed every event of the log once, in order", printed == log,
      f"printed {len(printed)} ({len(printed) - len(set(printed))} twice), log {len(log)}")
attempts = {v["attempt"] for v in ends}
streams = {l["stream_id"] for l in lines}
check("every visitor's attempt is in the log", attempts <= streams, f"{len(attempts - streams)} missing")

# Each step's try carries one idempotency key (kept across retries and take-overs): a step
# whose calls arrived under two keys, or a phone subscribed twice, happened twice upstream.
calls = json.load(urllib.request.urlopen(f"{sandbox}/admin/calls"))
keys = {}
for call in calls:
    key = call.get("idempotency_key")
    if key:
        keys.setdefault(key.rsplit(":", 1)[0], set()).add(key)
twice = sorted(step for step, k in keys.items() if len(k) > 1)
check("no step reached the upstream under two idempotency keys", not twice, ", ".join(twice[:5]))
started = {}
for l in lines:
    if l["event_type"] == "step.started":
        started.setdefault((l["stream_id"], l["payload"]["step"]), set()).add(l["payload"]["idempotency_key"])
several = [s for s, k in started.items() if len(k) > 1]
check("no step started under two idempotency keys", not several, str(several[:5]))
subs = json.load(urllib.request.urlopen(f"{sandbox}/admin/subscriptions"))
phones = [s["msisdn"] for s in subs]
check(f"no subscription made twice ({len(subs)} made)", len(phones) == len(set(phones)))
expected = sum(1 for v in ends if v["subscribes"])
check("one subscription per visitor that subscribes", len(subs) == expected, f"{len(subs)} for {expected}")
if failures:
    sys.exit(1)
PY
due="$(psql_at "$DB" "SELECT count(*) FROM due_steps")"
[ "$due" = 0 ] || die "$due steps still due after every visitor ended"
after_kill="$(psql_at "$DB" "SELECT count(*) FROM events WHERE event_type = 'step.called' AND pg_xact_commit_timestamp(xid(tx_id)) > timestamptz '$KILLED_AT'")"
[ "$after_kill" -gt 0 ] || die "no step ran after the switch: the runners did not resume"
say "failover: $(wc -l <"$W/tail.jsonl") events, $after_kill steps run after the switch; 500s: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["answered_500"])' "$W/visitors.json"), 503s waited out: $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["answered_503"])' "$W/visitors.json")"
say "failover: the first event committed ${FIRST_COMMIT} s after the kill -9 of the primary (on the promoted standby); whole test $((SECONDS - started)) s"
