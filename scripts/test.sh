#!/usr/bin/env bash
# One command: installs what is missing and runs every test the project has:
# web unit tests, the Rust checks (rustfmt, clippy) and tests (against a real PostgreSQL), browser tests in headless Chromium and
# schemathesis against the portal's OpenAPI document.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"


# A whole run builds every test binary once: incremental caches would only add gigabytes to a
# clean build's disk (a CI machine ran out of it). Set CARGO_INCREMENTAL=1 to keep them.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
check_free_disk 8

ensure_tools
ensure_chromium
ensure_clickhouse
ensure_duckdb
ensure_nginx
ensure_prometheus
ensure_pgbackrest
ensure_postgres
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  stop_own_postgres
}
trap cleanup EXIT INT TERM

# The web's checks and build need nothing of the Rust phases, nor they of them, and Cargo leaves
# a core idle for long stretches (one crate's check or link at a time): they run beside the
# Rust checks (docs/benchmarks.md, "The web's checks beside the Rust checks").
say "web: type check, unit tests, production build, the browser tests' packages (beside the Rust checks: target/web-checks.log)"
mkdir -p "$ROOT/target"
(
  set -e
  npm_install "$ROOT/web"
  cd "$ROOT/web"
  npm run --silent typecheck
  npm run --silent lint
  npx vitest run
  npx vite build --logLevel warn
  if [ -f "$ROOT/tests/package.json" ]; then npm_install "$ROOT/tests"; fi
) >"$ROOT/target/web-checks.log" 2>&1 &
WEB_CHECKS=$!
PIDS+=("$WEB_CHECKS")
web_checks_done() {
  local status=0
  wait "$WEB_CHECKS" || status=$?
  say "web: the checks' output (target/web-checks.log)"
  cat "$ROOT/target/web-checks.log"
  [ "$status" = 0 ] || die "web checks failed"
}

say "rust: cargo fmt --check, cargo clippy -D warnings"
cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings

say "rust: the tests (DATABASE_URL's server, a fresh database per test)"
if cargo nextest --version >/dev/null 2>&1; then
  # Side by side (.config/nextest.toml): the machine's cargo-nextest, when it has one.
  cargo nextest run --workspace --locked --profile ci
  cargo test --workspace --locked --doc
else
  cargo test --workspace --locked
fi

web_checks_done
if [ -f tests/package.json ]; then
  say "browser tests: orchestrator + sandbox on loopback, headless Chromium"
  # The tests' build made the binaries already (integration tests need them); a separate
  # `cargo build` would unify features differently and compile everything again.
  [ -x target/debug/orchestrator ] && [ -x target/debug/sandbox ] && [ -x target/debug/replay ] \
    || cargo build --locked -p orchestrator -p sandbox -p replay
  E2E_DATABASE_URL="$(fresh_database exa_e2e)"
  # Ports nothing else holds, so the tests cannot talk to some other server.
  E2E_SANDBOX_PORT="$(free_port "${E2E_SANDBOX_PORT:-18090}")"
  E2E_PORT="$(free_port "${E2E_PORT:-18080}")"
  [ "$E2E_PORT" != "$E2E_SANDBOX_PORT" ] || E2E_PORT="$(free_port $((E2E_SANDBOX_PORT + 1)))"
  SANDBOX_BIND="127.0.0.1:$E2E_SANDBOX_PORT" SANDBOX_SEED=7 ./target/debug/sandbox \
    >"$ROOT/target/e2e-sandbox.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$E2E_SANDBOX_PORT/sms" 60 && kill -0 "${PIDS[-1]}" 2>/dev/null \
    || die "the sandbox did not start (target/e2e-sandbox.log)"
  SANDBOX_MODE=true DATABASE_URL="$E2E_DATABASE_URL" BIND_ADDR="127.0.0.1:$E2E_PORT" \
    SANDBOX_URL="http://127.0.0.1:$E2E_SANDBOX_PORT" WEB_DIST="$ROOT/web/dist" \
    ./target/debug/orchestrator serve >"$ROOT/target/e2e-portal.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$E2E_PORT/readyz" 60 && kill -0 "${PIDS[-1]}" 2>/dev/null \
    || die "the portal did not start (target/e2e-portal.log)"
  # A second portal with a tiny capacity (one runner slot; a new attempt waits while it is busy,
  # and its waiting line lets one in at a time)
  # and a sandbox and database of its own, for the waiting line's test (e2e/cloud/waiting-line.spec.ts).
  E2E_TINY_DATABASE_URL="$(fresh_database exa_e2e_tiny)"
  E2E_TINY_SANDBOX_PORT="$(free_port $((E2E_PORT + 10)))"
  SANDBOX_BIND="127.0.0.1:$E2E_TINY_SANDBOX_PORT" SANDBOX_SEED=7 ./target/debug/sandbox \
    >"$ROOT/target/e2e-tiny-sandbox.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$E2E_TINY_SANDBOX_PORT/sms" 60 || die "the tiny sandbox did not start"
  E2E_TINY_PORT="$(free_port $((E2E_TINY_SANDBOX_PORT + 1)))"
  SANDBOX_MODE=true DATABASE_URL="$E2E_TINY_DATABASE_URL" BIND_ADDR="127.0.0.1:$E2E_TINY_PORT" \
    SANDBOX_URL="http://127.0.0.1:$E2E_TINY_SANDBOX_PORT" WEB_DIST="$ROOT/web/dist" \
    RUNNER_CONCURRENCY=1 ADMISSION_SIGNALS=slots ADMISSION_MAX_SLOTS_BUSY_PERCENT=100 ADMISSION_RETRY_AFTER_SECS=1 ADMISSION_LINE_WINDOW=1 \
    UPSTREAM_TIMEOUT_SECS=90 \
    ./target/debug/orchestrator serve >"$ROOT/target/e2e-tiny-portal.log" 2>&1 &
  PIDS+=($!)
  wait_for "http://127.0.0.1:$E2E_TINY_PORT/readyz" 60 || die "the tiny portal did not start"
  (cd tests && BASE_URL="http://127.0.0.1:$E2E_PORT" SANDBOX_URL="http://127.0.0.1:$E2E_SANDBOX_PORT" \
    E2E_DATABASE_URL="$E2E_DATABASE_URL" E2E_TINY_URL="http://127.0.0.1:$E2E_TINY_PORT" \
    E2E_TINY_SANDBOX_URL="http://127.0.0.1:$E2E_TINY_SANDBOX_PORT" npx playwright test) || {
    # CI keeps nothing but this output: the portal's own account of the failure goes with it.
    say "the portal's warnings and errors during the browser tests (target/e2e-portal.log)"
    grep -aE 'WARN|ERROR' "$ROOT/target/e2e-portal.log" | tail -n 60 || true
    die "browser tests failed"
  }
  say "API: schemathesis against docs/openapi.yaml on the same portal (every check)"
  bash tests/api/schemathesis.sh "http://127.0.0.1:$E2E_PORT" "$E2E_DATABASE_URL" "$ROOT/target/debug/orchestrator"
  say "production pieces (docs/operations.md): nginx and a browser over https, Prometheus, pgBackRest, a failover"
  bash tests/ops/run.sh
  bash tests/ops/pgbackrest.sh
  # The tests' build made the failover visitors with the other examples; built here only if not.
  [ -x target/debug/examples/failover_visitors ] || cargo build --locked -p orchestrator --example failover_visitors
  bash tests/ops/failover.sh
fi
say "all tests passed"
