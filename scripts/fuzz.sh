#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz/, clang, ASan + UBSan) and runs each for a while.
#   scripts/fuzz.sh [SECONDS] [NAME...]    default 20 s each, every harness (fuzz_<NAME>.c)
# New inputs go to build-fuzz/corpus/NAME (the seeds in tests/fuzz/corpus/NAME stay as they
# are); a crash leaves its input in build-fuzz/artifacts/NAME/ and makes the script exit 1.
# Extra libFuzzer flags: FUZZ_ARGS="-jobs=2 -workers=2" scripts/fuzz.sh 3600 csv
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift || true
case "$seconds" in ''|*[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS] [NAME...]" >&2; exit 2 ;; esac
command -v clang >/dev/null || { echo "scripts/fuzz.sh: clang is not installed" >&2; exit 2; }

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in tests/fuzz/fuzz_*.c; do n=${f##*/fuzz_}; names+=("${n%.c}"); done
fi
targets=()
for n in "${names[@]}"; do
  [ -f "tests/fuzz/fuzz_$n.c" ] || { echo "scripts/fuzz.sh: no harness tests/fuzz/fuzz_$n.c" >&2; exit 2; }
  targets+=("fuzz_$n")
done

CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGLEVO_FUZZ=ON \
  -DGLEVO_BUILD_TESTS=OFF -DGLEVO_BUILD_DEMO=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]}" >/dev/null

failed=0
for n in "${names[@]}"; do
  mkdir -p "build-fuzz/corpus/$n" "build-fuzz/artifacts/$n"
  log="build-fuzz/fuzz_$n.log"
  # stdin from /dev/null: an #include of /dev/stdin must not wait for a terminal.
  if ./build-fuzz/"fuzz_$n" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="build-fuzz/artifacts/$n/" ${FUZZ_ARGS:-} \
       "build-fuzz/corpus/$n" "tests/fuzz/corpus/$n" </dev/null >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    echo "fuzz $n: ${runs:-?} executions in ${seconds} s, no crash" >&2
  else
    echo "fuzz $n: FAILED, see $log and build-fuzz/artifacts/$n/" >&2
    grep -m 3 -E 'ERROR|invariant|runtime error' "$log" >&2 || true
    failed=1
  fi
done
exit $failed
