#!/usr/bin/env bash
# Isochrones beside Valhalla's on the same points, in one run: Valhalla's tiles (its own script,
# cached), then 20 origins of the O-D set, contours 5 and 10 minutes on foot and by car, on
# each side in-process; then how much the two areas overlap (intersection over union, shapely).
#   bash scripts/bench-isochrone.sh              # DATASETS="monaco helsinki" by default
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
PEERS=${PEERS_DIR:-$here/../shared/bench}
if [ ! -f "$PEERS/peer-valhalla.sh" ]; then echo "(../shared/bench is not here: no isochrone comparison)"; exit 0; fi
for dataset in ${DATASETS:-monaco helsinki}; do
  echo "== $dataset"
  store="$BENCH_CACHE/openmaps-route/$dataset.sqlite"
  case "$dataset" in
    helsinki) pbf="$OPENMAPS_DATA/osm/Helsinki.osm.pbf" ;;
    porto) pbf="$here/../shared/data/osm/porto-roads.osm.pbf" ;;
    *) pbf="$here/../shared/data/osm/$dataset.osm.pbf" ;;
  esac
  [ -f "$store" ] || "$here/.build/release/openmaps" import "$pbf" --store "$store" --region "$dataset" >/dev/null
  config="$BENCH_CACHE/valhalla/$dataset/final/valhalla.json"
  [ -f "$config" ] || (cd "$PEERS" && DATASET=$dataset RUNS=1 BUILD_RUNS=1 bash peer-valhalla.sh >/dev/null 2>&1) ||
    echo "  (Valhalla did not build)"
  out="$BENCH_CACHE/isochrones"
  "$here/.build/release/openmaps-bench" isochrone --store "$store" --od "$PEERS/od-$dataset.json" --count 20 \
    --minutes 5,10 --runs 3 --modes walking,driving --out "$out" | tail -2
  for pair in foot:walking car:driving; do
    [ -f "$config" ] || continue
    "$BENCH_CACHE/venv-valhalla/bin/python" "$here/scripts/peer-valhalla-isochrone.py" "$config" \
      "$PEERS/od-$dataset.json" "${pair%%:*}" 20 5,10 3 "$out/valhalla-$dataset-${pair%%:*}.json" || true
    PYTHONPATH="$here/.build/python" /usr/bin/python3 "$here/scripts/compare-isochrones.py" \
      "$out/openmaps-$dataset-${pair##*:}.json" "$out/valhalla-$dataset-${pair%%:*}.json" "${pair##*:}" || true
  done
done
