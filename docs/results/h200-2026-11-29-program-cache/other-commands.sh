#!/bin/bash
# The other commands' process wall with glevo's program cache and without (NVIDIA's own cache
# warm either way), five processes each after a discarded one, on the H200.
# Usage (repository root on the GPU machine, $OUT set): other-commands.sh GLEVO
set -u
g=$1; out=${OUT:-out}; cache=$(mktemp -d)
cmds=("cga --grid 64x64 --generations 200 --quiet" "cga --grid 64x64 --generations 200 --backend fragment --quiet"
      "de --quiet" "dsmga --quiet")
for c in "${cmds[@]}"; do
  for mode in on off; do
    v=$cache; [ $mode = off ] && v=0
    # shellcheck disable=SC2086
    GLEVO_PROGRAM_CACHE=$v "$g" $c > /dev/null 2>&1
    for r in 1 2 3 4 5; do
      t0=$(date +%s.%N)
      # shellcheck disable=SC2086
      GLEVO_PROGRAM_CACHE=$v "$g" $c > /dev/null 2>&1
      echo "$c,$mode,$r,$(awk "BEGIN{print $(date +%s.%N) - $t0}")" >> "$out/other-commands.csv"
    done
  done
done
rm -rf "$cache"
