#!/bin/bash
# Whole default `glevo gp` runs before (OLD: one walk of all 8 derivatives, 26.5 KB a fit) and
# after (NEW: a vec4 of 3 derivatives and the value a stack slot, 14.3 KB a fit, a fit a
# work-group) at the four cells of evogp_fullrun.py, seeds 1-5 after a discarded run, beside
# EvoGP's pipeline in the same call; the GP test binaries (TESTS) with NEW.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp):
#   run.sh OLD NEW TESTS
set -u
old=$1; new=$2; tests=$3; out=${OUT:-out}; mkdir -p "$out/data"
start=$(date +%s)
log() { echo "$(( $(date +%s) - start ))s $*" | tee -a "$out/log.txt"; }
ls .peers/evogp/src/evogp/evogp_cuda*.so > /dev/null 2>&1 ||
(cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=10 nice -n 19 python3 setup.py build_ext \
    --inplace > /dev/null 2>&1) &
build=$!
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
. scripts/device/gp_whole_run.sh
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
for t in "$tests"/test_*; do
  GLEVO_TEST_DATA=$PWD/data GLEVO_CLI=$new "$t" > "$out/t.txt" 2>&1
  log "$(basename "$t") rc=$? $(tail -1 "$out/t.txt")"
done
for c in 1000:100 10000:1000 10000:10000 100000:1000; do
  pop=${c%:*}; cases=${c#*:}
  for g in "$old" "$new"; do
    v=$(basename "$g")
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "warmup-$v" "$pop" "$cases" 1 X=1
    for s in 1 2 3 4 5; do
      gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "$v" "$pop" "$cases" "$s" X=1
    done
  done
  log "cell $c done"
done
wait $build
log evogp-built
SEEDS=1,2,3,4,5 python3 .peers/evogp_fullrun.py "$out/evogp-data" 1000 100 10000 1000 10000 10000 100000 1000 \
  >> "$out/evogp.jsonl" 2>> "$out/log.txt"
log evogp-done
rm -rf "$out/data" "$out/evogp-data" "$out/t.txt"
