# Shared set-up for scripts/run.sh and scripts/test.sh: sourced, not run.
# Installs what is missing (as root, from Debian's packages) and says clearly what it cannot.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PGHOME="$ROOT/.pgdata"

# Each step says when it began: CI keeps only this output, and a run's phases are timed from it.
say() { printf '\033[1;34m==>\033[0m [%s] %s\n' "$(date +%T)" "$*"; }
die() { printf '\033[1;31merror:\033[0m %s\n' "$*" >&2; exit 1; }
warn() { printf '\033[1;33mwarning:\033[0m %s\n' "$*" >&2; }
is_root() { [ "$(id -u)" = 0 ]; }

APT_UPDATED=""
apt_install() {
  is_root || die "missing: $* — install it (Debian: apt-get install $*) or run as root"
  command -v apt-get >/dev/null || die "missing: $* and no apt-get to install it"
  if [ -z "$APT_UPDATED" ]; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq || die "apt-get update failed"
    APT_UPDATED=1
  fi
  say "installing $* (Debian packages)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || die "apt-get install $* failed"
}

# Says early, in words, when the disk is short of what a run needs (a full one: about 6 GB
# for the build, the databases and the engines), instead of a linker's "Bus error" minutes in.
check_free_disk() {
  local need_gb="$1" free_kb
  free_kb="$(df -Pk "$ROOT" | awk 'NR == 2 { print $4 }')"
  say "disk: $((free_kb / 1024 / 1024)) GB free where the project is"
  [ "$free_kb" -ge $((need_gb * 1024 * 1024)) ] \
    || warn "less than $need_gb GB free: the build may run out of disk (remove old target/ folders)"
}

ensure_tools() {
  command -v cargo >/dev/null || die "missing: cargo (the Rust toolchain, https://rustup.rs)"
  command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
  command -v curl >/dev/null || apt_install curl
}

ensure_chromium() {
  [ -x /usr/bin/chromium ] || apt_install chromium
}

# The analysts' export test starts its own ClickHouse from Debian's package (replay/tests/clickhouse.rs).
ensure_clickhouse() {
  [ -x "${CLICKHOUSE_SERVER:-/usr/sbin/clickhouse-server}" ] || apt_install clickhouse-server
}

# The Parquet export's test reads the file with DuckDB from PyPI (replay/tests/parquet.rs), in a
# virtual environment of the project's own (target/ is not committed).
DUCKDB_VERSION="2.0.0"
ensure_duckdb() {
  local venv="$ROOT/target/duckdb-venv"
  if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import duckdb" 2>/dev/null; then
    say "installing DuckDB $DUCKDB_VERSION (PyPI) into target/duckdb-venv"
    python3 -m venv "$venv" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "duckdb==$DUCKDB_VERSION" || die "pip install duckdb failed"
  fi
  export DUCKDB_PYTHON="$venv/bin/python"
}

# The production pieces' tests (tests/ops/) run Debian's engines, started under target/ops/
# by the tests themselves and stopped when they end. On a machine run by systemd the packages
# start their own service when installed: stopped and disabled again, the tests need none.
quiet_service() {
  [ -d /run/systemd/system ] && command -v systemctl >/dev/null || return 0
  systemctl disable --now "$@" >/dev/null 2>&1 || true
}

ensure_nginx() {
  command -v openssl >/dev/null || apt_install openssl
  [ -x "$(command -v nginx || echo /usr/sbin/nginx)" ] && return
  apt_install nginx
  quiet_service nginx
}

ensure_prometheus() {
  command -v prometheus >/dev/null && command -v promtool >/dev/null && return
  apt_install --no-install-recommends prometheus
  quiet_service prometheus
}

ensure_pgbackrest() {
  command -v pgbackrest >/dev/null || apt_install --no-install-recommends pgbackrest
}

pg_bindir() {
  if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
    dirname "$(command -v initdb)"
    return
  fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

# Runs a command as the unprivileged user that owns our cluster (PostgreSQL refuses root).
pg_as_owner() {
  if is_root; then
    runuser -u "$PG_OS_USER" -- "$@"
  else
    "$@"
  fi
}

# Uses DATABASE_URL when set; otherwise starts a cluster of our own under .pgdata/.
# Sets DATABASE_URL and, when it started the cluster, STARTED_PG=1.
ensure_postgres() {
  STARTED_PG=""
  if [ -n "${DATABASE_URL:-}" ]; then
    say "using DATABASE_URL from the environment"
    return
  fi
  local bin
  bin="$(pg_bindir)"
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    apt_install postgresql
    bin="$(pg_bindir)"
  fi
  [ -x "$bin/initdb" ] || die "PostgreSQL's initdb was not found (PATH or /usr/lib/postgresql/*/bin)"
  PG_OS_USER="$(id -un)"
  if is_root; then
    PG_OS_USER=postgres
    id -u "$PG_OS_USER" >/dev/null 2>&1 || useradd --system --no-create-home "$PG_OS_USER" \
      || die "could not create the system user $PG_OS_USER for PostgreSQL"
  fi
  mkdir -p "$PGHOME"
  is_root && chown "$PG_OS_USER" "$PGHOME"
  if [ ! -f "$PGHOME/data/PG_VERSION" ]; then
    say "creating a PostgreSQL cluster in $PGHOME/data"
    pg_as_owner "$bin/initdb" -D "$PGHOME/data" -U postgres -A trust -E UTF8 --locale=C >/dev/null \
      || die "initdb failed"
  fi
  if pg_as_owner "$bin/pg_ctl" -D "$PGHOME/data" status >/dev/null 2>&1; then
    # Ours is already running (an earlier run that was cut short): its port is in the pid file.
    PGPORT_OWN="$(sed -n 4p "$PGHOME/data/postmaster.pid")"
  else
    # Another project's PostgreSQL may hold the usual port: take the first free one.
    PGPORT_OWN="$(free_port "${EXA_PG_PORT:-55432}")"
    say "starting PostgreSQL on 127.0.0.1:$PGPORT_OWN"
    pg_as_owner "$bin/pg_ctl" -D "$PGHOME/data" -l "$PGHOME/server.log" -w \
      -o "-p $PGPORT_OWN -k $PGHOME -c listen_addresses=127.0.0.1 -c max_connections=200 ${PG_EXTRA_OPTS:-}" start >/dev/null \
      || die "PostgreSQL did not start; see $PGHOME/server.log"
    STARTED_PG=1
  fi
  PG_BIN="$bin"
  export DATABASE_URL="postgres://postgres@127.0.0.1:$PGPORT_OWN/postgres"
}

stop_own_postgres() {
  if [ -n "${STARTED_PG:-}" ]; then
    say "stopping our PostgreSQL"
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PGHOME/data" -m fast stop >/dev/null 2>&1 || true
  fi
}

# psql for creating scratch databases; the client comes with the server packages.
ensure_psql() {
  if command -v psql >/dev/null; then PSQL=psql; return; fi
  if [ -n "${PG_BIN:-}" ] && [ -x "$PG_BIN/psql" ]; then PSQL="$PG_BIN/psql"; return; fi
  apt_install postgresql-client
  PSQL=psql
}

# The same server as DATABASE_URL, another database name.
database_url_for() {
  local name="$1" base="${DATABASE_URL%%\?*}"
  printf '%s/%s' "${base%/*}" "$name"
}

# Drops and creates a scratch database, prints its URL.
fresh_database() {
  local name="$1"
  ensure_psql
  PGOPTIONS="--client-min-messages=warning" "$PSQL" "$DATABASE_URL" -qX -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" >/dev/null \
    && "$PSQL" "$DATABASE_URL" -qX -v ON_ERROR_STOP=1 -c "CREATE DATABASE $name" >/dev/null \
    || die "could not create database $name on DATABASE_URL's server"
  database_url_for "$name"
}

npm_install() {
  local dir="$1"
  say "npm ci in ${dir#"$ROOT"/}"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed in $dir"
}

build_web() {
  npm_install "$ROOT/web"
  say "building the web app"
  (cd "$ROOT/web" && npm run --silent build) || die "web build failed"
}

# Waits until a URL answers 200, or fails after $2 seconds.
wait_for() {
  local url="$1" limit="${2:-60}" i=0
  until curl -fsS -o /dev/null "$url" 2>/dev/null; do
    i=$((i + 1))
    [ "$i" -ge $((limit * 5)) ] && return 1
    sleep 0.2
  done
}

# The first port from $1 upward that nothing on 127.0.0.1 listens on.
free_port() {
  local port="$1"
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    port=$((port + 1))
  done
  printf '%s' "$port"
}
