#!/usr/bin/env bash
# Runs every test binary of BUILD (default build) on the GPU machine, as ctest would here, and
# writes one line per suite plus the failures' output into $OUT/suite.log. ctest itself is not
# used there: CTestTestfile.cmake holds this machine's absolute paths.
#   . .gl/env.sh && scripts/device/suite.sh [BUILD] [--large]
set -uo pipefail
build=${1:-build}
out=${OUT:-out}; mkdir -p "$out"
export GLEVO_TEST_DATA="$PWD/data" GLEVO_CLI="$PWD/$build/glevo"
[ "${2:-}" = --large ] && export GLEVO_TEST_LARGE=1
"$build/glevo" info --json > "$out/info.json" 2>&1
fails=0
for t in "$build"/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  [ "$name" = test_demo ] && continue   # needs an X server (Xvfb); not on the GPU machine
  start=$(date +%s.%N)
  if timeout 300 "$t" > "$out/$name.txt" 2>&1; then status=pass; else status=FAIL; fails=$((fails + 1)); fi
  printf "%-28s %s %s s\n" "$name" "$status" "$(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN{printf \"%.1f\", b - a}")" | tee -a "$out/suite.log"
  [ $status = FAIL ] && tail -20 "$out/$name.txt" >> "$out/suite.log"
done
echo "failed suites: $fails" | tee -a "$out/suite.log"
