#!/bin/bash
# What the result's noise pruning costs a whole default run: the four cells of issue 42's table,
# quiet, seeds 1-5 after a discarded run, the tree before the pruning (BASE, 479ad31) and after
# (NEW) in turn. No EvoGP here (its figures beside the same cells:
# ../h200-2026-11-29-collect/final/).
# Usage (repository root on the GPU machine, $OUT set): cells.sh BASE NEW
set -u
base=$1; new=$2; out=${OUT:-out}
. scripts/device/gp_whole_run.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
gp_call_data "$out/data"
gp_cells_by_build "$out/glevo.jsonl" "$out/data" "base:$base" "new:$new"
rm -rf "$out/data"
tar -C "$out" -czf /tmp/call.tgz . && rm -rf "${out:?}"/* && mv /tmp/call.tgz "$out/call.tgz"
