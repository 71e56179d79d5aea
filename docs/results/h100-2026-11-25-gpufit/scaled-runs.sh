#!/usr/bin/env bash
# Whole GP runs with linear scaling on the GPU machine (issue 26's scaling on the resident
# population): the data and sizes of docs/results/h100-2026-11-25/gp-finish/run.sh, `--metric mse` (scaling on) with EvoGP's operator
# set and no constant fitting, compute, a warm-up then seeds 1-3 a cell, and seed 1 bred on the
# host (GLEVO_GP_HOST_BREED=1, the path it replaces). Writes $OUT/scaled.jsonl.
#   . .gl/env.sh && docs/results/h100-2026-11-25-gpufit/scaled-runs.sh GLEVO
set -u
g=$1 out=${OUT:-out}
mkdir -p "$out/data"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
. scripts/device/gp_whole_run.sh
run() { # variant pop cases seed env
  gp_whole_run "$out/scaled.jsonl" "$g" "$out/data" "$1" "$2" "$3" "$4" "$5" --metric mse \
    --function-set +,-,*,/,neg,sin,cos --const-opt 0 --backend compute
}
for c in 1000:100 10000:1000 10000:10000 100000:1000; do
  p=${c%:*} n=${c#*:}
  run warmup "$p" "$n" 1 X=1
  for s in 1 2 3; do run resident "$p" "$n" "$s" X=1; done
  run hostbred "$p" "$n" 1 GLEVO_GP_HOST_BREED=1
done
rm -rf "$out/data"
