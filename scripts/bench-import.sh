#!/usr/bin/env bash
# Import benchmark: `openmaps import` into a fresh store next to osm2pgsql into PostGIS, same
# files, one run. Sets up a private PostgreSQL 15 cluster (port 5498, data under /tmp) when
# run as root; prints the median of RUNS wall times per tool and file, and the sizes.
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=${BIN:-.build/release/openmaps}
RUNS=${RUNS:-3}
PORT=${PGPORT:-5498}
PGDATA_DIR=${PGDATA_DIR:-/tmp/openmaps-bench-pg}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

have_postgis=no
if command -v osm2pgsql >/dev/null && command -v pg_createcluster >/dev/null; then
  if ! pg_lsclusters -h | awk '$1=="15" && $2=="openmaps"' | grep -q .; then
    pg_createcluster 15 openmaps -p "$PORT" -d "$PGDATA_DIR" >/dev/null
  fi
  pg_lsclusters -h | awk '$1=="15" && $2=="openmaps"' | grep -q online || pg_ctlcluster 15 openmaps start
  runuser -u postgres -- psql -p "$PORT" -qAtc "SELECT 1 FROM pg_roles WHERE rolname='root'" | grep -q 1 ||
    runuser -u postgres -- psql -p "$PORT" -qc "CREATE ROLE root SUPERUSER LOGIN"
  have_postgis=yes
else
  echo "osm2pgsql or PostgreSQL missing: apt-get install -y osm2pgsql postgresql postgresql-15-postgis-3" >&2
fi

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Wall seconds of a command; "nan" when it fails (its error goes to $WORK/last-error).
seconds() {
  local t0 t1
  t0=$(date +%s.%N)
  if ! "$@" >/dev/null 2>"$WORK/last-error"; then echo nan; return; fi
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}

printf '%-34s %10s %10s %12s %12s %7s\n' file openmaps osm2pgsql "store MB" "PostGIS MB" ratio
for file in "$@"; do
  ours=$(for _ in $(seq "$RUNS"); do rm -f "$WORK/store.sqlite"; seconds "$BIN" import "$file" --store "$WORK/store.sqlite"; done | median)
  store_mb=$(du -m "$WORK/store.sqlite" | cut -f1)
  theirs="-"; pg_mb="-"; ratio="-"
  if [ "$have_postgis" = yes ]; then
    theirs=$(for _ in $(seq "$RUNS"); do
      psql -p "$PORT" -d postgres -qc "DROP DATABASE IF EXISTS osmbench" >/dev/null 2>&1
      psql -p "$PORT" -d postgres -qc "CREATE DATABASE osmbench" >/dev/null
      psql -p "$PORT" -d osmbench -qc "CREATE EXTENSION postgis; CREATE EXTENSION hstore" >/dev/null
      seconds osm2pgsql --create --slim --drop --number-processes 1 -S /usr/share/osm2pgsql/default.style -d osmbench -P "$PORT" "$file"
    done | median)
    pg_mb=$(psql -p "$PORT" -d osmbench -qAtc "SELECT pg_database_size('osmbench') / 1048576")
    if [ "$theirs" = nan ]; then
      echo "osm2pgsql failed on $(basename "$file"): $(tail -1 "$WORK/last-error")" >&2
      theirs="-"; pg_mb="-"
    else
      ratio=$(printf '%.2fx' "$(echo "$ours / $theirs" | bc -l)")
      theirs=$(printf '%.3fs' "$theirs")
    fi
  fi
  # A peer that failed or is missing prints '-', never a ratio of 0.
  printf '%-34s %9.3fs %10s %12s %12s %7s\n' "$(basename "$file")" "$ours" "$theirs" "$store_mb" "$pg_mb" "$ratio"
done
