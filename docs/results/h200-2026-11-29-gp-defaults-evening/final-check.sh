#!/bin/bash
# The final tree of 2026-11-29 (the library's auto default, the fragment backend's fitting kept
# on the host on a software rasterizer only) on the H200: seeds 1-3 of the two smaller cells
# and 10^4 x 10^4, compute and fragment defaults, and one cold run of each backend; the best
# errors are to equal run.sh's rows.
# Usage (repository root on the GPU machine, $OUT set): final-check.sh GLEVO
set -u
g=$1; out=${OUT:-out}; mkdir -p "$out/data"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
. scripts/device/gp_whole_run.sh
for b in compute fragment; do
  gp_whole_run "$out/final.jsonl" "$g" "$out/data" cold-$b 1000 100 1 __GL_SHADER_DISK_CACHE=0 --backend $b
done
for c in 1000:100 10000:1000 10000:10000; do
  pop=${c%:*}; cases=${c#*:}
  for b in compute fragment; do
    gp_whole_run "$out/final.jsonl" "$g" "$out/data" warmup "$pop" "$cases" 1 X=1 --backend $b
    for s in 1 2 3; do
      gp_whole_run "$out/final.jsonl" "$g" "$out/data" final-$b "$pop" "$cases" "$s" X=1 --backend $b
    done
  done
done
rm -rf "$out/data"
