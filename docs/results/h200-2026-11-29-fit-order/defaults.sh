#!/bin/bash
# What a user types, `glevo gp --data FILE` (progress lines on stderr), against the same run
# with --quiet, before (OLD: a progress report every generation) and after (NEW: every 10
# generations and the last; the fitting walks reordered), whole default runs at the four cells,
# seeds 1-5 after a discarded run; gp.const_fit at 1000 x 100 with each build forced
# (GLEVO_GP_FIT_DERIVS 3 and 7, seeds 1-3); the GP test binaries (TESTS) with NEW; EvoGP's
# pipeline at the four cells in the same call.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp): defaults.sh OLD NEW TESTS
set -u
old=$1; new=$2; tests=$3; out=${OUT:-out}
. scripts/device/gp_whole_run.sh
evogp_build_begin
gp_call_data "$out/data"
gp_test_binaries "$tests" "$new"
for c in $GP_CELLS; do
  pop=${c%:*}; cases=${c#*:}
  for v in "old:$old" "new:$new"; do
    IFS=: read name g <<< "$v"
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "warmup-$name" "$pop" "$cases" 1 X=1
    for s in 1 2 3 4 5; do
      GP_PROGRESS=1 gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "$name" "$pop" "$cases" "$s" X=1
      gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "$name-quiet" "$pop" "$cases" "$s" X=1
    done
  done
  call_log "cell $c done"
done
for v in "old:$old" "new:$new"; do
  IFS=: read name g <<< "$v"
  for d in 3 7; do
    for s in 1 2 3; do
      GLEVO_GP_FIT_DERIVS=$d "$g" gp --data "$out/data/sr_100.csv" --pop 1000 --generations 50 \
        --max-size 64 --seed $s --quiet --profile 2>&1 | grep const_fit | sed "s/^/$name derivs $d seed $s /" >> "$out/log.txt"
    done
  done
done
evogp_fullruns 1,2,3,4,5 1000 100 10000 1000 10000 10000 100000 1000
rm -rf "$out/data"
