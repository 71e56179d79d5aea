#!/usr/bin/env bash
# cGA on the GPU machine: fragment vs compute at 10^4 and 10^6 individuals x 1000 generations
# (issue 13's goals: 10^6 x 1000 <= 0.35 s, 10^4 x 1000 at the launch floor), per-pass profiles,
# into $OUT/cga.csv and $OUT/cga_profile_*.txt.
#   . .gl/env.sh && scripts/device/cga.sh [BUILD]
set -uo pipefail
build=${1:-build}
out=${OUT:-out}; mkdir -p "$out"
g="$build/glevo"
echo "backend,mutation,grid,individuals,generations,seconds,us_per_generation,best,renderer" > "$out/cga.csv"
for grid in 100x100 1024x1024; do
  for mutation in per-bit skip; do
    for backend in fragment compute; do
      for rep in 1 2 3; do
        "$g" cga --problem camel --grid $grid --generations 1000 --report-every 1000 --mutation $mutation \
          --backend $backend --json --quiet 2>/dev/null | python3 -c "
import json,sys
d=json.load(sys.stdin); w,h=d['grid_width'],d['grid_height']
print(f\"{d['backend']},$mutation,$grid,{w*h},{d['generations']},{d['seconds']:.6f},{d['seconds']/d['generations']*1e6:.2f},{d['best_fitness']},{d['renderer']}\")" >> "$out/cga.csv"
      done
    done
  done
done
for backend in fragment compute; do
  "$g" cga --problem camel --grid 1024x1024 --generations 200 --report-every 200 --backend $backend \
    --profile --quiet > /dev/null 2> "$out/cga_profile_$backend.txt"
done
cat "$out/cga.csv"
