#!/usr/bin/env bash
# Constant fitting on the GPU (issue 26, shaders/gp/const_fit.glsl) on the GPU machine:
#   1. the GP suites, the pass == its CPU twin bit for bit among them (test_gp_const_opt);
#   2. the cost: whole runs of 10 000 programs x 1000 cases (gp_sr_data.py's data, 20
#      generations, compute, mse), with fitting off and on the GPU at 2, 4 and 8 iterations,
#      with linear scaling and without; a warm-up, then seeds 1-2 a cell; and 2 generations
#      fitted on the host (GLEVO_GP_HOST_CONSTFIT=1, the path it replaces: ~6 s a generation).
#      Writes $OUT/suites.log and $OUT/constfit.jsonl.
#   . .gl/env.sh && scripts/device/gp-constfit.sh GLEVO BUILD
set -u
g=$1 build=$2 out=${OUT:-out}
mkdir -p "$out/data"
export GLEVO_TEST_DATA="$PWD/data" GLEVO_CLI="$PWD/$g"
for t in "$build"/test_gp_*; do
  if timeout 120 "$t" > "$out/t.txt" 2>&1; then echo "$(basename "$t") pass"; else
    echo "$(basename "$t") FAIL"; tail -20 "$out/t.txt"; fi
done > "$out/suites.log"
rm -f "$out/t.txt"
python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
run() { # variant seed env generations [options]
  local v=$1 s=$2 e=$3 n=$4 t0 t1 js
  shift 4
  t0=$(date +%s.%N)
  js=$(env "$e" "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations "$n" --max-size 64 \
       --metric mse --backend compute --seed "$s" --quiet --json "$@")
  t1=$(date +%s.%N)
  echo "{\"variant\":\"$v\",\"seed\":$s,\"wall\":$(awk "BEGIN{print $t1 - $t0}"),\"run\":${js:-null}}" >> "$out/constfit.jsonl"
}
run warmup 1 X=1 20 --const-opt 4
for sc in scaled: plain:--no-linear-scaling; do
  name=${sc%%:*} flag=${sc#*:}
  for s in 1 2; do
    run "$name-off" "$s" X=1 20 ${flag:+"$flag"} --const-opt 0
    for it in 2 4 8; do run "$name-gpu$it" "$s" X=1 20 ${flag:+"$flag"} --const-opt "$it"; done
  done
  run "$name-host4" 1 GLEVO_GP_HOST_CONSTFIT=1 2 ${flag:+"$flag"} --const-opt 4
done
rm -rf "$out/data"
