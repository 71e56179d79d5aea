#!/usr/bin/env bash
# Runs every test binary of BUILD (default build) on the GPU machine, as ctest would here, and
# writes one line per suite plus the failures' output into $OUT/suite.log. ctest itself is not
# used there: CTestTestfile.cmake holds this machine's absolute paths. JOBS=N runs N suites at
# once (the GPU is shared; the timing-sensitive CLI suites then run alone, last).
#   . .gl/env.sh && [JOBS=6] scripts/device/suite.sh [BUILD] [--large]
set -uo pipefail
build=${1:-build}
out=${OUT:-out}; mkdir -p "$out/suites"
export GLEVO_TEST_DATA="$PWD/data" GLEVO_CLI="$PWD/$build/glevo" out
[ "${2:-}" = --large ] && export GLEVO_TEST_LARGE=1
"$build/glevo" info --json > "$out/info.json" 2>&1
one() { # test binary -> one line in $out/suites/NAME.line, its output in $out/NAME.txt
  local t=$1 name start status
  name=$(basename "$t")
  start=$(date +%s.%N)
  if timeout 300 "$t" > "$out/$name.txt" 2>&1; then status=pass; else status=FAIL; fi
  printf "%-28s %s %s s\n" "$name" "$status" \
    "$(awk -v a="$start" -v b="$(date +%s.%N)" "BEGIN{printf \"%.1f\", b - a}")" > "$out/suites/$name.line"
  [ $status = FAIL ] && tail -20 "$out/$name.txt" >> "$out/suites/$name.line"
  cat "$out/suites/$name.line"
}
export -f one
# test_demo needs an X server (Xvfb), absent on the GPU machine.
ls "$build"/test_* | grep -v -e '/test_demo$' -e '/test_cli_signals$' -e '/test_cli_checkpoint$' |
  xargs -P "${JOBS:-1}" -I{} bash -c 'one {}'
for t in "$build"/test_cli_signals "$build"/test_cli_checkpoint; do [ -x "$t" ] && one "$t"; done
cat "$out"/suites/*.line > "$out/suite.log"
echo "failed suites: $(grep -c ' FAIL ' "$out/suite.log")" | tee -a "$out/suite.log"
rm -rf "$out/suites"
