# Sourced by the bench scripts, so they work run directly on a fresh machine as well as from
# `make bench`: the project's data folder (what `make` installs into) unless OPENMAPS_DATA is
# set, the peers' scratch folder created, and the release binaries checked.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export OPENMAPS_DATA=${OPENMAPS_DATA:-$here/.data}
export BENCH_CACHE=${BENCH_CACHE:-/tmp/bench-cache}
mkdir -p "$BENCH_CACHE"
for binary in "$here/.build/release/openmaps" "$here/.build/release/openmaps-bench"; do
  [ -x "$binary" ] || { echo "$binary is missing: run 'make bench' (or swift build -c release)" >&2; exit 1; }
done
