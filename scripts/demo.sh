#!/bin/sh
# For every link of a links file: the parsed request as JSON, then every conversion.
set -eu
links=$1
BIN=${BIN:-.build/release/openmaps}
grep -v '^#' "$links" | grep -v '^$' | while IFS= read -r link; do
  echo "================================================================"
  echo "$ openmaps url parse '$link'"
  "$BIN" url parse "$link" 2>&1 || true
  echo "$ openmaps url convert '$link' --to all"
  "$BIN" url convert "$link" --to all 2>&1 || true
  echo
done
