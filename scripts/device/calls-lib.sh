# shellcheck shell=bash
# What the scripts of one set of device calls share (the dated ones live with their results,
# docs/results/<device>-<date>-<subject>/run.sh; sourced after `set -u`):
#   . scripts/device/calls-lib.sh DIR
# sets g (DIR/glevo) and out ($OUT, else out), the library path (DIR/lib: libsubunit), the
# test suites' data and CLI, records the GPU and its clocks in $out/gpu.txt, and defines
#   suites PATTERN LOG: each test binary of DIR matching PATTERN, pass or its failure's tail
#     (timeout 300 s each: a cold NVIDIA shader cache compiles every build a suite needs);
#   same_end A B LABEL: "SAME: LABEL" where checkpoints A and B hold the same run (their bytes
#     past the header's creation time, short of the checksum that covers it), else "DIFFERS";
#   same_cga A B FILE CONFIG...: for each CONFIG ("GRID GENERATIONS MUTATION [OPTIONS]"), one
#     `glevo cga` run (camel unless OPTIONS name another problem, compute) of DIR/A and of DIR/B
#     to an end checkpoint, and same_end of the two, a line each, also into $out/FILE;
#   constfit VARIANT SEED GENERATIONS VAR=VALUE [OPTIONS]: one whole GP run on
#     $out/data/sr_1000.csv (10^4 programs, --max-size 64, mse, compute) with VAR=VALUE in its
#     environment, twice (a seed's first run compiles its builds), the second's JSON appended
#     to $out/constfit.jsonl and its seconds printed;
#   cga_run VARIANT GRID GENERATIONS MUTATION [OPTIONS]: one `glevo cga` process (DIR/VARIANT,
#     camel unless OPTIONS name another problem, compute, --report-every the generations) -> a
#     CSV row variant,grid,generations,mutation,options,seconds,best;
#   best_ms CSV COLUMN...: the least `seconds` of CSV's rows (not "failed") for each value of
#     the COLUMNs, in ms, a line each;
#   sr NAME SUITES [OPTIONS]: the srbench harness (scripts/srbench/run.py) on SUITES, SEEDS
#     (30) seeds from SR_SEED (200), JOBS (14) processes at once, TIMEOUT (120) s a run, on
#     BACKEND (compute) -> $out/sr/NAME/{runs.csv,summary.md}, its "all" rows printed.
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

same_end() {
  if cmp -s <(tail -c +161 "$1" | head -c -4) <(tail -c +161 "$2" | head -c -4); then echo "SAME: $3"
  else echo "DIFFERS: $3"; fi
}

same_cga() {
  local a=$1 b=$2 file=$3 c v
  shift 3
  for c in "$@"; do
    # shellcheck disable=SC2086 # c splits into grid, generations, mutation and options
    set -- $c
    for v in "$a" "$b"; do
      "$dir/$v" cga --problem camel --grid "$1" --generations "$2" --mutation "$3" --quiet \
        --checkpoint "$out/same_$v.ckpt" --overwrite --backend compute "${@:4}" > /dev/null
    done
    same_end "$out/same_$a.ckpt" "$out/same_$b.ckpt" "$c"
  done | tee "$out/$file"
  rm -f "$out/same_$a.ckpt" "$out/same_$b.ckpt"
}

constfit() {
  local v=$1 s=$2 n=$3 e=$4 js
  shift 4
  for _ in 1 2; do
    js=$(env "$e" "$g" gp --data "$out/data/sr_1000.csv" --pop 10000 --generations "$n" --max-size 64 \
         --metric mse --backend compute --seed "$s" --quiet --json "$@")
  done
  echo "{\"variant\":\"$v\",\"seed\":$s,\"generations\":$n,\"run\":${js:-null}}" >> "$out/constfit.jsonl"
  python3 -c "import json,sys; print('$v', $s, $n, json.loads(sys.argv[1])['seconds'])" "${js:-null}" 2>/dev/null
}

cga_run() {
  local v=$1 grid=$2 n=$3 m=$4 js
  shift 4
  js=$("$dir/$v" cga --problem camel --grid "$grid" --generations "$n" --mutation "$m" \
       --report-every "$n" --backend compute --json --quiet "$@")
  python3 -c "import json,sys; d=json.loads(sys.argv[1]); print('$v,$grid,$n,$m,$*,%.6f,%s' % (d['seconds'], d['best_fitness']))" \
    "${js:-null}" 2>/dev/null || echo "$v,$grid,$n,$m,$*,failed,"
}

best_ms() {
  python3 - "$@" <<'PY'
import csv, sys, collections
best = collections.defaultdict(lambda: float("inf"))
for r in csv.DictReader(open(sys.argv[1])):
    if r["seconds"] != "failed":
        k = tuple(r[c] for c in sys.argv[2:])
        best[k] = min(best[k], float(r["seconds"]))
for k in sorted(best): print("%s: %.2f ms" % (" ".join(k), 1e3 * best[k]))
PY
}

# The interpreter with numpy (Debian's here, the GPU machine's own there).
py=$(for p in /usr/bin/python3 python3; do "$p" -c 'import numpy' 2> /dev/null && { echo "$p"; break; }; done)

sr() {
  local name=$1 suites=$2
  shift 2
  "$py" scripts/srbench/run.py --glevo "$g" --suite "$suites" --seeds "${SEEDS:-30}" --seed "${SR_SEED:-200}" --data-seed "${SR_SEED:-200}" \
    --jobs "${JOBS:-14}" --timeout "${TIMEOUT:-120}" --label "$name" --out "$out/sr/$name" -- \
    --backend "${BACKEND:-compute}" "$@" > "$out/sr/$name.log" 2>&1
  rm -rf "$out/sr/$name/data"
  grep "\*\*all" "$out/sr/$name/summary.md" | sed "s/^/$name /"
}
