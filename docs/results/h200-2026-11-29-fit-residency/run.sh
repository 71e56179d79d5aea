#!/bin/bash
# Whole default `glevo gp` runs before (OLD: one walk of all 8 derivatives, 26.5 KB a fit) and
# after (NEW: a vec4 of 3 derivatives and the value a stack slot, 14.3 KB a fit, a fit a
# work-group) at the four cells of evogp_fullrun.py, seeds 1-5 after a discarded run, beside
# EvoGP's pipeline in the same call; the GP test binaries (TESTS) with NEW.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp):
#   run.sh OLD NEW TESTS
set -u
old=$1; new=$2; tests=$3; out=${OUT:-out}; mkdir -p "$out/data"
. scripts/device/gp_whole_run.sh
evogp_build_begin
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
gp_test_binaries "$tests" "$new"
for c in 1000:100 10000:1000 10000:10000 100000:1000; do
  pop=${c%:*}; cases=${c#*:}
  for g in "$old" "$new"; do
    v=$(basename "$g")
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "warmup-$v" "$pop" "$cases" 1 X=1
    for s in 1 2 3 4 5; do
      gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "$v" "$pop" "$cases" "$s" X=1
    done
  done
  call_log "cell $c done"
done
evogp_fullruns 1,2,3,4,5 1000 100 10000 1000 10000 10000 100000 1000
rm -rf "$out/data"
