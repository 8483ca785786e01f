#!/usr/bin/env bash
# A region catching up with its replication feed, routing graphs included, one run: for each
# extract given, SEQUENCES successive edits (each touching SHARE of the ways, as
# `openmaps-bench edits` makes them) published as a minutely feed in a folder, then applied
#  1. by `openmaps update --replication` gathering the sequences into one update (the default,
#     up to 50 MB of change files);
#  2. by the same, one sequence an update (`--max-diff-size` below one file's size);
#  3. by `osm2pgsql --append --slim` given every change file at once (no routing graphs), on a
#     private PostgreSQL 15 + PostGIS cluster (scripts/postgres-private.sh).
# Wall seconds of each, and the stores of 1 and 2 compared (features, road ways and the routing
# graphs' fingerprints, without row ids): they must hold the same.
# Usage: scripts/bench-catchup.sh FILE.osm.pbf…   (SEQUENCES=10, SHARE=0.003)
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=${BIN:-$here/.build/release/openmaps}
BENCH=${BENCH:-$here/.build/release/openmaps-bench}
SEQUENCES=${SEQUENCES:-10}
SHARE=${SHARE:-0.003}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/openmaps-bench-catchup.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
. "$here/scripts/bench-osm2pgsql.sh"
echo "== a feed of $SEQUENCES sequences caught up (wall seconds)"
printf '%-22s %9s %7s %13s %13s %8s %11s %8s %6s\n' extract sequences changes "one update" "one a sequence" ratio \
  "osm2pgsql" "ratio" same
for file in "$@"; do
  name=$(basename "$file")
  feed="$WORK/feed"
  rm -rf "$feed"
  previous=$file
  changes=0
  files=()
  start=1796558400
  for sequence in $(seq 1 "$SEQUENCES"); do
    "$BENCH" edits --in "$previous" --share "$SHARE" --seed "$sequence" --copy "$WORK/copy$sequence.osm.pbf" \
      --changes "$WORK/changes$sequence.osc" --publish "$feed" --sequence "$sequence" \
      --timestamp $((start + 60 * sequence)) >/dev/null
    changes=$((changes + $(grep -c '<\(node\|way\|relation\) ' "$WORK/changes$sequence.osc")))
    files+=("$WORK/changes$sequence.osc")
    [ "$previous" = "$file" ] || rm -f "$previous"
    previous="$WORK/copy$sequence.osm.pbf"
  done
  rm -f "$WORK/batched.sqlite" "$WORK/single.sqlite"
  "$BIN" import "$file" --store "$WORK/batched.sqlite" --region base >/dev/null 2>&1
  cp "$WORK/batched.sqlite" "$WORK/single.sqlite"
  theirs="$SERVER/theirs"
  psql "$SERVER/postgres" -c "DROP DATABASE IF EXISTS theirs" -c "CREATE DATABASE theirs TEMPLATE openmaps" >/dev/null
  psql "$theirs" -c "CREATE EXTENSION IF NOT EXISTS hstore" >/dev/null
  osm2pgsql --create --slim -d "$theirs" "$file" >/dev/null 2>&1
  b=$(seconds "$BIN" update --replication "$feed" --sequence 0 --store "$WORK/batched.sqlite")
  s=$(seconds "$BIN" update --replication "$feed" --sequence 0 --max-diff-size 0.000001 --store "$WORK/single.sqlite")
  o=$(seconds osm2pgsql --append --slim -d "$theirs" "${files[@]}")
  same=$(python3 - "$WORK/batched.sqlite" "$WORK/single.sqlite" <<'PY'
import sqlite3, sys
queries = [
    "SELECT osm_type, osm_id, class, kind, name, geometry, tags FROM feature",
    "SELECT osm_id, nodes, points, tags FROM road_way",
    "SELECT mode, fingerprint FROM road_graph",
]
stores = [sqlite3.connect(path) for path in sys.argv[1:]]
rows = lambda store, query: sorted(repr(row) for row in store.execute(query))
print("yes" if all(rows(stores[0], q) == rows(stores[1], q) for q in queries) else "NO")
PY
)
  printf '%-22s %9s %7s %12ss %13ss %8s %10ss %8s %6s\n' "$name" "$SEQUENCES" "$changes" "$b" "$s" "$(ratio "$b" "$s")" \
    "$o" "$(ratio "$b" "$o")" "$same"
  rm -f "$previous"
done
echo "(one update: openmaps update --replication, the sequences gathered into one update with its routing"
echo " graphs; one a sequence: the same, an update and a build of the graphs for each; ratio: the first over"
echo " the second; osm2pgsql: --append --slim given every change file at once, without routing graphs, and"
echo " ratio: ours, graphs included, over it; same: the two stores hold the same, table by table)"
