#!/bin/bash
# A default `glevo gp`'s first run with the shader cache off, its programs built together
# (gpu_program_batch_begin in glevo_gp_create: GL_KHR_parallel_shader_compile where the driver
# offers it), against the same run warm, on compute and fragment, three times each (every
# process starts cold with __GL_SHADER_DISK_CACHE=0); the 64x64 cGA's first run beside it;
# `glevo bench compile`; the program and GP suites on this device.
# Usage (repository root on the GPU machine, $OUT set): run.sh GLEVO TESTS
set -u
g=$1; tests=$2; out=${OUT:-out}; mkdir -p "$out/data"
start=$(date +%s)
log() { echo "$(( $(date +%s) - start ))s $*" | tee -a "$out/log.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
python3 scripts/device/gp_sr_data.py "$out/data" 100 > /dev/null
. scripts/device/gp_whole_run.sh
for b in compute fragment; do
  for k in 1 2 3; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" cold-$b 1000 100 1 __GL_SHADER_DISK_CACHE=0 --backend $b
  done
  gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warmup 1000 100 1 X=1 --backend $b
  for k in 1 2 3; do
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" warm-$b 1000 100 1 X=1 --backend $b
  done
done
for k in 1 2 3; do
  t0=$(date +%s.%N); __GL_SHADER_DISK_CACHE=0 "$g" cga --quiet > /dev/null
  log "cga 64x64 cold wall $(awk "BEGIN{print $(date +%s.%N) - $t0}")"
done
"$g" bench compile > "$out/bench-compile.txt" 2>&1
for t in "$tests"/test_*; do
  GLEVO_TEST_DATA=$PWD/data GLEVO_CLI=$g "$t" > "$out/test-$(basename "$t").txt" 2>&1
  log "$(basename "$t") rc=$? $(tail -1 "$out/test-$(basename "$t").txt")"
done
rm -rf "$out/data"
rm -f "$out"/test-*.txt
