#!/usr/bin/env bash
# Routing beside OSRM on the same extracts and O-D sets (../shared/bench), in one run: OSRM's
# extract + contract and its queries (its own script, CH and MLD), then OpenMaps' import (which
# keeps the road network and builds each mode's contraction hierarchy) and its queries
# in-process, then the agreement of the two on every pair (lib/compare_routes.py) for
# car/driving, foot/walking and bicycle/bicycling, 100 x 100 tables, the nearest road of every
# point and 1,000-fix map matching beside OSRM's.
#   bash scripts/bench-route.sh                 # DATASETS="helsinki monaco porto" by default
#   DATASETS=helsinki bash scripts/bench-route.sh
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=${BIN:-$here/.build/release/openmaps}
PEERS=${PEERS_DIR:-$here/../shared/bench}
RUNS=${RUNS:-3}
if [ ! -f "$PEERS/peer-osrm.sh" ]; then echo "(../shared/bench is not here: no routing comparison)"; exit 0; fi
for dataset in ${DATASETS:-helsinki monaco porto}; do
  case "$dataset" in
    helsinki) pbf="$OPENMAPS_DATA/osm/Helsinki.osm.pbf" ;;
    porto) pbf="$here/../shared/data/osm/porto-roads.osm.pbf" ;;
    *) pbf="$here/../shared/data/osm/$dataset.osm.pbf" ;;
  esac
  echo "== $dataset"
  (cd "$PEERS" && DATASET=$dataset bash peer-osrm.sh 2>&1 | grep -E "^osrm (build|query)|extract|contract" | tail -12) || echo "  (OSRM did not run)"
  store="$BENCH_CACHE/openmaps-route/$dataset.sqlite"
  mkdir -p "$(dirname "$store")"
  rm -f "$store"
  /usr/bin/time -f "openmaps import (with the road network and routing graphs): %e s, peak %M KB" \
    "$BIN" import "$pbf" --store "$store" --region "$dataset" 2>&1 | grep -E "openmaps import|routing graphs"
  "$here/.build/release/openmaps-bench" route --store "$store" --od "$PEERS/od-$dataset.json" --runs "$RUNS" \
    --out "$BENCH_CACHE/openmaps-route"
  # With turn-by-turn steps: OSRM CH with steps=true beside ours with steps and sentences.
  for pair in car:driving foot:walking bicycle:bicycling; do
    data="$BENCH_CACHE/osrm/$dataset-scs1000/${pair%%:*}/ch/data.osrm"
    [ -f "$data.hsgr" ] && "$BENCH_CACHE/venv-osrm/bin/python" "$here/scripts/peer-osrm-steps.py" "$data" \
      "$PEERS/od-$dataset.json" "${pair%%:*}" "$RUNS" || true
  done
  "$here/.build/release/openmaps-bench" route --store "$store" --od "$PEERS/od-$dataset.json" --runs "$RUNS" \
    --out "$BENCH_CACHE/openmaps-route-steps" --steps en | tail -4
  # What the steps say, beside what OSRM's say on the same routes.
  for pair in car:driving foot:walking bicycle:bicycling; do
    data="$BENCH_CACHE/osrm/$dataset-scs1000/${pair%%:*}/ch/data.osrm"
    [ -f "$data.hsgr" ] && "$BENCH_CACHE/venv-osrm/bin/python" "$here/scripts/peer-osrm-guidance.py" "$data" \
      "$PEERS/od-$dataset.json" "${pair##*:}" "$store" "$BIN" || true
  done
  # 100 x 100 tables (OSRM's table service) beside OSRM CH's on the same points, and how many
  # cells the two agree on.
  "$here/.build/release/openmaps-bench" table --store "$store" --od "$PEERS/od-$dataset.json" --size 100 \
    --runs 5 --out "$BENCH_CACHE/openmaps-tables" | tail -3
  for pair in car:driving foot:walking bicycle:bicycling; do
    data="$BENCH_CACHE/osrm/$dataset-scs1000/${pair%%:*}/ch/data.osrm"
    [ -f "$data.hsgr" ] && "$BENCH_CACHE/venv-osrm/bin/python" "$here/scripts/peer-osrm-table.py" "$data" \
      "$PEERS/od-$dataset.json" "${pair%%:*}" 100 5 "$BENCH_CACHE/openmaps-tables/osrm-$dataset-${pair%%:*}.json" \
      "$BENCH_CACHE/openmaps-tables/openmaps-$dataset-${pair##*:}.json" || true
  done
  # The nearest road (OSRM's nearest service) of every origin and destination, beside OSRM
  # CH's, and how many points both snap to the same place.
  "$here/.build/release/openmaps-bench" nearest --store "$store" --od "$PEERS/od-$dataset.json" --runs 3 \
    --out "$BENCH_CACHE/openmaps-nearest" | tail -3
  for pair in car:driving foot:walking bicycle:bicycling; do
    data="$BENCH_CACHE/osrm/$dataset-scs1000/${pair%%:*}/ch/data.osrm"
    [ -f "$data.hsgr" ] && "$BENCH_CACHE/venv-osrm/bin/python" "$here/scripts/peer-osrm-nearest.py" "$data" \
      "$PEERS/od-$dataset.json" "${pair%%:*}" 3 "$BENCH_CACHE/openmaps-nearest/openmaps-$dataset-${pair##*:}.jsonl" || true
  done
  # Map matching (OSRM's match service) on 1,000-fix traces with 10 m of noise, made from our
  # routes through the O-D points, beside OSRM CH's on the same traces, and how much of the
  # two matchers' lines agree.
  "$here/.build/release/openmaps-bench" match --store "$store" --od "$PEERS/od-$dataset.json" --traces 10 \
    --points 1000 --noise 10 --runs 3 --out "$BENCH_CACHE/openmaps-match" | tail -3
  for pair in car:driving foot:walking bicycle:bicycling; do
    data="$BENCH_CACHE/osrm/$dataset-scs1000/${pair%%:*}/ch/data.osrm"
    [ -f "$data.hsgr" ] && "$BENCH_CACHE/venv-osrm/bin/python" "$here/scripts/peer-osrm-match.py" "$data" \
      "$BENCH_CACHE/openmaps-match/traces-$dataset-${pair##*:}.json" "${pair%%:*}" 3 || true
  done
  for pair in car:driving foot:walking bicycle:bicycling; do
    peer="$BENCH_CACHE/results/$dataset/osrm-ch-${pair%%:*}.jsonl"
    ours="$BENCH_CACHE/openmaps-route/openmaps-$dataset-${pair##*:}.jsonl"
    [ -f "$peer" ] || continue
    python3 "$PEERS/lib/compare_routes.py" "$peer" "$ours" | python3 -c '
import json, sys
d = json.loads(sys.stdin.read())
print("  %-8s both %4d, OSRM only %3d, ours only %3d; duration within 10 %%: %.1f %%, ours/OSRM %.3f; distance within 10 %%: %.1f %%" % (
    sys.argv[1], d["both_ok"], d["only_a_ok"], d["only_b_ok"], 100 * d["duration_s"]["within_10pct"],
    d["duration_s"]["sum_ratio_b_over_a"], 100 * d["distance_m"]["within_10pct"]))' "${pair%%:*}"
  done
done
