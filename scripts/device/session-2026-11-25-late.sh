#!/usr/bin/env bash
# The late session of 2026-11-25 on the GPU machine, one call:
#   1. every GP suite (test_gp_*; the constant fitting's pass against its twin among them);
#   2. constant fitting's cost (issue 26): 10 000 programs x 1000 cases (gp_sr_data.py),
#      10 generations, compute, mse: fitting off, on at 1, 2, 4, 8 iterations walking
#      GP_FIT_CASES spread cases (the default), and at 1 and 4 on every case
#      (GLEVO_GP_FIT_ALL_CASES=1, the build before); a warm-up, seeds 2 and 3; then one run
#      with --profile -> $OUT/constfit.jsonl, $OUT/constfit_profile.txt;
#   3. the cGA's blocked kernel (issue 25), where a dispatch's time goes: camel, per-bit,
#      --profile's GPU time a dispatch and the whole run's seconds, over depths at fixed
#      tiles -> $OUT/cga_depths.csv, $OUT/cga_profile_*.txt.
#   . .gl/env.sh && scripts/device/session-2026-11-25-late.sh DIR   (DIR: glevo, test_gp_*, lib)
set -u
dir=$1 out=${OUT:-out}
g=$dir/glevo
export LD_LIBRARY_PATH="$PWD/$dir/lib:${LD_LIBRARY_PATH:-}"
export GLEVO_TEST_DATA="$PWD/data" GLEVO_CLI="$PWD/$g"
mkdir -p "$out/data"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
for t in "$dir"/test_gp_*; do
  if timeout 150 "$t" > "$out/t.txt" 2>&1; then echo "$(basename "$t") pass"; else
    echo "$(basename "$t") FAIL"; tail -20 "$out/t.txt"; fi
done > "$out/suites.log"
rm -f "$out/t.txt"

python3 scripts/device/gp_sr_data.py "$out/data" 1000 > /dev/null
fit() { # variant seed env [options]
  local v=$1 s=$2 e=$3 t0 t1 js
  shift 3
  t0=$(date +%s.%N)
  js=$(env "$e" "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 10 --max-size 64 \
       --metric mse --backend compute --seed "$s" --quiet --json "$@")
  t1=$(date +%s.%N)
  echo "{\"variant\":\"$v\",\"seed\":$s,\"wall\":$(awk "BEGIN{print $t1 - $t0}"),\"run\":${js:-null}}" >> "$out/constfit.jsonl"
}
fit warmup 1 X=1 --const-opt 4
fit warmup-all 1 GLEVO_GP_FIT_ALL_CASES=1 --const-opt 4
for s in 2 3; do
  fit off "$s" X=1 --const-opt 0
  for it in 1 2 4 8; do fit "spread$it" "$s" X=1 --const-opt "$it"; done
  for it in 1 4; do fit "all$it" "$s" GLEVO_GP_FIT_ALL_CASES=1 --const-opt "$it"; done
done
"$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations 10 --max-size 64 --metric mse \
  --backend compute --seed 2 --quiet --const-opt 1 --profile > /dev/null 2> "$out/constfit_profile.txt"
rm -rf "$out/data"

echo "grid,generations,tile,depth,seconds,profile_dispatches,profile_us_per_dispatch" > "$out/cga_depths.csv"
cga() { # grid gens tile depth
  local args=(cga --problem camel --grid "$1" --generations "$2" --report-every "$2" --backend compute
              --quiet --block-depth "$4")
  [ "$4" != 0 ] && args+=(--block-tile "$3")
  local best=9 s
  for r in 1 2 3; do
    s=$("$g" "${args[@]}" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')
    best=$(awk "BEGIN{print ($s < $best) ? $s : $best}")
  done
  "$g" "${args[@]}" --profile > /dev/null 2> "$out/cga_profile_$1_$3_$4.txt"
  local p=$(awk '/^cga.block/{print $2","$4}' "$out/cga_profile_$1_$3_$4.txt")
  echo "$1,$2,$3,$4,$best,${p:-one-generation}"
}
"$g" cga --backend compute --grid 64x64 --generations 10 --quiet > /dev/null
{
  for d in 0 1 2 3 4 6; do cga 64x64 200 8x4 $d; done
  for d in 1 2 3; do cga 64x64 200 16x8 $d; done
  for d in 0 1 2 3 4; do cga 100x100 1000 16x8 $d; done
  for d in 0 1 2; do cga 316x316 1000 16x8 $d; done
  for d in 1 2; do cga 316x316 1000 32x16 $d; done
} >> "$out/cga_depths.csv"
