#!/usr/bin/env bash
# OSM change files applied beside `osm2pgsql --append --slim`, one run, on a private
# PostgreSQL 15 + PostGIS cluster (scripts/postgres-private.sh). For each extract given:
#  1. an edited copy touching about SHARE of its ways (tags, moved nodes, split and joined
#     ways, deletions, creations) and the change file between the two (openmaps-bench edits);
#  2. the original imported by openmaps (SQLite and PostGIS) and by osm2pgsql --create --slim;
#  3. the change file applied: `openmaps update` into each store (features, index and road
#     network; then again with the routing graphs built again), `osm2pgsql --append --slim`;
#  4. the edited copy imported afresh by openmaps into SQLite, routing graphs included.
# Seconds per change file, milliseconds per thousand changes, and the ratios: ours on PostGIS
# over osm2pgsql (target ≤ 0.5), the update over a fresh import of the copy (target < 0.2).
# Usage: scripts/bench-update.sh FILE.osm.pbf…   (the edits touch TARGET=0.01 of each extract's
# elements, as the targets are set: a first set of edits of 6 % of the ways is counted and the share
# of the ways scaled to it; SHARE=F edits that share of the ways instead; `share` prints the result)
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=${BIN:-$here/.build/release/openmaps}
BENCH=${BENCH:-$here/.build/release/openmaps-bench}
SHARE=${SHARE:-}
TARGET=${TARGET:-0.01}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/openmaps-bench-update.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
. "$here/scripts/bench-osm2pgsql.sh"
per1000() { awk -v s="$1" -v n="$2" 'BEGIN { if (s == "nan" || n == 0) print "-"; else printf "%.0f", 1e6 * s / n }'; }

echo "== change files applied (seconds; ms per 1,000 changes in brackets)"
printf '%-22s %7s %6s %13s %13s %13s %8s %13s %13s %8s %9s %9s %9s %9s\n' extract changes share "SQLite" "PostGIS" \
  "osm2pgsql" "ratio" "+routing" "PostGIS+r" "ratio+r" "import" "+routing" "update/import" "+routing"
for file in "$@"; do
  name=$(basename "$file")
  elements=$("$BIN" osm info "$file" | awk '/^(nodes|ways|relations):/ { n += $2 } END { print n }')
  edits() {
    "$BENCH" edits --in "$file" --share "$1" --seed 1 --copy "$WORK/copy.osm.pbf" --changes "$WORK/changes.osc" \
      > "$WORK/edits.log"
    grep -c '<\(node\|way\|relation\) ' "$WORK/changes.osc"
  }
  wayshare=$SHARE
  if [ -z "$wayshare" ]; then
    probe=$(edits 0.06)
    wayshare=$(awk -v t="$TARGET" -v n="$elements" -v c="$probe" 'BEGIN { printf "%.4f", 0.06 * t * n / c }')
  fi
  changes=$(edits "$wayshare")
  rm -f "$WORK/s.sqlite" "$WORK/r.sqlite"
  "$BIN" import "$file" --store "$WORK/s.sqlite" --region base --no-routing >/dev/null 2>&1
  cp "$WORK/s.sqlite" "$WORK/r.sqlite"
  "$BIN" import --routing --store "$WORK/r.sqlite" >/dev/null 2>&1
  ours=$(fresh ours)
  "$BIN" import "$file" --store "$ours" --region base --no-routing >/dev/null 2>&1
  oursr=$(fresh oursr)
  "$BIN" import "$file" --store "$oursr" --region base >/dev/null 2>&1
  theirs=$(fresh theirs)
  osm2pgsql --create --slim -d "$theirs" "$file" >/dev/null 2>&1
  s=$(seconds "$BIN" update "$WORK/changes.osc" --store "$WORK/s.sqlite" --no-routing)
  p=$(seconds "$BIN" update "$WORK/changes.osc" --store "$ours" --no-routing)
  o=$(seconds osm2pgsql --append --slim -d "$theirs" "$WORK/changes.osc")
  r=$(seconds "$BIN" update "$WORK/changes.osc" --store "$WORK/r.sqlite")
  pr=$(seconds "$BIN" update "$WORK/changes.osc" --store "$oursr")
  rm -f "$WORK/copy.sqlite"
  n=$(seconds "$BIN" import "$WORK/copy.osm.pbf" --store "$WORK/copy.sqlite" --region base --no-routing)
  rm -f "$WORK/copy.sqlite"
  i=$(seconds "$BIN" import "$WORK/copy.osm.pbf" --store "$WORK/copy.sqlite" --region base)
  share=$(awk -v c="$changes" -v n="$elements" 'BEGIN { if (n > 0) printf "%.2f%%", 100 * c / n; else print "-" }')
  printf '%-22s %7s %6s %5ss [%5s] %5ss [%5s] %5ss [%5s] %8s %5ss [%5s] %5ss [%5s] %8s %8ss %8ss %9s %9s\n' "$name" \
    "$changes" "$share" "$s" "$(per1000 "$s" "$changes")" "$p" "$(per1000 "$p" "$changes")" "$o" \
    "$(per1000 "$o" "$changes")" "$(ratio "$p" "$o")" "$r" "$(per1000 "$r" "$changes")" "$pr" "$(per1000 "$pr" "$changes")" \
    "$(ratio "$pr" "$o")" "$n" "$i" "$(ratio "$s" "$n")" "$(ratio "$r" "$i")"
done
echo "(share: the changes over the extract's elements (TARGET=$TARGET unless SHARE is set; the targets are set at 1 %);"
echo " ratio: openmaps update on PostGIS over osm2pgsql --append --slim, both without routing graphs;"
echo " +routing: the SQLite update with the routing graphs built again; PostGIS+r: the PostGIS update with"
echo " them, and ratio+r its time over osm2pgsql's (target ≤ 0.5); import: the edited copy imported"
echo " afresh into SQLite, without and with its graphs; update/import: SQLite update over that import)"
