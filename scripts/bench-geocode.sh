#!/usr/bin/env bash
# Place search and reverse geocoding beside Nominatim 5.3, on the same Helsinki extract and the
# same queries (../shared/bench: its 30 queries and the first 200 origins of its O-D set), in one
# run: the import with its search index into a fresh store (timed), Nominatim's import and
# queries (its own script, when ../shared/bench is there), then ours.
#   bash scripts/bench-geocode.sh
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=${BIN:-$here/.build/release/openmaps}
PEERS=${PEERS_DIR:-$here/../shared/bench}
RUNS=${RUNS:-5}
store="$BENCH_CACHE/openmaps-geocode/helsinki.sqlite"
mkdir -p "$(dirname "$store")"
rm -f "$store"
echo "import with the search index: $BIN import Helsinki.osm.pbf (a fresh store, best of 3)"
best=""
for _ in 1 2 3; do
  rm -f "$store"
  start=$(date +%s.%N)
  "$BIN" import "$OPENMAPS_DATA/osm/Helsinki.osm.pbf" --store "$store" --region Helsinki >/dev/null 2>&1
  seconds=$(echo "$(date +%s.%N) - $start" | bc)
  if [ -z "$best" ] || [ "$(echo "$seconds < $best" | bc)" = 1 ]; then best=$seconds; fi
done
printf '  %.2f s, store %s bytes\n' "$best" "$(stat -c %s "$store")"
peer=""
if [ -f "$PEERS/peer-nominatim.sh" ]; then
  echo "Nominatim (bash $PEERS/peer-nominatim.sh):"
  (cd "$PEERS" && bash peer-nominatim.sh 2>&1 | tail -4) || echo "  (Nominatim did not run)"
  peer="$BENCH_CACHE/results/helsinki/nominatim-summary.json"
  [ -f "$peer" ] || peer=""
else
  echo "(../shared/bench is not here: OpenMaps' figures alone)"
fi
queries="$PEERS/geocode-helsinki.json"
od="$PEERS/od-helsinki.json"
if [ ! -f "$queries" ]; then echo "no query set at $queries" >&2; exit 0; fi
"$here/.build/release/openmaps-bench" geocode --store "$store" --queries "$queries" --od "$od" --runs "$RUNS" \
  --out "$BENCH_CACHE/openmaps-geocode" ${peer:+--peer "$peer"}
