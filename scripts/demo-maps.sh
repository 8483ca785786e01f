#!/bin/sh
# Renders what the maps app answers to every seed example link, a gallery of Helsinki in every
# map type, scheme and layer, and Helsinki's tiles into DIR (default ./demo), then writes
# DIR/index.html showing them all with the command that made each picture.
#   BIN=.build/release/openmaps sh scripts/demo-maps.sh demo Examples/seed-links.txt
set -eu
BIN=${BIN:-.build/release/openmaps}
out=${1:-demo}
links=${2:-Examples/seed-links.txt}
mkdir -p "$out"
figures="$out/.figures.html"
: > "$figures"

html_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'; }

# render NAME LINK [OPTIONS…]: one picture, its command and what the app printed.
render() {
  name=$1; link=$2; shift 2
  echo "$ openmaps open '$link' $* -o $out/$name.png"
  printed=$("$BIN" open "$link" "$@" -o "$out/$name.png" 2>&1) || { echo "$printed"; exit 1; }
  echo "$printed"
  {
    echo "<figure><a href=\"$name.png\"><img src=\"$name.png\" alt=\"$name\"></a>"
    printf '<figcaption><code>openmaps open %s %s</code><pre>%s</pre></figcaption></figure>\n' \
      "$(printf "'%s'" "$link" | html_escape)" "$(echo "$*" | html_escape)" "$(echo "$printed" | html_escape)"
  } >> "$figures"
}

# section ID TITLE TEXT: a heading (linkable as index.html#ID) over a grid of figures.
section() { echo "<h2 id=\"$1\">$2</h2><p>$3</p><div class=\"grid\">" >> "$figures"; }
end_section() { echo "</div>" >> "$figures"; }

# seed NAME LINK: one seed link's card: the picture, and the answer (--answer) laid out beside it.
seed() {
  name=$1; link=$2
  set -- --answer "$out/$name.json"
  # The traffic layer's links draw the example feed of the Manhattan extract.
  case "$link" in *traffic*) set -- "$@" --traffic Examples/manhattan-traffic.csv ;; esac
  echo "$ openmaps open '$link' $* -o $out/$name.png"
  printed=$("$BIN" open "$link" "$@" -o "$out/$name.png" 2>&1) || { echo "$printed"; exit 1; }
  echo "$printed"
  python3 scripts/demo-card.py "$name" "$out" "openmaps open '$link' $* -o $name.png" "$printed" >> "$figures"
}

echo '<h2 id="seed">Seed example links</h2><p>Every example link of the URL scheme document, answered on the data where it points (800 × 600 points): Manhattan and San Francisco streets from OpenStreetMap, the subway, BART, Caltrain, VTA and Toei feeds, the world basemap and GeoNames elsewhere. Beside each picture: what the link asks for, what was found, the directions’ ends and the notes on what could not be shown.</p>' >> "$figures"
n=0
grep -v '^#' "$links" | grep -v '^$' | while IFS= read -r link; do
  n=$((n + 1))
  seed "$(printf 'seed-%02d' "$n")" "$link"
done

helsinki='comgooglemaps://?center=60.1699,24.9434&zoom=16'
section types "Helsinki in every map type and scheme" "The imported OpenStreetMap extract of central Helsinki over the world basemap."
render helsinki-normal-light "$helsinki" --style light
render helsinki-normal-dark "$helsinki" --style dark
render helsinki-hybrid "$helsinki&views=satellite"
render helsinki-satellite "$helsinki" --map-type satellite
render helsinki-terrain-light "$helsinki" --map-type terrain
render helsinki-terrain-dark "$helsinki" --map-type terrain --style dark
render helsinki-none "$helsinki" --map-type none
end_section

section layers "Helsinki's layers" "Traffic (from the example feed), transit, bicycling (from OpenStreetMap's cycle tracks, lanes and routes), indoor floors with the floor picker, 3D buildings under tilt, My Location with accuracy and heading."
render helsinki-traffic "$helsinki&views=traffic" --traffic Examples/helsinki-traffic.csv
render helsinki-traffic-dark "$helsinki&views=traffic" --traffic Examples/helsinki-traffic.csv --style dark
render helsinki-transit "$helsinki&views=transit"
render helsinki-bicycling 'https://www.google.com/maps/@?api=1&map_action=map&center=60.1705,24.9410&zoom=15&layer=bicycling'
render helsinki-bicycling-dark 'https://www.google.com/maps/@?api=1&map_action=map&center=60.1705,24.9410&zoom=16&layer=bicycling' --style dark
render helsinki-indoor 'comgooglemaps://?center=60.1688,24.9405&zoom=18' --level 2
render helsinki-3d 'comgooglemaps://?center=60.1699,24.9434&zoom=17' --tilt 60 --bearing 30
render helsinki-my-location 'comgooglemaps://?center=60.1699,24.9434&zoom=17' --my-location 60.1695,24.9430 --accuracy 40 --heading 45
render helsinki-streets-2x 'comgooglemaps://?center=60.1679,24.9484&zoom=17' --scale 2
render helsinki-walk 'comgooglemaps://?saddr=60.1713,24.9414&daddr=60.1675,24.9530&directionsmode=walking' --style dark
end_section

section navigation "Turn by turn" "A directions link that navigates (dir_action=navigate): the driver's view with the banner and the panel, and the itinerary, in English, Spanish, Italian and Hindi."
nav='https://www.google.com/maps/dir/?api=1&origin=60.1699,24.9384&destination=60.1675,24.9525&travelmode=driving&dir_action=navigate'
render helsinki-navigate-en "$nav" --lang en
render helsinki-navigate-es "$nav" --lang es
render helsinki-navigate-it "$nav" --lang it
render helsinki-navigate-hi "$nav" --lang hi
end_section

section world "The world" "The world basemap at low and middle zooms, everywhere."
render world 'comgooglemaps://?center=20,10&zoom=2' --size 1024x600
render world-satellite 'comgooglemaps://?center=20,10&zoom=2&views=satellite' --size 1024x600
render finland 'comgooglemaps://?center=60.5,24.9&zoom=6'
render alps-terrain 'comgooglemaps://?center=46.5,9&zoom=6' --map-type terrain
render bering-strait 'comgooglemaps://?center=60,-175&zoom=3'
end_section

section real-rasters "Real imagery and elevation" "The real rasters the data install imports: the Landsat 7 scene of Raleigh on the satellite map, and the elevation model of Rocky Mountain National Park on the terrain map (tint, hillshade, contour lines with their heights)."
render raleigh-satellite 'comgooglemaps://?center=35.749,-78.691&zoom=13' --map-type satellite
render rockies-terrain 'comgooglemaps://?center=40.30,-105.68&zoom=11' --map-type terrain
render rockies-terrain-dark 'comgooglemaps://?center=40.38,-105.72&zoom=11' --map-type terrain --style dark
end_section

echo "$ openmaps tiles --bbox 24.9352,60.1642,24.9534,60.1791 --zooms 12-16 --out $out/helsinki.mbtiles"
tiles=$("$BIN" tiles --bbox 24.9352,60.1642,24.9534,60.1791 --zooms 12-16 --out "$out/helsinki.mbtiles" --workers 2)
echo "$tiles"
echo "$ openmaps tiles --format mvt --out $out/openmaps.pmtiles"
vector=$("$BIN" tiles --format mvt --out "$out/openmaps.pmtiles")
echo "$vector"

{
  cat <<'HEAD'
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OpenMaps demo</title>
<style>
body { font: 15px/1.4 system-ui, sans-serif; margin: 24px; color: #202124; background: #f8f9fa; }
h1 { font-size: 24px; } h2 { font-size: 19px; margin-top: 32px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(420px, 1fr)); gap: 16px; }
figure { margin: 0; background: #fff; border: 1px solid #dadce0; border-radius: 8px; padding: 8px; }
img { width: 100%; height: auto; display: block; border-radius: 4px; }
figcaption code { font-size: 12px; word-break: break-all; color: #1a73e8; }
figcaption pre { font-size: 11px; white-space: pre-wrap; word-break: break-all; color: #5f6368; margin: 4px 0 0; }
.card { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; background: #fff;
  border: 1px solid #dadce0; border-radius: 8px; padding: 12px; margin: 0 0 16px; }
@media (max-width: 900px) { .card { grid-template-columns: 1fr; } }
.card h3 { margin: 0 0 4px; font-size: 17px; } .card .form { font-weight: normal; color: #5f6368; font-size: 13px; }
.card .link code { font-size: 12px; word-break: break-all; color: #1a73e8; }
.card dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 6px 12px; margin: 8px 0; }
.card dt { font-weight: 600; color: #3c4043; } .card dd { margin: 0; }
.card ol, .card ul { margin: 0; padding-left: 18px; } .dim { color: #5f6368; font-size: 13px; }
.card .code { font: 11px ui-monospace, monospace; background: #f1f3f4; border-radius: 3px; padding: 1px 4px; }
.card pre { font-size: 11px; white-space: pre-wrap; word-break: break-all; color: #5f6368; }
</style></head><body>
<h1>OpenMaps: Google Maps links answered on open data</h1>
<p>Every picture below was rendered by <code>openmaps open</code> from the default store
(the world basemap at full detail, GeoNames places, OpenStreetMap extracts of central Helsinki,
Midtown Manhattan, the West Village and San Francisco, and the transit feeds of the seed places:
<code>openmaps data info</code> lists them). Data © OpenStreetMap contributors (ODbL),
GSHHG/WDBII, NASA Blue Marble and shaded relief, GeoNames; transit data: MTA New York City
Transit, BART, Caltrain (511 SF Bay), VTA, © 東京都交通局 (Tokyo Metropolitan Bureau of
Transportation), CC BY 4.0.</p>
HEAD
  cat "$figures"
  printf '<h2>Tiles</h2><p><code>openmaps tiles --bbox 24.9352,60.1642,24.9534,60.1791 --zooms 12-16 --out helsinki.mbtiles</code>: %s</p>\n' "$(echo "$tiles" | html_escape)"
  printf '<p><code>openmaps tiles --format mvt --out openmaps.pmtiles</code> (vector tiles of every imported region, zooms 0-14, the OpenMapTiles schema of docs/tiles.md): %s Serve them with <code>openmaps serve --tiles demo/openmaps.pmtiles</code> (<code>/tiles/vector/{z}/{x}/{y}.pbf</code>, the archive at <code>/tiles/vector.pmtiles</code>), or put the file on any static host.</p>\n' "$(echo "$vector" | html_escape)"
  echo '<p><a href="web.html">The web app on every seed link</a>: each opened through <code>/open?url=LINK</code> and drawn by MapLibre GL JS on the vector tiles.</p>'
  echo '</body></html>'
} > "$out/index.html"
rm -f "$figures"
echo "wrote $out/index.html"
