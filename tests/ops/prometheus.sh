#!/usr/bin/env bash
# A real Prometheus (Debian's) scraping a running portal's admin port with deploy/prometheus/
# rules.yml loaded: every exa_ metric the rules name is one the portal exposes, every rule
# evaluates without error on the real series, and the response counter moves between scrapes.
# Usage: prometheus.sh ADMIN_HOST:PORT PROMETHEUS_PORT WORKDIR (tests/ops/run.sh calls it).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"
ADMIN="$1" PORT="$2" DIR="$3"
ensure_prometheus
mkdir -p "$DIR"
cat >"$DIR/prometheus.yml" <<CONF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $ROOT/deploy/prometheus/rules.yml
scrape_configs:
  - job_name: exa
    static_configs:
      - targets: ['$ADMIN']
CONF
prometheus --config.file="$DIR/prometheus.yml" --storage.tsdb.path="$DIR/data" \
  --web.listen-address="127.0.0.1:$PORT" --log.level=warn >"$DIR/prometheus.log" 2>&1 &
PROM_PID=$!
trap 'kill $PROM_PID 2>/dev/null || true; wait $PROM_PID 2>/dev/null || true' EXIT
API="http://127.0.0.1:$PORT/api/v1"

# Prints the answer's data of a GET on the API (query parameters url-encoded by curl).
api() { local path="$1"; shift; curl -fsS -G "$API/$path" "$@"; }
# Evaluates $1 (Python over `data`, the answer's data) until it is true, for up to 60 s.
wait_until() {
  local what="$1" path="$2" test="$3"; shift 3
  local i=0
  until api "$path" "$@" 2>/dev/null | python3 -c "import json,sys; data=json.load(sys.stdin)['data']; sys.exit(0 if ($test) else 1)" 2>/dev/null; do
    i=$((i + 1)); [ "$i" -lt 300 ] || die "prometheus: $what (see $DIR/prometheus.log)"; sleep 0.2
  done
}

wait_until "the portal's admin port was not scraped" query \
  'any(r["value"][1] == "1" for r in data["result"])' --data-urlencode 'query=up{job="exa"}'

# Every exa_ name in the rules is one the portal exposes: a series of it, or, for a family with
# no series until its first event (the steps given up; prometheus-client prints no line for it),
# a name the portal's registry registers (orchestrator/src/metrics/, whose unit tests print them).
for name in $(grep -o 'exa_[a-z_]*' "$ROOT/deploy/prometheus/rules.yml" | sort -u); do
  family="$(printf '%s' "$name" | sed -E 's/_(total|bucket|count|sum)$//')"
  series="$(api query --data-urlencode "query=count({__name__=\"$name\",job=\"exa\"})" \
    | python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else 0)')"
  [ "$series" != 0 ] || grep -rq "\"${family#exa_}\"," "$ROOT/orchestrator/src/metrics" \
    || die "prometheus: rules.yml names $name, which the portal does not expose"
done

# Every rule evaluated on the real series without an error.
wait_until "a rule failed or was not evaluated" rules \
  'all(r["health"] == "ok" and not r["lastEvaluation"].startswith("0001") for g in data["groups"] for r in g["rules"]) and sum(len(g["rules"]) for g in data["groups"]) == 9'
# The pool ratio of ExaDbPoolSaturated matches the real labels (one series per process).
wait_until "the pool ratio has no series" query 'len(data["result"]) == 1' \
  --data-urlencode 'query=exa_db_pool_connections{state="in_use"} / ignoring(state) exa_db_pool_max_connections'

# Every query of the Grafana dashboard is one this Prometheus evaluates (a typo is an error).
python3 -c 'import json,sys; [print(t["expr"]) for p in json.load(open(sys.argv[1]))["panels"] for t in p["targets"]]' \
  "$ROOT/deploy/grafana/exa-portal.json" | while IFS= read -r expr; do
  api query --data-urlencode "query=$expr" >/dev/null || die "prometheus: the dashboard's query does not evaluate: $expr"
done
# The deployment's own configuration is valid (its rules path pointed at this checkout's).
sed "s|/etc/prometheus/exa-rules.yml|$ROOT/deploy/prometheus/rules.yml|" "$ROOT/deploy/prometheus/prometheus.yml" \
  >"$DIR/deployment.yml"
promtool check config "$DIR/deployment.yml" >/dev/null || die "prometheus: deploy/prometheus/prometheus.yml is invalid"

# Answers counted by class move between scrapes: ten 404s of the API.
for _ in 1 2 3 4 5 6 7 8 9 10; do curl -s -o /dev/null "http://${ADMIN%:*}:${PUBLIC_PORT:?}/api/nao-existe" || true; done
wait_until "exa_http_responses_total{class=\"4xx\"} did not grow" query \
  'len(data["result"]) == 1 and float(data["result"][0]["value"][1]) >= 10' \
  --data-urlencode 'query=increase(exa_http_responses_total{class="4xx"}[1m])'
say "prometheus: scraped, rules healthy, counters moving"
