#!/bin/bash
# Constant fitting's walks in Sethi-Ullman order (NEW: 6 stack slots a walk at 64 codes where
# the written order kept 16) against the build before (OLD): the GP test binaries (TESTS) with
# NEW; whole default runs at the four cells, seeds 1-5 after a discarded run, each binary;
# gp.const_fit's GPU time (--profile, seed 1); the first run with every shader cache off; and
# EvoGP's pipeline at the four cells in the same call.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp): run.sh OLD NEW TESTS
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
    gp_cell_runs "$out/glevo.jsonl" "$g" "$out/data" "$name" "$pop" "$cases"
    "$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 \
      --seed 1 --quiet --profile > "$out/t.txt" 2>&1
    sed "s/^/$name $c /" "$out/t.txt" >> "$out/profile.txt"
    grep const_fit "$out/t.txt" | sed "s/^/$name $c /" >> "$out/log.txt"
  done
  call_log "cell $c done"
done
# The first run on a fresh machine: NVIDIA's disk cache and glevo's program cache off.
for v in "old:$old" "new:$new"; do
  IFS=: read name g <<< "$v"
  gp_cold_runs "$out/glevo.jsonl" "$g" "$out/data" "$name"
  __GL_SHADER_DISK_CACHE=0 GLEVO_PROGRAM_CACHE=0 "$g" bench compile 2>&1 | grep -i "const_fit" |
    sed "s/^/$name compile /" >> "$out/log.txt"
done
call_log "cold done"
evogp_fullruns 1,2,3,4,5 1000 100 10000 1000 10000 10000 100000 1000
rm -rf "$out/data" "$out/t.txt"
