#!/usr/bin/env bash
# Funnel replay against COPY, and the seed rate against a plain COPY of the same rows (issue 13,
# docs/benchmarks.md). Two scratch histories with the same traffic per day: about 2 M events
# over 90 days and about 8 M over 360, so the replay's memory can be compared as the history
# grows. Every figure compared with another is measured in the same run.
#
#   bash tests/bench/funnel-replay.sh            # DATABASE_URL's server, or our own cluster
#   ATTEMPTS_SMALL=325000 bash tests/bench/funnel-replay.sh
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
cd "$ROOT"
ensure_postgres
trap stop_own_postgres EXIT
ensure_psql

SMALL="${ATTEMPTS_SMALL:-325000}"   # ~2 M events over 90 days (about 6.2 events per attempt)
LARGE=$((SMALL * 4))                # ~8 M over 360 days
FLOW="${FLOW:-activation}"
OUT="$ROOT/target/bench-funnel"
mkdir -p "$OUT"

say "building replay (release)"
cargo build --release --locked -p replay >/dev/null 2>&1
REPLAY="$ROOT/target/release/replay"

load() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
q() { "$PSQL" "$DB" -qAtX -v ON_ERROR_STOP=1 -c "$1"; }

seed() {
  local attempts="$1" days="$2" t0 t1
  t0="$(now)"
  DATABASE_URL="$DB" "$REPLAY" seed --attempts "$attempts" --days "$days" --seed 1 --batch 5000 >/dev/null 2>&1
  t1="$(now)"
  echo "$(secs "$t0" "$t1")"
}

# A plain COPY of the rows the seed wrote (the events' own columns), into a copy of the table
# with the same indexes: what the seed's events/s is compared with.
copy_rate() {
  local file="$OUT/events.copy" t0 t1 rows
  q "\\copy (SELECT stream_id, version, event_type, schema_version, payload, metadata, recorded_at FROM events) TO '$file'"
  q "DROP TABLE IF EXISTS bench_copy; CREATE TABLE bench_copy (LIKE events INCLUDING ALL)"
  t0="$(now)"
  q "\\copy bench_copy (stream_id, version, event_type, schema_version, payload, metadata, recorded_at) FROM '$file'"
  t1="$(now)"
  rows="$(q "SELECT count(*) FROM bench_copy")"
  q "DROP TABLE bench_copy"
  rm -f "$file"
  echo "$rows $(secs "$t0" "$t1")"
}

measure() {
  local label="$1" events flow_events t0 t1 copy_flow copy_all rss replay_s
  events="$(q "SELECT count(*) FROM events")"
  flow_events="$(q "SELECT count(*) FROM events WHERE category = '$FLOW'")"
  for run in 1 2; do
    t0="$(now)"
    q "COPY (SELECT position, tx_id, stream_id, version, event_type, payload, metadata, recorded_at FROM events WHERE category = '$FLOW') TO STDOUT" >/dev/null
    t1="$(now)"; copy_flow="$(secs "$t0" "$t1")"
    t0="$(now)"
    q "COPY (SELECT position, tx_id, stream_id, version, event_type, payload, metadata, recorded_at FROM events) TO STDOUT" >/dev/null
    t1="$(now)"; copy_all="$(secs "$t0" "$t1")"
    t0="$(now)"
    DATABASE_URL="$DB" /usr/bin/time -f '%M' -o "$OUT/rss" "$REPLAY" funnel --flow "$FLOW" --from 2000-01-01 --to 2100-01-01 --format json >"$OUT/funnel.json" 2>/dev/null
    t1="$(now)"; replay_s="$(secs "$t0" "$t1")"
    rss="$(awk '{ printf "%.0f", $1 / 1024 }' "$OUT/rss")"
    printf '| %s | %s | %s | %s | %s s | %s s | %s s | %s× | %s MB | %s |\n' \
      "$label" "$run" "$events" "$flow_events" "$copy_flow" "$copy_all" "$replay_s" \
      "$(awk -v r="$replay_s" -v c="$copy_flow" 'BEGIN { printf "%.2f", r / c }')" "$rss" "$(load)"
  done
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); flow: $FLOW"
echo
echo "| history | run | events | $FLOW events | COPY of those | COPY of all | replay funnel | replay / COPY of those | replay peak RSS | load |"
echo "|---|---|---|---|---|---|---|---|---|---|"
DB="$(fresh_database exa_bench_funnel_2m)"
s1="$(seed "$SMALL" 90)"
SEEDED_SMALL="$(q "SELECT count(*) FROM events")"
measure "~2 M, 90 days"
DB="$(fresh_database exa_bench_funnel_8m)"
s2="$(seed "$LARGE" 360)"
SEEDED_LARGE="$(q "SELECT count(*) FROM events")"
measure "~8 M, 360 days"
read -r copied copy_s <<<"$(copy_rate)"
echo
echo "seed: $SEEDED_SMALL events in $s1 s; $SEEDED_LARGE events in $s2 s"
awk -v a="$SEEDED_SMALL" -v s="$s1" -v b="$SEEDED_LARGE" -v t="$s2" -v c="$copied" -v ct="$copy_s" 'BEGIN {
  printf "seed rate: %.0f events/s (2 M), %.0f events/s (8 M); plain COPY of the same %d rows: %.1f s, %.0f rows/s\n", a / s, b / t, c, ct, c / ct }'
echo "load at the end: $(load)"
