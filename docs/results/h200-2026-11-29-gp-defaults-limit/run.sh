#!/bin/bash
# The default `glevo gp` beside EvoGP's pipeline in one call, after the changes of 2026-11-29
# (constant fitting's solve with the lanes together, the enumeration on its own thread, at
# most 1024 programs fitted a generation): the four cells of evogp_fullrun.py, 50 generations,
# max size 64, gp_sr_data.py's data, seeds 1-5 (compute), 1-3 (fragment); EvoGP's algorithm
# on glevo too; the first run with the shader cache off against the same run warm on both
# backends; `glevo bench compile`; the GP suites that the changes touch, on this device first.
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
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000
. scripts/device/gp_whole_run.sh
# Cold first, before anything of glevo's is in the driver's cache; warm after a discarded run.
for b in compute fragment; do
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" cold-$b 1000 100 1 __GL_SHADER_DISK_CACHE=0 --backend $b
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup 1000 100 1 X=1 --backend $b
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warm-$b 1000 100 1 X=1 --backend $b
done
__GL_SHADER_DISK_CACHE=0 "$g" bench compile > "$out/bench-compile.txt" 2>&1
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
wait $build
log evogp-built
# shellcheck disable=SC2046
SEEDS=1,2,3,4,5 python3 .peers/evogp_fullrun.py "$out/evogp-data" $(echo $cells | tr ':' ' ') >> "$out/evogp.jsonl" 2>> "$out/log.txt"
log evogp-done
rm -rf "$out/data" "$out/evogp-data"
tar czf "$out/tests.tgz" -C "$out" $(cd "$out" && ls test-*.txt) && rm -f "$out"/test-*.txt
