#!/usr/bin/env bash
# Runs on the GPU machine (see README "Performance"): device info, a profiled cGA run and the
# requested bench suites, everything logged under $OUT (or ./out). Usage:
#   . .gl/env.sh && scripts/gpu-bench.sh BUILD_DIR SUITE[:ARGS] ...
set -uo pipefail
build=$1; shift
out=${OUT:-out}; mkdir -p "$out"
glevo="$build/glevo"
"$glevo" info --json | tee "$out/info.json"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>/dev/null | tee "$out/nvidia-smi.txt"
echo "== profiled cGA, 1024x1024 camel, 200 generations" >&2
"$glevo" cga --problem camel --grid 1024x1024 --generations 200 --profile --json 2>&1 | tee "$out/cga_profile.txt"
for spec in "$@"; do
  suite=${spec%%:*}; args=""; [ "$suite" != "$spec" ] && args=${spec#*:}
  echo "== bench $suite $args" >&2
  # shellcheck disable=SC2086
  "$glevo" bench "$suite" --out "$out" $args 2>"$out/bench_$suite.err" | tee "$out/bench_$suite.md"
done
