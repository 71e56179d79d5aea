#!/bin/bash
# The default `glevo gp` at the end of 2026-11-29 on the H200: every search's GPU work issued
# before any is read back, every program of a run in its creation's batch (for generation 0's
# depth), the enumeration begun before the batch ends, and constant fitting on the GPU for the
# fragment backend's runs too. The first run with the shader cache off against warm runs on
# both backends; the GP island job of 8 ranks cold; the GP suites on this device; the four
# cells of evogp_fullrun.py (defaults and EvoGP's algorithm, seeds 1-5; the fragment defaults,
# seeds 1-3) beside EvoGP's pipeline; the features switched off one at a time and per-pass GPU
# time at the two small cells.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp): run.sh GLEVO TESTS
set -u
g=$1; tests=$2; out=${OUT:-out}; mkdir -p "$out/data" "$out/prof"
start=$(date +%s)
log() { echo "$(( $(date +%s) - start ))s $*" | tee -a "$out/log.txt"; }
ls .peers/evogp/src/evogp/evogp_cuda*.so > /dev/null 2>&1 ||
(cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=10 nice -n 19 python3 setup.py build_ext \
    --inplace > "$out/evogp-build.txt" 2>&1) &
build=$!
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
. scripts/device/gp_whole_run.sh
root=""; [ "$(id -u)" -eq 0 ] && root="--allow-run-as-root"
t0=$(date +%s.%N)
timeout 300 mpirun $root --oversubscribe --quiet --bind-to none -np 8 env __GL_SHADER_DISK_CACHE=0 \
  "$g" gp --data data/gp/projectile_train.csv --pop 2000 --generations 20 --islands \
  --migrate-every 5 --migrants 4 --seed 1 --json --quiet > "$out/islands8-cold.json" 2> "$out/islands8-cold.err"
log "islands 8 ranks cold rc=$? $(awk "BEGIN{print $(date +%s.%N) - $t0}") s"
for rep in 1 2 3; do
  for b in compute fragment; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" cold-$b 1000 100 1 __GL_SHADER_DISK_CACHE=0 --backend $b
  done
done
for b in compute fragment; do
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup 1000 100 1 X=1 --backend $b
  for rep in 1 2 3; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warm-$b 1000 100 1 X=1 --backend $b
  done
done
log "cold and warm done"
for t in "$tests"/test_*; do
  GLEVO_TEST_DATA=$PWD/data GLEVO_CLI=$g "$t" > "$out/test-$(basename "$t").txt" 2>&1
  log "$(basename "$t") rc=$? $(tail -1 "$out/test-$(basename "$t").txt")"
done
cells="1000:100 10000:1000 10000:10000 100000:1000"
for c in $cells; do
  pop=${c%:*}; cases=${c#*:}
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup "$pop" "$cases" 1 X=1 --backend compute
  # shellcheck disable=SC2086
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup "$pop" "$cases" 1 X=1 --backend compute \
    $EVOGP_ALGORITHM
  for s in 1 2 3 4 5; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" defaults "$pop" "$cases" "$s" X=1 --backend compute
    # shellcheck disable=SC2086
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" evogp-algorithm "$pop" "$cases" "$s" X=1 \
      --backend compute $EVOGP_ALGORITHM
  done
  for s in 1 2 3; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" fragment "$pop" "$cases" "$s" X=1 --backend fragment
  done
  log "cell $c done"
done
for c in 1000:100 10000:1000; do
  pop=${c%:*}; cases=${c#*:}
  for s in 1 2 3; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" portfolio0 "$pop" "$cases" "$s" X=1 --backend compute --portfolio 0
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" constopt0 "$pop" "$cases" "$s" X=1 --backend compute --const-opt 0
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" enumerate0 "$pop" "$cases" "$s" X=1 --backend compute --enumerate 0
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" nolinear "$pop" "$cases" "$s" X=1 --backend compute --no-linear-scaling
  done
  "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 --seed 1 \
    --quiet --json --profile --backend compute > "$out/prof/compute-$pop-$cases.json" 2> "$out/prof/compute-$pop-$cases.txt"
  log "features $c done"
done
wait $build
log evogp-built
# shellcheck disable=SC2046
SEEDS=1,2,3,4,5 python3 .peers/evogp_fullrun.py "$out/evogp-data" $(echo $cells | tr ':' ' ') >> "$out/evogp.jsonl" 2>> "$out/log.txt"
log evogp-done
rm -rf "$out/data" "$out/evogp-data"
tar czf "$out/more.tgz" -C "$out" prof $(cd "$out" && ls test-*.txt islands8-cold.err evogp-build.txt 2>/dev/null) &&
  rm -rf "$out/prof" "$out"/test-*.txt "$out/islands8-cold.err" "$out/evogp-build.txt"
