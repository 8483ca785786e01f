#!/bin/sh
# Renders the map a few links open, in both schemes, into DIR (default ./demo).
set -eu
BIN=${BIN:-.build/release/openmaps}
out=${1:-demo}
mkdir -p "$out"
render() {
  name=$1; link=$2; shift 2
  echo "$ openmaps open '$link' $* -o $out/$name.png"
  "$BIN" open "$link" "$@" -o "$out/$name.png"
}
render world          'comgooglemaps://?center=20,10&zoom=2' --size 1024x600
render finland        'comgooglemaps://?center=60.5,24.9&zoom=6'
render bering-strait  'comgooglemaps://?center=60,-175&zoom=3'
render helsinki-light 'comgooglemaps://?center=60.1699,24.9384&zoom=16' --scale 2
render helsinki-dark  'comgooglemaps://?center=60.1699,24.9384&zoom=16' --scale 2 --style dark
render helsinki-none  'comgooglemaps://?center=60.1699,24.9384&zoom=16' --map-type none
render world-satellite 'comgooglemaps://?center=20,10&zoom=2&views=satellite' --size 1024x600
render alps-terrain   'comgooglemaps://?center=46.5,9&zoom=6' --map-type terrain
render helsinki-walk  'comgooglemaps://?saddr=60.1713,24.9414&daddr=60.1675,24.9530&directionsmode=walking' --style dark
