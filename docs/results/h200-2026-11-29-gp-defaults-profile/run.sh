#!/bin/bash
# Where a default `glevo gp` run spends its time on the H200 (compute), per feature and per
# pass: the 100 000 x 1000 and 1000 x 100 cells (gp_sr_data.py's data, 50 generations, max size
# 64), the defaults and the defaults with one feature off, two seeds, --profile's pass table;
# and the fragment backend's defaults at every cell (seeds 1-3) with the code of this date.
# Usage (repository root on the GPU machine, $OUT set): run.sh GLEVO
set -u
g=$1; out=${OUT:-out}; mkdir -p "$out/data" "$out/profile"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000
. scripts/device/gp_whole_run.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup 1000 100 1 X=1 --backend compute
gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup 1000 100 1 X=1 --backend fragment
for cell in 100000:1000 1000:100 10000:1000; do
  pop=${cell%:*}; cases=${cell#*:}
  for variant in defaults const-opt-0 portfolio-0 enumerate-0 no-linear-scaling; do
    case $variant in
      defaults) opts="" ;; const-opt-0) opts="--const-opt 0" ;; portfolio-0) opts="--portfolio 0" ;;
      enumerate-0) opts="--enumerate 0" ;; no-linear-scaling) opts="--no-linear-scaling" ;;
    esac
    for s in 1 2; do
      # shellcheck disable=SC2086
      gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "$variant" "$pop" "$cases" "$s" X=1 \
        --backend compute $opts
      # shellcheck disable=SC2086
      "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 \
        --seed "$s" --quiet --profile --backend compute $opts > /dev/null \
        2> "$out/profile/$variant-$pop-$cases-$s.txt"
    done
  done
done
for cell in 1000:100 10000:1000 10000:10000 100000:1000; do
  pop=${cell%:*}; cases=${cell#*:}
  for s in 1 2 3; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" fragment "$pop" "$cases" "$s" X=1 --backend fragment
  done
done
