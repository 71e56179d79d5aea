#!/bin/bash
# Where a default run's creation goes: TIMER (timer.patch on the day's build: the host's seconds
# by phase of gp_engine_new (allocation, the fitting's data, the evaluator, the resident
# population), of each search's first generation (growth, the wait for the enumeration, its
# fitting and evaluation issued, collected), of create and of the generations), quiet, at the
# four cells, seeds 1-3 after a discarded run.
# Usage (repository root on the GPU machine, $OUT set): create.sh TIMER
set -u
timer=$1; out=${OUT:-out}; mkdir -p "$out/data"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
for c in 1000:100 10000:1000 10000:10000 100000:1000; do
  pop=${c%:*}; cases=${c#*:}
  run() { "$timer" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 --seed "$1" --quiet --json; }
  run 1 > /dev/null 2>&1
  for s in 1 2 3; do
    run $s 2> "$out/t.err" > "$out/t.json"
    echo "$c seed $s seconds $(python3 -c "import json;print(json.load(open('$out/t.json'))['seconds'])") $(grep TIMER "$out/t.err" | tr '\n' ' ')" >> "$out/create.txt"
  done
done
rm -rf "$out/data" "$out/t.json" "$out/t.err"
