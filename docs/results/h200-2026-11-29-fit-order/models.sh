#!/bin/bash
# The result's models on threads: OLD (built in turn) against NEW, quiet default runs at the
# two large cells and 1000 x 100, seeds 1-3 after a discarded run, the run's seconds and best
# error a line (models.txt).
# Usage (repository root on the GPU machine, $OUT set): models.sh OLD NEW
set -u
out=${OUT:-out}; mkdir -p "$out/data"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
for c in 1000:100 10000:10000 100000:1000; do
  pop=${c%:*}; cases=${c#*:}
  for v in "old:$1" "new:$2"; do
    IFS=: read name g <<< "$v"
    run() { "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --max-size 64 --seed "$1" --quiet --json |
            python3 -c 'import json,sys;d=json.load(sys.stdin);print(d["seconds"],d["best_fitness"],d["best_program"][:60])'; }
    run 1 > /dev/null
    for s in 1 2 3; do echo "$name $c $s $(run $s)" >> "$out/models.txt"; done
  done
done
rm -rf "$out/data"
