#!/bin/bash
# The fitting build chosen by a generation's fits (NEW: 7 derivatives a walk at most 256 fits,
# else 3) against NEW with GLEVO_GP_FIT_DERIVS=3 (always 3, the build before) and OLD (all 8
# in one walk, the day's build before that): the GP test binaries (TESTS) with NEW, whole
# default runs at 1000 x 100 and 10^4 x 1000, seeds 1-5 after a discarded run, and EvoGP's
# pipeline at those cells in the same call.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp): run.sh OLD NEW TESTS
set -u
old=$1; new=$2; tests=$3; out=${OUT:-out}; mkdir -p "$out/data"
. scripts/device/gp_whole_run.sh
evogp_build_begin
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 > /dev/null
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
gp_test_binaries "$tests" "$new"
for c in 1000:100 10000:1000; do
  pop=${c%:*}; cases=${c#*:}
  for v in "old:$old:X=1" "three:$new:GLEVO_GP_FIT_DERIVS=3" "new:$new:X=1"; do
    IFS=: read name g env <<< "$v"
    gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "warmup-$name" "$pop" "$cases" 1 "$env"
    for s in 1 2 3 4 5; do
      gp_whole_run "$out/glevo.jsonl" "$g" "$out/data" "$name" "$pop" "$cases" "$s" "$env"
    done
    env $env "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 \
      --seed 1 --quiet --profile 2>&1 | grep const_fit | sed "s/^/$name $c /" >> "$out/log.txt"
  done
  call_log "cell $c done"
done
evogp_fullruns 1,2,3,4,5 1000 100 10000 1000
rm -rf "$out/data"
