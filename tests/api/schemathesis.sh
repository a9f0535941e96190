#!/usr/bin/env bash
# The portal's HTTP API against docs/openapi.yaml, with schemathesis (issue 16, item 11):
# every check, 50 examples per operation, the stateful phase following the document's links.
# It runs as a visitor (a session the portal issued) and as an admin signed in with the CSRF
# token, so the attempt and staff operations are reached, not only their 401/403 answers.
#
# Usage: tests/api/schemathesis.sh BASE_URL DATABASE_URL ORCHESTRATOR_BINARY
# (scripts/test.sh calls it against the browser tests' portal, after them.)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BASE_URL="$1"
DATABASE_URL="$2"
ORCHESTRATOR="$3"
VERSION="4.32.5"

# schemathesis in a virtual environment of the project's own (target/ is not committed).
VENV="$ROOT/target/schemathesis-$VERSION"
if [ ! -x "$VENV/bin/st" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$VERSION"
fi

json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }
cookie_from() { sed -n 's/^[Ss]et-[Cc]ookie: \([^;]*\).*/\1/p' "$1" | tr -d '\r' | head -n 1; }

headers="$(mktemp)"
trap 'rm -f "$headers"' EXIT

# A visitor: the session cookie of a started attempt.
curl -sf -D "$headers" -o /dev/null -H 'content-type: application/json' \
  -d '{"flow": "activation", "command": {"type": "start", "variant": "standard"}}' "$BASE_URL/api/attempts"
visitor="$(cookie_from "$headers")"

# An admin, signed in as the console does.
email="api-check-$(date +%s)-$$@exa.test"
password="$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
SANDBOX_MODE=true STAFF_PASSWORD="$password" DATABASE_URL="$DATABASE_URL" "$ORCHESTRATOR" staff add --email "$email" --role admin >/dev/null
# Admins need a second factor: enrolled here, and signed in with one of its recovery codes.
code="$(SANDBOX_MODE=true DATABASE_URL="$DATABASE_URL" "$ORCHESTRATOR" staff totp --email "$email" | sed -n 's/^recovery: //p' | head -n 1)"
session="$(curl -sf -D "$headers" -H 'content-type: application/json' -H "origin: $BASE_URL" \
  -d "{\"email\": \"$email\", \"password\": \"$password\", \"code\": \"$code\"}" "$BASE_URL/api/staff/session")"
staff="$(cookie_from "$headers")"
csrf="$(printf '%s' "$session" | json_field csrf_token)"

cd "$ROOT"
# One worker: with two, schemathesis' coverage phase parses its own sources with `ast` in two
# threads at once, which CPython 3.11 (before 3.11.8, gh-106905) can fail with "SystemError: AST
# constructor recursion depth mismatch": a runtime error of the tool, not of the API, that
# failed a CI run on 2026-11-27 with every generated case passed.
"$VENV/bin/st" --config-file "$ROOT/schemathesis.toml" run "$ROOT/docs/openapi.yaml" \
  --url "$BASE_URL" --checks all --max-examples 50 --workers 1 \
  -H "Cookie: $visitor; $staff" -H "X-CSRF-Token: $csrf" -H "Origin: $BASE_URL"
