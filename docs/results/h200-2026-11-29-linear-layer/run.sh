#!/bin/bash
# The result's linear layer (src/gp/sr/linear_layer.c) on the H200: whole default runs at the
# four cells quiet, before (OLD: the tree without the layer) and after (NEW), seeds 1-5 after a
# discarded run, for the result's cost (the searches are the same); then SRBench's Feynman
# track with NEW at the suite's budget (2000 x 100, compute, 12 runs at once), runs 1-3 of
# every equation (SEEDS=N: runs 1-N) at noise NOISE (SymPy's checks afterwards: run.py --summary-only).
# GP_OPTS: more glevo gp options for the suite's runs (e.g. --linear-layer 32).
# Usage (repository root on the GPU machine, $OUT set): run.sh OLD NEW NOISE [timing]
set -u
old=$1; new=$2; noise=$3; out=${OUT:-out}; mkdir -p "$out"
. scripts/device/gp_whole_run.sh
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
if [ "${4:-}" = timing ]; then
  gp_call_data "$out/data"
  gp_cells_by_build "$out/glevo.jsonl" "$out/data" "old:$old" "new:$new"
  rm -rf "$out/data"
fi
timeout "${CUT:-270}" python3 scripts/srbench/run.py --suite feynman --glevo "$new" --out "$out/noise-$noise" \
  --seeds "${SEEDS:-3}" --jobs 12 --noise "$noise" --skip-symbolic --timeout 60 -- --backend compute ${GP_OPTS:-} \
  > "$out/noise-$noise.log" 2>&1
call_log "noise $noise rc=$?"
rm -rf "$out/noise-$noise/data"
