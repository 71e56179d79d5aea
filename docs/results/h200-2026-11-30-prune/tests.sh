#!/bin/bash
# Every GP test binary of TESTS on the H200 with the repository's data and GLEVO as the CLI
# (gp_whole_run.sh's gp_test_binaries): the tree after the day's review mend.
# Usage (repository root on the GPU machine, $OUT set): tests.sh TESTS GLEVO
set -u
out=${OUT:-out}
. scripts/device/gp_whole_run.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
gp_test_binaries "$1" "$2"
tar -C "$out" -czf /tmp/call.tgz . && rm -rf "${out:?}"/* && mv /tmp/call.tgz "$out/call.tgz"
