#!/usr/bin/env bash
# One command: installs what is missing, builds everything and runs the portal with the sandbox.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

PORT="${PORT:-8080}"
SANDBOX_PORT="${SANDBOX_PORT:-8090}"
ADMIN_PORT="${ADMIN_PORT:-9464}"

ensure_tools
ensure_postgres
build_web
say "building the orchestrator (release: what visitors are served)"
cargo build --locked --release -p orchestrator -p sandbox -p replay

SANDBOX_PID=""
cleanup() {
  [ -n "$SANDBOX_PID" ] && kill "$SANDBOX_PID" 2>/dev/null || true
  stop_own_postgres
}
trap cleanup EXIT INT TERM

say "starting the sandbox upstreams on 127.0.0.1:$SANDBOX_PORT"
SANDBOX_BIND="127.0.0.1:$SANDBOX_PORT" ./target/release/sandbox &
SANDBOX_PID=$!
wait_for "http://127.0.0.1:$SANDBOX_PORT/sms" 30 || die "the sandbox did not start"

say "portal: http://127.0.0.1:$PORT  (health: http://127.0.0.1:$PORT/healthz, SMS inbox: http://127.0.0.1:$SANDBOX_PORT/sms, metrics: http://127.0.0.1:$ADMIN_PORT/metrics)"
SANDBOX_MODE=true BIND_ADDR="127.0.0.1:$PORT" ADMIN_BIND_ADDR="127.0.0.1:$ADMIN_PORT" SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" WEB_DIST="$ROOT/web/dist" \
  ./target/release/orchestrator serve
