#!/usr/bin/env bash
# Tile benchmark: Mapnik (../shared/bench/peer-mapnik.sh, both builds, PostGIS) renders every
# 256-px tile of zooms 12-16 over each extract, then openmaps-bench renders the same tiles on
# one thread and on every core, and prints both side by side with the ratios. Without the
# peer scripts it prints our figures alone.
#   bash scripts/bench-tiles.sh FILE.osm.pbf…        (RUNS=3 passes each)
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
RUNS=${RUNS:-3}
BENCH_DIR=${PEER_BENCH_DIR:-../shared/bench}
peer_results=()
if [ -f "$BENCH_DIR/peer-mapnik.sh" ]; then
  for file in "$@"; do
    dataset=$(basename "$file" | cut -d. -f1 | tr 'A-Z' 'a-z')
    echo "Mapnik on $dataset (peer-mapnik.sh, RUNS=$RUNS)…" >&2
    if DATASET=$dataset RUNS=$RUNS BACKENDS=postgis bash "$BENCH_DIR/peer-mapnik.sh" > "$BENCH_CACHE/mapnik-$dataset.log" 2>&1; then
      grep '^mapnik render' "$BENCH_CACHE/mapnik-$dataset.log" >&2 || true
    else
      echo "  Mapnik failed on $dataset; see $BENCH_CACHE/mapnik-$dataset.log" >&2
    fi
  done
  peer_results=(--peer-results "$BENCH_CACHE/results")
else
  echo "no $BENCH_DIR/peer-mapnik.sh: tiles per second without Mapnik" >&2
fi
.build/release/openmaps-bench tiles --runs "$RUNS" "${peer_results[@]}" "$@"
