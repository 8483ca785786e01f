#!/usr/bin/env bash
# Elevation and terrain beside GDAL's own tools on the same model, in one run: a 1″ SRTM cell
# (3601 × 3601 heights of a rolling landscape made by scripts/make-dem.py, as no registry
# ships a real one) turned into a hillshade by `gdaldem hillshade -multidirectional` and into
# 50 m contour lines by `gdal_contour` (Debian's gdal-bin), against our import of the same
# cell, the terrain's relief alone over the whole model as GDAL's tools work over the whole file
# (`openmaps-bench relief`: heights read from the store, tinted and shaded; contours traced and
# joined into lines), terrain tiles (tinted, shaded, contoured and labelled) rendered over it,
# and the normal map's tiles over the same area for scale.
#   bash scripts/bench-terrain.sh
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
work="$BENCH_CACHE/terrain"
mkdir -p "$work"
cell="$work/N43E007.hgt"
[ -f "$cell" ] || /usr/bin/python3 "$here/scripts/make-dem.py" "$cell"
seconds() { /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1; }
pixels=$((3601 * 3601))
if command -v gdaldem >/dev/null; then
  t=$(seconds gdaldem hillshade -multidirectional -q "$cell" "$work/hillshade.tif")
  echo "gdaldem hillshade -multidirectional: $t s, $(echo "$pixels / $t / 1000000" | bc -l | xargs printf %.1f) Mpixel/s"
  rm -f "$work/contours.gpkg"
  t=$(seconds gdal_contour -q -i 50 -a ele "$cell" "$work/contours.gpkg")
  lines=$(ogrinfo -so -al "$work/contours.gpkg" 2>/dev/null | awk '/Feature Count/ {print $3}')
  echo "gdal_contour -i 50: $t s, $lines lines, $(echo "$lines / $t" | bc -l | xargs printf %.0f) lines/s"
else
  echo "(gdal-bin is not installed: no GDAL figures)"
fi
store="$work/store.sqlite"
rm -f "$store"
t=$(seconds "$here/.build/release/openmaps" import "$cell" --store "$store")
echo "openmaps import (1″ cell): $t s, $(echo "$pixels / $t / 1000000" | bc -l | xargs printf %.1f) Mpixel/s"
"$here/.build/release/openmaps-bench" relief --store "$store" --interval 50 --runs 3
# Terrain tiles over the middle of the cell at zoom 13 (pixels of 13 m, as fine as the model's
# 23 m allow), and the normal map's over the same tiles.
for type in terrain normal; do
  rm -f "$work/$type.mbtiles"
  t=$(seconds "$here/.build/release/openmaps" tiles --out "$work/$type.mbtiles" --bbox 7.3,43.3,7.7,43.7 \
    --zooms 13-13 --map-type "$type" --workers 1 --store "$store")
  count=$(/usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from tiles').fetchone()[0])" "$work/$type.mbtiles")
  echo "openmaps tiles --map-type $type (zoom 13, one worker): $count tiles in $t s, $(echo "$count / $t" | bc -l | xargs printf %.1f) tiles/s, $(echo "$count * 65536 / $t / 1000000" | bc -l | xargs printf %.2f) Mpixel/s"
done
