#!/bin/bash
# Every test binary of the tree on the H200 (2026-11-29, evening), after the library's params
# came to default to GLEVO_BACKEND_AUTO (zero-initialised params now run the compute engine
# here) and the fragment backend's GP runs to fit constants on the GPU.
# Usage (repository root on the GPU machine, $OUT set): run.sh GLEVO TESTS_TGZ
set -u
g=$1; out=${OUT:-out}; mkdir -p "$out/t"
tar xzf "$2" -C /tmp
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
for t in /tmp/alltests/test_*; do
  s=$(date +%s.%N)
  GLEVO_TEST_DATA=$PWD/data GLEVO_CLI=$PWD/$g timeout 300 "$t" > "$out/t/$(basename "$t").txt" 2>&1
  rc=$?
  echo "$(basename "$t") rc=$rc $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $s}")s $(tail -1 "$out/t/$(basename "$t").txt")" | tee -a "$out/summary.txt"
done
tar czf "$out/logs.tgz" -C "$out" t && rm -rf "$out/t"
