#!/usr/bin/env bash
# The store benchmark, one run, on a private PostgreSQL 15 + PostGIS cluster
# (scripts/postgres-private.sh: a temporary directory and port, removed at the end):
#  1. each extract given: `openmaps import` into SQLite and into PostGIS, osm2pgsql into the
#     same PostgreSQL (wall seconds and peak memory of each; ratio = ours into PostGIS / osm2pgsql);
#  2. a synthetic extract of SYNTH_NODES nodes (default 50 million, `openmaps-bench synthetic`,
#     checked by osmium): `openmaps import --node-cache` into PostGIS against osm2pgsql
#     --flat-nodes (seconds, peak memory, nodes/s);
#  3. reads from the same data in both stores (`data install` into each, the default data):
#     tiles and place searches, PostGIS's median over SQLite's.
# Usage: scripts/bench-import.sh FILE.osm.pbf…   (SYNTH_NODES=0 skips step 2)
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=${BIN:-.build/release/openmaps}
BENCH=${BENCH:-.build/release/openmaps-bench}
SYNTH_NODES=${SYNTH_NODES:-50000000}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/openmaps-bench-store.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
TOOLS=osmium . "$here/scripts/bench-osm2pgsql.sh"
# "SECONDS PEAK_MB" of a command, or "nan nan" when it fails (its output in $WORK/last.log).
measure() {
  if /usr/bin/time -f "%e %M" -o "$WORK/time" "$@" >"$WORK/last.log" 2>&1; then
    awk '{printf "%.2f %.0f\n", $1, $2 / 1024}' "$WORK/time"
  else
    echo "failed: $* ($(tail -1 "$WORK/last.log"))" >&2
    echo "nan nan"
  fi
}

echo "== imports: openmaps into SQLite and PostGIS, osm2pgsql into the same PostgreSQL (seconds, peak MB)"
printf '%-34s %16s %16s %16s %9s\n' file "SQLite" "PostGIS" "osm2pgsql" "ratio"
for file in "$@"; do
  read -r s_sec s_mb < <(measure "$BIN" import "$file" --store "$WORK/store.sqlite" --no-routing)
  rm -f "$WORK/store.sqlite"
  read -r p_sec p_mb < <(measure "$BIN" import "$file" --store "$(fresh ours)" --no-routing)
  read -r o_sec o_mb < <(measure osm2pgsql --create --slim -d "$(fresh theirs)" "$file")
  printf '%-34s %8ss %5sMB %8ss %5sMB %8ss %5sMB %9s\n' "$(basename "$file")" "$s_sec" "$s_mb" "$p_sec" "$p_mb" \
    "$o_sec" "$o_mb" "$(ratio "$p_sec" "$o_sec")"
done

if [ "$SYNTH_NODES" -gt 0 ]; then
  echo "== synthetic extract of $SYNTH_NODES nodes"
  "$BENCH" synthetic --nodes "$SYNTH_NODES" --out "$WORK/synthetic.osm.pbf"
  osmium fileinfo -e "$WORK/synthetic.osm.pbf" | grep -E "Number of (nodes|ways|relations)"
  osmium check-refs "$WORK/synthetic.osm.pbf" | tail -1
  read -r p_sec p_mb < <(measure "$BIN" import "$WORK/synthetic.osm.pbf" --store "$(fresh ours)" --no-routing \
    --node-cache "$WORK/nodes.bin")
  rm -f "$WORK/nodes.bin"
  read -r o_sec o_mb < <(measure osm2pgsql --create --slim --flat-nodes "$WORK/flat.bin" -d "$(fresh theirs)" \
    "$WORK/synthetic.osm.pbf")
  rm -f "$WORK/flat.bin"
  printf '%-28s %10s %10s %14s\n' "" seconds "peak MB" "nodes/s"
  for row in "openmaps → PostGIS:$p_sec:$p_mb" "osm2pgsql --flat-nodes:$o_sec:$o_mb"; do
    IFS=: read -r name sec mb <<<"$row"
    printf '%-28s %10s %10s %14s\n' "$name" "$sec" "$mb" \
      "$(awk -v n="$SYNTH_NODES" -v s="$sec" 'BEGIN { if (s == "nan") print "-"; else printf "%.0f", n / s }')"
  done
  echo "ratio (openmaps / osm2pgsql): $(ratio "$p_sec" "$o_sec"); peak memory target < 2048 MB"
fi

echo "== reads from the same data: SQLite against PostGIS"
"$BIN" data install --store "$WORK/reads.sqlite" >/dev/null
"$BIN" data install --store "$(fresh reads)" >/dev/null
"$BENCH" stores --sqlite "$WORK/reads.sqlite" --postgis "$SERVER/reads"
