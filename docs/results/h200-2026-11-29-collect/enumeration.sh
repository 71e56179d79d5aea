#!/bin/bash
# The enumeration's cheaper hash and kept threads (NEW) against the build before (OLD): whole
# default runs at the four cells, quiet, seeds 1-5 after a discarded run, the two builds in
# turn (the runs must be the same: the same best errors); NEW also as typed (progress on) at
# the two small cells; EvoGP's pipeline at the four cells in the same call.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp): enumeration.sh OLD NEW
set -u
old=$1; new=$2; out=${OUT:-out}
. scripts/device/gp_whole_run.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
evogp_build_begin
gp_call_data "$out/data"
gp_cells_by_build "$out/glevo.jsonl" "$out/data" "old:$old" "new:$new"
for c in 1000:100 10000:1000; do
  GP_PROGRESS=1 gp_cell_runs "$out/glevo.jsonl" "$new" "$out/data" "new-typed" "${c%:*}" "${c#*:}"
done
call_log "typed done"
evogp_fullruns 1,2,3,4,5 1000 100 10000 1000 10000 10000 100000 1000
rm -rf "$out/data"
tar -C "$out" -czf /tmp/call.tgz . && rm -rf "${out:?}"/* && mv /tmp/call.tgz "$out/call.tgz"
