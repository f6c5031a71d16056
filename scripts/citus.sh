#!/usr/bin/env bash
# A Citus cluster on this machine for tests and benches (issue #33, decision record 0042).
#
#   scripts/citus.sh build        builds Citus 13.2.2 from ../shared/vendor into Debian's
#                                 PostgreSQL 15 when it is not installed yet (apt packages first)
#   scripts/citus.sh start DIR    a coordinator and two workers, data folders under DIR (created;
#                                 an empty temp dir), ports $CITUS_PORT (15433), +1, +2 on
#                                 127.0.0.1; prints the coordinator's DATABASE_URL last on stdout
#                                 and keeps it in DIR/url
#   scripts/citus.sh stop DIR     stops the three nodes (fast shutdown); the folder stays
#
# Runs as root (it switches to the postgres user for the server programs), like .ci/run.
# Ports below the kernel's ephemeral range (32768–60999), as for CI's other PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
PGBIN=/usr/lib/postgresql/15/bin
VENDOR=${CITUS_VENDOR:-../shared/vendor/citus-13.2.2.tar.gz}
PORT=${CITUS_PORT:-15433}
log() { echo "citus: $*" >&2; }
as_pg() { runuser -u postgres -- "$@"; }

installed() { [ -f "$($PGBIN/pg_config --pkglibdir)/citus.so" ] && [ -f "$($PGBIN/pg_config --sharedir)/extension/citus.control" ]; }

build() {
  if installed; then log "already installed ($($PGBIN/pg_config --pkglibdir)/citus.so)"; return; fi
  [ -f "$VENDOR" ] || { log "no Citus source at $VENDOR"; exit 1; }
  log "installing the build's Debian packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq postgresql-15 postgresql-server-dev-15 liblz4-dev libzstd-dev libkrb5-dev \
    build-essential >/dev/null
  local work
  work=$(mktemp -d /tmp/citus-build-XXXXXX)
  tar xzf "$VENDOR" -C "$work"
  local src
  src=$(echo "$work"/citus-*)
  # Debian's PostgreSQL 15.20 exports have_createdb_privilege(); Citus 13.2.2 still defines a
  # static copy for PostgreSQL 15 in its compat header ("static declaration follows
  # non-static declaration"). Where the server declares it, rename Citus' copy (left unused), so
  # the server's own function is called. Patched in the build folder, never in the tarball.
  if grep -q 'have_createdb_privilege' "$($PGBIN/pg_config --includedir-server)/commands/dbcommands.h"; then
    sed -i 's/^have_createdb_privilege(void)$/citus_unused_have_createdb_privilege(void)/' \
      "$src/src/include/pg_version_compat.h"
    grep -q citus_unused_have_createdb_privilege "$src/src/include/pg_version_compat.h" ||
      { log "the compat header changed: patch not applied"; exit 1; }
    log "patched pg_version_compat.h for PostgreSQL >= 15.20"
  fi
  log "configure and make (about 2 minutes on 2 cores)"
  (cd "$src" && PG_CONFIG=$PGBIN/pg_config ./configure --without-libcurl >"$work/configure.log" 2>&1 &&
    make -j"$(nproc)" >"$work/make.log" 2>&1 && make install >"$work/install.log" 2>&1) ||
    { log "build failed, logs in $work"; tail -30 "$work"/*.log >&2; exit 1; }
  rm -rf "$work"
  installed || { log "make install did not install citus.so"; exit 1; }
  log "installed"
}

start() {
  local dir=$1
  installed || { log "Citus is not installed: run $0 build"; exit 1; }
  mkdir -p "$dir"
  chmod 755 "$dir"
  chown postgres:postgres "$dir"
  local pw="citus-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
  echo "$pw" >"$dir/pw"
  # The nodes connect to each other as postgres with this password (libpq reads PGPASSFILE).
  echo "*:*:*:postgres:$pw" >"$dir/pgpass"
  chmod 600 "$dir/pw" "$dir/pgpass"
  chown postgres "$dir/pw" "$dir/pgpass"
  local i
  for i in 0 1 2; do
    local node="$dir/node$i" port=$((PORT + i))
    as_pg "$PGBIN/initdb" -D "$node" -U postgres --auth=scram-sha-256 --pwfile="$dir/pw" \
      --encoding=UTF8 >/dev/null
    cat >>"$node/postgresql.conf" <<EOF
shared_preload_libraries = 'citus'
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 300
max_prepared_transactions = 300
citus.enable_create_database_propagation = on
EOF
    as_pg env PGPASSFILE="$dir/pgpass" "$PGBIN/pg_ctl" -D "$node" -l "$dir/node$i.log" -w start >/dev/null
  done
  local url="postgresql://postgres:$pw@127.0.0.1:$PORT/postgres"
  for i in 0 1 2; do
    PGPASSWORD=$pw "$PGBIN/psql" -h 127.0.0.1 -p $((PORT + i)) -U postgres -d postgres -qAt \
      -c 'CREATE EXTENSION IF NOT EXISTS citus' >/dev/null
  done
  PGPASSWORD=$pw "$PGBIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -qAt -v ON_ERROR_STOP=1 >/dev/null <<EOF
SELECT citus_set_coordinator_host('127.0.0.1', $PORT);
SELECT citus_add_node('127.0.0.1', $((PORT + 1)));
SELECT citus_add_node('127.0.0.1', $((PORT + 2)));
EOF
  echo "$url" >"$dir/url"
  log "coordinator 127.0.0.1:$PORT, workers :$((PORT + 1)) :$((PORT + 2)), data in $dir"
  echo "$url"
}

stop() {
  local dir=$1 i
  for i in 0 1 2; do
    [ -d "$dir/node$i" ] && as_pg "$PGBIN/pg_ctl" -D "$dir/node$i" -m fast stop >/dev/null 2>&1 || true
  done
  log "stopped"
}

case "${1:-}" in
build) build ;;
start) start "${2:?usage: $0 start DIR}" ;;
stop) stop "${2:?usage: $0 stop DIR}" ;;
*)
  echo "usage: $0 build | start DIR | stop DIR" >&2
  exit 2
  ;;
esac
