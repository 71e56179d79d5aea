#!/usr/bin/env bash
# The cGA compute goals only (10^4 and 10^6 individuals x 1000 generations, 3 runs each, per-bit
# and skip mutation) and one profile: the short form of cga.sh for a device call with other work.
#   . .gl/env.sh && scripts/device/cga-compute.sh [BUILD]
set -uo pipefail
build=${1:-build}
out=${OUT:-out}; mkdir -p "$out"
echo "backend,mutation,grid,seconds,us_per_generation,best,renderer" > "$out/cga_compute.csv"
for grid in 100x100 1024x1024; do
  for mutation in per-bit skip; do
    for rep in 1 2 3; do
      "$build/glevo" cga --problem camel --grid $grid --generations 1000 --report-every 1000 \
        --mutation $mutation --backend compute --json --quiet | python3 -c "
import json, sys
d = json.load(sys.stdin)
print(f\"compute,$mutation,$grid,{d['seconds']:.6f},{d['seconds'] / d['generations'] * 1e6:.2f},{d['best_fitness']},{d['renderer']}\")" >> "$out/cga_compute.csv"
    done
  done
done
"$build/glevo" cga --problem camel --grid 1024x1024 --generations 200 --report-every 200 \
  --backend compute --profile --quiet > /dev/null 2> "$out/cga_profile_compute.txt"
cat "$out/cga_compute.csv"
