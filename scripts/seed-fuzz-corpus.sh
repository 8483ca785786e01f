#!/bin/sh
# Writes each link (corpus/PREFIX-N) of a links file (comments and blank lines skipped) as one corpus file.
set -eu
links=$1
corpus=$2
prefix=${3:-seed}
n=0
grep -v '^#' "$links" | grep -v '^$' | while IFS= read -r link; do
  n=$((n + 1))
  printf '%s' "$link" > "$corpus/$prefix-$n"
done
