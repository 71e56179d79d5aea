# What the session scripts of the GPU machine share (sourced after `set -u`):
#   . scripts/device/session-lib.sh DIR
# sets g (DIR/glevo) and out ($OUT, else out), the library path (DIR/lib: libsubunit), the
# test suites' data and CLI, records the GPU and its clocks in $out/gpu.txt, and defines
# suites PATTERN LOG: each test binary of DIR matching PATTERN, pass or its failure's tail
# (timeout 300 s each: a cold NVIDIA shader cache compiles every build a suite needs).
dir=$1
out=${OUT:-out}
g=$dir/glevo
export LD_LIBRARY_PATH="$PWD/$dir/lib:${LD_LIBRARY_PATH:-}"
export GLEVO_TEST_DATA="$PWD/data" GLEVO_CLI="$PWD/$g"
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1

suites() {
  for t in "$dir"/$1; do
    if timeout 300 "$t" > "$out/t.txt" 2>&1; then echo "$(basename "$t") pass"; else
      echo "$(basename "$t") FAIL"; tail -20 "$out/t.txt"; fi
  done > "$out/$2"
  rm -f "$out/t.txt"
}
