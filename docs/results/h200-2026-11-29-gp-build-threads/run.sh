#!/bin/bash
# A GP run's programs built on threads of their own with sharing EGL contexts
# (src/gl/build_threads.c), on the H200 (2026-11-29): the first default `glevo gp` run with the
# shader cache off against the same run warm, with the build threads (the default) and without
# (GLEVO_BUILD_THREADS=0), alternating, on both backends; `glevo bench compile`; the GP island
# job of 8 ranks with the cache off; the program and GP suites on this device; then the four
# cells of evogp_fullrun.py (defaults and EvoGP's algorithm, seeds 1-5) beside EvoGP's pipeline.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp): run.sh GLEVO TESTS
set -u
g=$1; tests=$2; out=${OUT:-out}; mkdir -p "$out/data"
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
    for th in 4 0; do
      gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" cold-$b-threads$th 1000 100 1 \
        "__GL_SHADER_DISK_CACHE=0 GLEVO_BUILD_THREADS=$th" --backend $b
    done
  done
done
for b in compute fragment; do
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup 1000 100 1 X=1 --backend $b
  for rep in 1 2 3; do
    for th in 4 0; do
      gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warm-$b-threads$th 1000 100 1 \
        "GLEVO_BUILD_THREADS=$th" --backend $b
    done
  done
done
log "cold and warm done"
__GL_SHADER_DISK_CACHE=0 "$g" bench compile > "$out/bench-compile.txt" 2>&1
for t in "$tests"/test_program "$tests"/test_gp_* "$tests"/test_islands_gp; do
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
  log "cell $c done"
done
wait $build
log evogp-built
# shellcheck disable=SC2046
SEEDS=1,2,3,4,5 python3 .peers/evogp_fullrun.py "$out/evogp-data" $(echo $cells | tr ':' ' ') >> "$out/evogp.jsonl" 2>> "$out/log.txt"
log evogp-done
rm -rf "$out/data" "$out/evogp-data"
tar czf "$out/tests.tgz" -C "$out" $(cd "$out" && ls test-*.txt) && rm -f "$out"/test-*.txt
