#!/usr/bin/env bash
# `openmaps open` on every seed example link (800×600 points, PNG): wall time and peak
# resident memory of the whole process, median of RUNS runs, from GNU time.
#   bash scripts/bench-open.sh Examples/seed-links.txt
set -euo pipefail
. "$(dirname "$0")/bench-env.sh"
BIN=${BIN:-.build/release/openmaps}
RUNS=${RUNS:-3}
TIME=${TIME_BIN:-/usr/bin/time}
[ -x "$TIME" ] || { echo "GNU time is missing: apt-get install -y time" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-4s %8s %8s  %s\n' "#" "seconds" "peak MB" link
n=0
grep -v '^#' "$1" | grep . | while IFS= read -r link; do
  n=$((n + 1))
  for _ in $(seq "$RUNS"); do
    "$TIME" -f '%e %M' -o "$WORK/t" "$BIN" open "$link" -o "$WORK/map.png" >/dev/null 2>&1 || echo "nan nan" > "$WORK/t"
    cat "$WORK/t"
  done > "$WORK/runs"
  seconds=$(cut -d' ' -f1 "$WORK/runs" | median)
  megabytes=$(cut -d' ' -f2 "$WORK/runs" | median | awk '{printf "%.0f", $1 / 1024}')
  short=$link
  [ ${#short} -gt 90 ] && short="${short:0:87}..."
  printf '%-4s %8s %8s  %s\n' "$n" "$seconds" "$megabytes" "$short"
done
