#!/bin/bash
# On the H200 with the tree of 2026-11-29 (night, like terms collected in printed models): the
# GP test binaries (stripped copies in .prof/tests), then SRBench's Feynman track at noise 0
# with a larger budget than the suite's (10 000 programs x 300 generations against 2000 x
# 100), runs 1..SEEDS of every equation, 12 at once, cut at CUT seconds (rows of the runs
# that finished in runs.partial.csv); SymPy's checks afterwards (run.py --summary-only).
# Usage (repository root on the GPU machine, $OUT set): run.sh GLEVO
set -u
glevo=$1; out=${OUT:-out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
export GLEVO_TEST_DATA=$PWD/data GLEVO_CLI=$PWD/$glevo GLEVO_PROGRAM_CACHE=$(mktemp -d)
for t in .prof/tests/test_*; do
  name=$(basename "$t")
  timeout 300 "$t" > "$out/$name.txt" 2>&1
  echo "$name rc=$? $(tail -n 1 "$out/$name.txt")" >> "$out/tests.txt"
done &
tests=$!
timeout "${CUT:-420}" python3 .prof/srbench/run.py --suite feynman --glevo "$glevo" \
  --out "$out/noise-0-p10000-g300" --seeds "${SEEDS:-3}" --jobs 12 --noise 0 --skip-symbolic \
  --timeout 200 --pop 10000 --generations 300 -- --backend compute > "$out/feynman.log" 2>&1
echo "feynman rc=$?" >> "$out/feynman.log"
wait "$tests"
rm -rf "$out/noise-0-p10000-g300/data"
# The device tool brings back a few files a call: everything goes back as one archive.
tar -C "$out" -czf /tmp/call.tgz . && rm -rf "${out:?}"/* && mv /tmp/call.tgz "$out/call.tgz"
