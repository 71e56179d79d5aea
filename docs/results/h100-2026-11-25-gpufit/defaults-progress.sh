#!/usr/bin/env bash
# `glevo gp` at its defaults (mse with linear scaling, the regression set) on the GPU machine,
# quiet against the progress lines (which print the reported model every generation), twice
# each, three cells of the data of docs/results/h100-2026-11-25/gp-finish/run.sh, compute, seed 1.
#   . .gl/env.sh && docs/results/h100-2026-11-25-gpufit/defaults-progress.sh GLEVO
set -u
g=$1 d=$(mktemp -d)
python3 scripts/device/gp_sr_data.py "$d" 1000 10000 > /dev/null
for c in 10000:10000 100000:1000 10000:1000; do
  p=${c%:*} n=${c#*:}
  for mode in quiet progress quiet progress; do
    extra=--quiet; [ $mode = progress ] && extra=
    s=$("$g" gp --data "$d/sr_$n.csv" --pop "$p" --generations 50 --max-size 64 --backend compute \
        --seed 1 --json $extra 2>/dev/null |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["seconds"], d["metric"], d["best_fitness"])')
    echo "$p x $n $mode: $s"
  done
done
rm -rf "$d"
