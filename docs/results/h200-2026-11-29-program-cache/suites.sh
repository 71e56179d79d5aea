#!/bin/bash
# the changed areas' tests on the H200 (program cache, readable models, constant fitting's test)
out=${OUT:-out}; export GLEVO_TEST_DATA=$PWD/data GLEVO_CLI=$PWD/.prof/glevo GLEVO_PROGRAM_CACHE=$(mktemp -d)
for t in .prof/tests/test_*; do
  timeout 300 "$t" > "$out/$(basename $t).txt" 2>&1; echo "$(basename $t) rc=$? $(tail -n 1 $out/$(basename $t).txt)" | tee -a "$out/summary.txt"
done
.prof/glevo info | head -4 | tee -a "$out/summary.txt"
