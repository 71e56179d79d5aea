#!/bin/bash
# A CPU profile (perf, carried with its libraries in .prof/) of default `glevo gp` runs on the
# H200 at 1000 x 100 and 10 000 x 1000: where the host's time goes between GPU passes.
# Usage (repository root on the GPU machine, $OUT set): perf.sh GLEVO
set -u
g=$1; out=${OUT:-out}; mkdir -p "$out/data"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 > /dev/null
p() { LD_LIBRARY_PATH=$PWD/.prof/lib:${LD_LIBRARY_PATH:-} .prof/perf "$@"; }
for c in 1000:100 10000:1000; do
  pop=${c%:*}; cases=${c#*:}
  "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 --seed 1 --quiet > /dev/null 2>&1
  p record -F 20000 -g -o "$out/perf.data" "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" \
    --generations 50 --max-size 64 --seed 1 --quiet --json > "$out/run-$pop.json" 2> "$out/perf-record-$pop.txt"
  p report -i "$out/perf.data" --no-children --sort dso,symbol --stdio 2>&1 | grep -v "^$" | head -120 > "$out/perf-$pop-$cases.txt"
  p report -i "$out/perf.data" --children --sort symbol --stdio -g none 2>&1 | grep -v "^$" | head -80 > "$out/perf-children-$pop-$cases.txt"
  rm -f "$out/perf.data"
done
rm -rf "$out/data"
