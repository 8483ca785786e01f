# Sourced by the bench scripts that time OpenMaps beside osm2pgsql (import, update, catch-up):
# the tools checked, a private PostgreSQL 15 + PostGIS cluster started for the script
# (scripts/postgres-private.sh; removed when it ends), and the helpers they share. The script
# sets WORK (its scratch folder), and TOOLS for more commands it needs, before sourcing this.
for tool in osm2pgsql /usr/bin/time ${TOOLS:-}; do
  command -v "$tool" >/dev/null || { echo "missing $tool: apt-get install -y osm2pgsql osmium-tool time" >&2; exit 1; }
done
URL=$(sh "$here/scripts/postgres-private.sh" $$)
SERVER=${URL%/openmaps}
psql() { PGOPTIONS="-c client_min_messages=warning" command psql -X -q -v ON_ERROR_STOP=1 "$@"; }
# A new empty database with PostGIS (and hstore for osm2pgsql), by URL.
fresh() {
  psql "$SERVER/postgres" -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1 TEMPLATE openmaps" >/dev/null
  psql "$SERVER/$1" -c "CREATE EXTENSION IF NOT EXISTS hstore" >/dev/null
  echo "$SERVER/$1"
}
# Wall seconds of a command, or "nan" when it fails (its output in $WORK/last.log).
seconds() {
  if /usr/bin/time -f "%e" -o "$WORK/time" "$@" >"$WORK/last.log" 2>&1; then
    cat "$WORK/time"
  else
    echo "failed: $* ($(tail -1 "$WORK/last.log"))" >&2
    echo nan
  fi
}
# A over B as "0.42x", or "-" when either failed.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "nan" || b == "nan" || b == 0) print "-"; else printf "%.2fx", a / b }'; }
