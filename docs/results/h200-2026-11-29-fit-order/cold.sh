#!/bin/bash
# The first run on a fresh machine (NVIDIA's disk cache and glevo's program cache off), the
# 1000 x 100 default cell, seed 1, twice for each binary, appended to $OUT/cold.jsonl
# (gp_whole_run.sh's rows; the calls of 2026-11-29 wrote {"variant", "seconds", "wall"}).
# Usage (repository root on the GPU machine, $OUT set): cold.sh OLD NEW
set -u
out=${OUT:-out}; mkdir -p "$out/cold-data"
. scripts/device/gp_whole_run.sh
python3 scripts/device/gp_sr_data.py "$out/cold-data" 100 > /dev/null
gp_cold_runs "$out/cold.jsonl" "$1" "$out/cold-data" old
gp_cold_runs "$out/cold.jsonl" "$2" "$out/cold-data" new
rm -rf "$out/cold-data"
