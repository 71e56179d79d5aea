#!/bin/bash
# The tree of 2026-11-29 night (NEW: printed models with like terms collected, the enumeration's
# cheaper hash and kept threads) against the tree before both (BASE, f279717): whole default
# runs at the four cells quiet, seeds 1-5 after a discarded run, the two builds in turn (the
# searches are the same; the printed models differ); NEW as typed at the four cells; the first
# run with every cache off (NEW); the changed areas' test binaries (TESTS); EvoGP's pipeline.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp): final.sh BASE NEW TESTS
set -u
base=$1; new=$2; tests=$3; out=${OUT:-out}
. scripts/device/gp_whole_run.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
evogp_build_begin
gp_call_data "$out/data"
GP_TYPED="new:$new" gp_cells_by_build "$out/glevo.jsonl" "$out/data" "base:$base" "new:$new"
gp_cold_runs "$out/glevo.jsonl" "$new" "$out/data" new
call_log "cold done"
gp_test_binaries "$tests" "$new"
evogp_fullruns 1,2,3,4,5 1000 100 10000 1000 10000 10000 100000 1000
rm -rf "$out/data"
tar -C "$out" -czf /tmp/call.tgz . && rm -rf "${out:?}"/* && mv /tmp/call.tgz "$out/call.tgz"
