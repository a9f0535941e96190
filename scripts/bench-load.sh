#!/usr/bin/env bash
# The load benchmark (orchestrator/examples/load.rs) against a PostgreSQL of its own under
# .pgbench/, started with pg_stat_statements loaded so the benchmark can count the statements
# an attempt costs. Arguments go to the benchmark (levels such as 16:160 or @70:1400);
# LOAD_SERVER_BINARY names another build of the server to measure (an earlier commit's).
#
#   bash scripts/bench-load.sh 16:160 @70:1400
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

unset DATABASE_URL
PGHOME="$ROOT/.pgbench"
# BENCH_PG_OPTS: more server settings for an experiment (e.g. "-c plan_cache_mode=force_generic_plan").
PG_EXTRA_OPTS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_utility=on ${BENCH_PG_OPTS:-}"
ensure_postgres
trap stop_own_postgres EXIT INT TERM

say "release build of the server and the benchmark"
cargo build --release --locked -p orchestrator --bins --example load
say "load benchmark: $*"
target/release/examples/load "$@"
