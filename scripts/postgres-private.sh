#!/bin/sh
# A private PostgreSQL + PostGIS cluster for tests and benchmarks: initdb in a new temporary
# directory, the server on a free loopback port, a database `openmaps` with PostGIS. Prints the
# database's URL (postgresql://openmaps@127.0.0.1:PORT/openmaps) and returns; the cluster stops
# and its directory is removed when process WATCH_PID ends (default: the caller) or when the
# watcher gets SIGTERM. No system service is used and nothing is left behind.
#
# Usage: scripts/postgres-private.sh [WATCH_PID]
# As root the server runs as the `postgres` user (PostgreSQL refuses to run as root).
set -eu
watch=${1:-$PPID}
bindir=$(pg_config --bindir 2>/dev/null || true)
[ -x "$bindir/initdb" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bindir/initdb" ] || { echo "PostgreSQL's server is not installed (Debian: postgresql-15 postgresql-15-postgis-3)" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/openmaps-postgres.XXXXXX")
as=""
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "running as root needs the 'postgres' user (Debian's postgresql-common)" >&2; rm -rf "$dir"; exit 1; }
  chown postgres "$dir"
  as="runuser -u postgres --"
fi
fail() { echo "private PostgreSQL: $1 (log: $dir/log)" >&2; cat "$dir/log" >&2 2>/dev/null || true; $as "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; exit 1; }
$as "$bindir/initdb" -D "$dir/data" -U openmaps --auth=trust --encoding=UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; rm -rf "$dir"; exit 1; }
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$as "$bindir/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=256MB -c maintenance_work_mem=512MB -c max_wal_size=8GB" \
  start >/dev/null 2>&1 || fail "the server did not start"
psql() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U openmaps "$@"; }
psql -d postgres -c "CREATE DATABASE openmaps" >/dev/null || fail "cannot create the database"
psql -d openmaps -c "CREATE EXTENSION postgis" >/dev/null || fail "cannot create PostGIS"
echo "postgresql://openmaps@127.0.0.1:$port/openmaps"
# The watcher: stops the server and removes the directory when the caller is gone.
(
  trap '' HUP INT
  stop() { $as "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$dir"; exit 0; }
  trap stop TERM
  while kill -0 "$watch" 2>/dev/null; do sleep 1 & wait $!; done
  stop
) </dev/null >/dev/null 2>&1 &
