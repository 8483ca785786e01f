#!/usr/bin/env bash
# Vector tile benchmark: tilemaker 2.2 (Debian, its OpenMapTiles config and process script from
# /usr/share/doc/tilemaker/examples, no shapefiles, --skip-integrity for extracts whose ways
# name nodes they leave out) and `openmaps tiles --format mvt` cut every
# tile of zooms 0-14 over each extract, in one run, one after the other on the same machine.
# tilemaker reads the PBF and writes the tiles in one go; OpenMaps imports the PBF into a store
# of its own (timed; `--no-routing`: the tiles need no routing graphs, the search index is
# built) and then cuts the tiles from it (timed): both are given, and the ratios of
# tiles a second end to end and for the tiles alone. Sizes: the tiles' bytes (gzip, as stored)
# in the MBTiles of each, and OpenMaps' PMTiles file. Peak memory: each process's maximum RSS.
#   bash scripts/bench-vector-tiles.sh FILE.osm.pbf…
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=.build/release/openmaps
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tilemaker=$(command -v tilemaker || true)
examples=/usr/share/doc/tilemaker/examples
[ -n "$tilemaker" ] || echo "tilemaker is not installed (Debian's tilemaker): OpenMaps' figures alone" >&2

# measure NAME COMMAND…: runs it under /usr/bin/time, prints "seconds peak-KB".
measure() {
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/$label.time" "$@" > "$work/$label.log" 2>&1 || { tail -n 5 "$work/$label.log" >&2; return 1; }
  tail -n 1 "$work/$label.time"
}
# tile_stats FILE.mbtiles: "tiles bytes" of its tiles table.
tile_stats() {
  python3 -c 'import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); print(*db.execute("SELECT count(*), sum(length(tile_data)) FROM tiles").fetchone())' "$1"
}

printf '%-14s %-10s %7s %9s %9s %10s %12s %9s\n' extract tool tiles seconds tiles/s "peak MB" "tile bytes" "archive"
for file in "$@"; do
  name=$(basename "$file" | cut -d. -f1 | tr 'A-Z' 'a-z')
  tm_seconds=""
  if [ -n "$tilemaker" ]; then
    cp "$examples/config-openmaptiles.json" "$examples/process-openmaptiles.lua" "$work/"
    if ! (cd "$work" && measure "tm-$name" "$tilemaker" --input "$OLDPWD/$file" --output "$work/tm-$name.mbtiles" \
      --config config-openmaptiles.json --process process-openmaptiles.lua --skip-integrity) > "$work/tm.t" 2>/dev/null
    then
      echo "$name: tilemaker failed (see its last lines below); OpenMaps alone" >&2
      tail -n 2 "$work/tm-$name.log" >&2
      tm_seconds=""
    else
      read -r tm_seconds tm_kb < "$work/tm.t"
    fi
  fi
  if [ -n "$tilemaker" ] && [ -n "$tm_seconds" ]; then
    read -r tm_tiles tm_bytes <<< "$(tile_stats "$work/tm-$name.mbtiles")"
    printf '%-14s %-10s %7d %9.2f %9.1f %10.0f %12d %9s\n' "$name" tilemaker "$tm_tiles" "$tm_seconds" \
      "$(echo "$tm_tiles / $tm_seconds" | bc -l)" "$(echo "$tm_kb / 1024" | bc -l)" "$tm_bytes" "mbtiles"
  fi
  store="$work/$name.sqlite"
  read -r import_seconds import_kb <<< "$(measure "import-$name" "$BIN" import "$file" --no-routing --store "$store")"
  read -r cut_seconds cut_kb <<< "$(measure "cut-$name" "$BIN" tiles --format mvt --zooms 0-14 --out "$work/om-$name.mbtiles" --store "$store")"
  measure "pm-$name" "$BIN" tiles --format mvt --zooms 0-14 --out "$work/om-$name.pmtiles" --store "$store" > /dev/null
  read -r om_tiles om_bytes <<< "$(tile_stats "$work/om-$name.mbtiles")"
  pm_size=$(stat -c %s "$work/om-$name.pmtiles")
  total=$(echo "$import_seconds + $cut_seconds" | bc -l)
  peak=$(( import_kb > cut_kb ? import_kb : cut_kb ))
  printf '%-14s %-10s %7d %9.2f %9.1f %10.0f %12d %9d\n' "$name" "openmaps" "$om_tiles" "$total" \
    "$(echo "$om_tiles / $total" | bc -l)" "$(echo "$peak / 1024" | bc -l)" "$om_bytes" "$pm_size"
  printf '%-14s %-10s %7s %9.2f %9.1f   (import %.2f s; cut alone, peak %.0f MB)\n' "$name" "  cut only" "" \
    "$cut_seconds" "$(echo "$om_tiles / $cut_seconds" | bc -l)" "$import_seconds" "$(echo "$cut_kb / 1024" | bc -l)"
  if [ -n "$tilemaker" ] && [ -n "$tm_seconds" ]; then
    printf '%-14s ratio: tiles/s end to end %.2f×, cut alone %.2f×; tile bytes %.2f× tilemaker'"'"'s\n' "$name" \
      "$(echo "($om_tiles / $total) / ($tm_tiles / $tm_seconds)" | bc -l)" \
      "$(echo "($om_tiles / $cut_seconds) / ($tm_tiles / $tm_seconds)" | bc -l)" \
      "$(echo "$om_bytes / $tm_bytes" | bc -l)"
  fi
done
