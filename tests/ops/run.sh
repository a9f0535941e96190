#!/usr/bin/env bash
# The production pieces of deploy/ against the real engines (Debian's nginx and Prometheus),
# run by scripts/test.sh after the browser tests (it built target/debug and web/dist):
#  1. `promtool test rules` on deploy/prometheus/rules.yml;
#  2. a portal (its own database, TRUSTED_PROXIES = nginx's outgoing address, an admin port) and
#     a sandbox behind nginx with deploy/nginx/'s locations, TLS with a certificate made here;
#     curl checks of the proxy, then the browser test tests/proxy/ over https;
#  3. a real Prometheus scraping that portal's admin port with the alerting rules loaded.
# Everything runs under target/ops/ and is stopped at the end. Needs DATABASE_URL.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
cd "$ROOT"
[ -n "${DATABASE_URL:-}" ] || die "tests/ops/run.sh needs DATABASE_URL (scripts/test.sh sets it)"
[ -x target/debug/orchestrator ] && [ -x target/debug/sandbox ] && [ -f web/dist/index.html ] \
  || die "build first: cargo build -p orchestrator -p sandbox and (cd web && npx vite build)"
ensure_nginx
ensure_prometheus

OPS="$ROOT/target/ops"
rm -rf "$OPS" && mkdir -p "$OPS/nginx/tmp" "$OPS/prometheus"
PIDS=()
stop_all() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_all EXIT INT TERM
started=$SECONDS

say "ops: promtool test rules (deploy/prometheus)"
promtool check rules deploy/prometheus/rules.yml
promtool test rules deploy/prometheus/rules.test.yml

say "ops: portal and sandbox behind nginx (TLS, HTTP/2)"
SANDBOX_PORT="$(free_port "${OPS_SANDBOX_PORT:-18190}")"
PORTAL_PORT="$(free_port $((SANDBOX_PORT + 1)))"
ADMIN_PORT="$(free_port $((PORTAL_PORT + 1)))"
TLS_PORT="$(free_port $((ADMIN_PORT + 1)))"
SANDBOX_TLS_PORT="$(free_port $((TLS_PORT + 1)))"
PROM_PORT="$(free_port $((SANDBOX_TLS_PORT + 1)))"
DB_URL="$(fresh_database exa_ops)"

# A certificate for this run only: a CA, and the proxy's certificate for 127.0.0.1 signed by it.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=EXA test CA" \
  -keyout "$OPS/ca.key" -out "$OPS/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$OPS/proxy.key" -out "$OPS/proxy.csr" 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' >"$OPS/proxy.ext"
openssl x509 -req -in "$OPS/proxy.csr" -CA "$OPS/ca.crt" -CAkey "$OPS/ca.key" -CAcreateserial -days 2 \
  -extfile "$OPS/proxy.ext" -out "$OPS/proxy.crt" 2>/dev/null

SANDBOX_BIND="127.0.0.1:$SANDBOX_PORT" SANDBOX_SEED=7 ./target/debug/sandbox >"$OPS/sandbox.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$SANDBOX_PORT/sms" 60 || die "the sandbox did not start ($OPS/sandbox.log)"
# nginx reaches the portal from 127.0.0.2 (proxy_bind below): the only address it trusts, so a
# browser on 127.0.0.1 is told apart from the proxy.
SANDBOX_MODE=true DATABASE_URL="$DB_URL" BIND_ADDR="127.0.0.1:$PORTAL_PORT" ADMIN_BIND_ADDR="127.0.0.1:$ADMIN_PORT" \
  TRUSTED_PROXIES=127.0.0.2/32 SANDBOX_URL="http://127.0.0.1:$SANDBOX_PORT" WEB_DIST="$ROOT/web/dist" \
  ./target/debug/orchestrator serve >"$OPS/portal.log" 2>&1 &
PIDS+=($!)
wait_for "http://127.0.0.1:$PORTAL_PORT/readyz" 60 || die "the portal did not start ($OPS/portal.log)"

cat >"$OPS/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $OPS/nginx/nginx.pid;
error_log $OPS/nginx/error.log warn;
daemon off;
events { worker_connections 512; }
http {
    access_log $OPS/nginx/access.log;
    client_body_temp_path $OPS/nginx/tmp/body;
    proxy_temp_path $OPS/nginx/tmp/proxy;
    fastcgi_temp_path $OPS/nginx/tmp/fastcgi;
    uwsgi_temp_path $OPS/nginx/tmp/uwsgi;
    scgi_temp_path $OPS/nginx/tmp/scgi;
    upstream exa_portal { server 127.0.0.1:$PORTAL_PORT; keepalive 16; }
    upstream exa_sandbox { server 127.0.0.1:$SANDBOX_PORT; keepalive 4; }
    server {
        listen 127.0.0.1:$TLS_PORT ssl http2;
        ssl_certificate $OPS/proxy.crt;
        ssl_certificate_key $OPS/proxy.key;
        ssl_protocols TLSv1.2 TLSv1.3;
        proxy_bind 127.0.0.2;
        include $ROOT/deploy/nginx/exa-portal.locations.conf;
    }
    server {
        listen 127.0.0.1:$SANDBOX_TLS_PORT ssl http2;
        ssl_certificate $OPS/proxy.crt;
        ssl_certificate_key $OPS/proxy.key;
        include $ROOT/deploy/nginx/exa-sandbox.locations.conf;
    }
}
CONF
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
"$NGINX" -t -q -p "$OPS/nginx" -e "$OPS/nginx/error.log" -c "$OPS/nginx/nginx.conf" || die "nginx -t failed"
# The deployment's own file (deploy/nginx/exa.conf) passes nginx -t with its paths pointed here.
mkdir -p "$OPS/nginx/site"
cp deploy/nginx/*.locations.conf "$OPS/nginx/site/"
sed -e "s|/etc/nginx/exa/|$OPS/nginx/site/|" -e "s|/etc/ssl/exa/portal.crt|$OPS/proxy.crt|" \
  -e "s|/etc/ssl/exa/portal.key|$OPS/proxy.key|" deploy/nginx/exa.conf >"$OPS/nginx/site/exa.conf"
{
  printf 'pid %s/site.pid;\nevents {}\nhttp {\n' "$OPS/nginx"
  for kind in client_body proxy fastcgi uwsgi scgi; do printf '    %s_temp_path %s/tmp/%s;\n' "$kind" "$OPS/nginx" "$kind"; done
  printf '    include %s/site/exa.conf;\n}\n' "$OPS/nginx"
} >"$OPS/nginx/site.conf"
"$NGINX" -t -q -p "$OPS/nginx" -e "$OPS/nginx/error.log" -c "$OPS/nginx/site.conf" || die "nginx -t failed on deploy/nginx/exa.conf"
"$NGINX" -p "$OPS/nginx" -e "$OPS/nginx/error.log" -c "$OPS/nginx/nginx.conf" &
PIDS+=($!)
PROXY="https://127.0.0.1:$TLS_PORT"
CURL=(curl -sS --cacert "$OPS/ca.crt")
i=0
until "${CURL[@]}" -fo /dev/null "$PROXY/readyz" 2>/dev/null; do
  i=$((i + 1)); [ "$i" -lt 150 ] || die "nginx did not answer ($OPS/nginx/error.log)"; sleep 0.2
done

say "ops: the proxy's answers (curl, the run's CA trusted)"
check() { if [ "$2" != "$3" ]; then die "proxy check, $1: expected '$3', got '$2'"; fi; }
check "HTTP/2 over TLS" "$("${CURL[@]}" -o /dev/null -w '%{http_version}' "$PROXY/")" 2
check "HSTS on a page" "$("${CURL[@]}" -D - -o /dev/null "$PROXY/" | tr -d '\r' | grep -ci '^strict-transport-security: max-age=31536000; includeSubDomains$')" 1
check "HSTS on nginx's own 413" "$(head -c 70000 /dev/zero | "${CURL[@]}" -D - -o /dev/null -H 'content-type: application/json' --data-binary @- "$PROXY/api/attempts" | tr -d '\r' | grep -ci -e '^HTTP/2 413' -e '^strict-transport-security:')" 2
check "no /metrics in public" "$("${CURL[@]}" -o /dev/null -w '%{http_code}' "$PROXY/metrics")" 404
check "the sandbox's routes" "$("${CURL[@]}" -o /dev/null -w '%{http_code}' "https://127.0.0.1:$SANDBOX_TLS_PORT/sms?to=5511900000000")" 200
check "the admin port still answers Prometheus" "$(curl -fsS "http://127.0.0.1:$ADMIN_PORT/metrics" | grep -c '^# TYPE exa_http_responses counter$')" 1
check "no plain http on the TLS port" "$(curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$TLS_PORT/")" 400

say "ops: browser test over https through nginx (tests/proxy)"
[ -d tests/node_modules ] || npm_install "$ROOT/tests"
(cd tests && PROXY_URL="$PROXY" SANDBOX_URL="https://127.0.0.1:$SANDBOX_TLS_PORT" DIRECT_URL="http://127.0.0.1:$PORTAL_PORT" \
  E2E_DATABASE_URL="$DB_URL" npx playwright test -c playwright.proxy.config.ts)

say "ops: Prometheus scrapes the portal's admin port, with the alerting rules"
PUBLIC_PORT="$PORTAL_PORT" bash tests/ops/prometheus.sh "127.0.0.1:$ADMIN_PORT" "$PROM_PORT" "$OPS/prometheus"
say "ops: done in $((SECONDS - started)) s"
