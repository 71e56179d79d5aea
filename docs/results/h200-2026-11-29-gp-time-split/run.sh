#!/bin/bash
# Where a default `glevo gp` run's time goes on the H200 (2026-11-29): per-pass GPU time
# (--profile) beside the run's seconds at three of evogp_fullrun.py's cells, compute and
# fragment, seed 1 after a discarded run; a CPU profile (perf, where the machine has it) of
# the small cell; and the GP island job of 8 ranks on one GPU with the shader cache off.
# Usage (repository root on the GPU machine, $OUT set): run.sh GLEVO
set -u
g=$1; out=${OUT:-out}; mkdir -p "$out/data" "$out/prof"
start=$(date +%s)
log() { echo "$(( $(date +%s) - start ))s $*" | tee -a "$out/log.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 > /dev/null
log "tools: perf=$(command -v perf) gdb=$(command -v gdb) mpirun=$(command -v mpirun)"
root=""; [ "$(id -u)" -eq 0 ] && root="--allow-run-as-root"
# The island job first, while nothing of glevo's is in the driver's cache.
t0=$(date +%s.%N)
timeout 300 mpirun $root --oversubscribe --quiet --bind-to none -np 8 env __GL_SHADER_DISK_CACHE=0 \
  "$g" gp --data data/gp/projectile_train.csv --pop 2000 --generations 20 --islands \
  --migrate-every 5 --migrants 4 --seed 1 --json --quiet > "$out/islands8-cold.json" 2> "$out/islands8-cold.err"
log "islands 8 ranks cold rc=$? $(awk "BEGIN{print $(date +%s.%N) - $t0}") s"
run() { # NAME CASES POP [options]
  local name=$1 cases=$2 pop=$3; shift 3
  "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 --seed 1 \
    --quiet --json "$@" > /dev/null 2>&1
  "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 --seed 1 \
    --quiet --json --profile "$@" > "$out/prof/$name.json" 2> "$out/prof/$name.txt"
  log "$name rc=$? $(grep -o '"seconds":[0-9.]*' "$out/prof/$name.json") $(grep -o '"eval_seconds":[0-9.]*' "$out/prof/$name.json") $(grep 'all passes' "$out/prof/$name.txt")"
}
for c in 1000:100 10000:1000 100000:1000; do
  pop=${c%:*}; cases=${c#*:}
  run "compute-$pop-$cases" "$cases" "$pop" --backend compute
  run "compute-noportfolio-$pop-$cases" "$cases" "$pop" --backend compute --portfolio 0
done
run fragment-1000-100 100 1000 --backend fragment
run fragment-constopt0-1000-100 100 1000 --backend fragment --const-opt 0
run fragment-10000-1000 1000 10000 --backend fragment
run fragment-constopt0-10000-1000 1000 10000 --backend fragment --const-opt 0
if command -v perf > /dev/null; then
  perf record -g -o "$out/perf.data" "$g" gp --data "$out/data/sr_100.csv" --pop 1000 --generations 50 \
    --max-size 64 --seed 1 --quiet --backend compute > /dev/null 2>&1
  perf report -i "$out/perf.data" --no-children --stdio 2>/dev/null | head -150 > "$out/perf-1000-100.txt"
  rm -f "$out/perf.data"
fi
rm -rf "$out/data"
tar czf "$out/prof.tgz" -C "$out" prof && rm -rf "$out/prof"
log done
