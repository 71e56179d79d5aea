#!/bin/bash
# The first run on a fresh machine (NVIDIA's disk cache and glevo's program cache off), the
# 1000 x 100 default cell, seed 1, twice for each binary, appended to $OUT/cold.jsonl.
# Usage (repository root on the GPU machine, $OUT set): cold.sh OLD NEW
set -u
out=${OUT:-out}; mkdir -p "$out/cold-data"
python3 scripts/device/gp_sr_data.py "$out/cold-data" 100 > /dev/null
for v in "old:$1" "new:$2"; do
  IFS=: read name g <<< "$v"
  for k in 1 2; do
    t0=$(date +%s.%N)
    s=$(__GL_SHADER_DISK_CACHE=0 GLEVO_PROGRAM_CACHE=0 "$g" gp --data "$out/cold-data/sr_100.csv" \
        --pop 1000 --generations 50 --max-size 64 --seed 1 --quiet --json |
        python3 -c "import json,sys;print(json.load(sys.stdin)['seconds'])")
    echo "{\"variant\":\"cold-$name\",\"seconds\":$s,\"wall\":$(awk "BEGIN{print $(date +%s.%N) - $t0}")}" >> "$out/cold.jsonl"
  done
done
rm -rf "$out/cold-data"
