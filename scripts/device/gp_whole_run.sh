# Sourced by the whole-run GP scripts (gp-defaults.sh here; the dated runs under docs/results/,
# e.g. h200-2026-11-29-fit-order/run.sh) after they set `out` (their output folder): one
# `glevo gp` run of 50 generations, max size 64, on gp_sr_data.py's data, appended to a JSON
# lines file as {"variant", "pop", "cases", "seed", "wall", "run": the run's --json or null}.
#   gp_whole_run JSONL GLEVO DATA_DIR VARIANT POP CASES SEED ENV [glevo gp options...]
# ENV is the run's environment: NAME=VALUE words, space-separated (X=1 for none). With
# GP_PROGRESS=1 the run is as a user types it: its progress lines on (to /dev/null), not
# --quiet. And what
# those scripts share around their runs:
#   call_log WORDS...: "<seconds since sourcing>s WORDS" to stdout and $out/log.txt;
#   evogp_build_begin: EvoGP's CUDA extension built in the background where .peers/evogp lacks
#     it (about 70 s on the H200 machine, beside glevo's runs);
#   evogp_fullruns SEEDS POP CASES [POP CASES...]: once that build is done, EvoGP's pipeline
#     (../shared/peers/evogp_fullrun.py) at each cell for each seed -> $out/evogp.jsonl;
#   gp_test_binaries TESTS GLEVO: each test binary TESTS/test_* (the repository's data, GLEVO
#     as the CLI), its exit status and last line logged.
#   gp_call_data DIR: gp_sr_data.py's data for the four cells in DIR (torch, on the GPU
#     machine), and a program cache of the call's own where none is set (GLEVO_PROGRAM_CACHE);
#   GP_CELLS: the four cells (programs:cases) of evogp_fullrun.py;
#   gp_cell_runs JSONL GLEVO DATA_DIR VARIANT POP CASES: a discarded run ("warmup-VARIANT"),
#     then seeds 1-5 as VARIANT;
#   gp_cells_by_build JSONL DATA_DIR NAME:GLEVO...: at each cell of GP_CELLS, gp_cell_runs of
#     each build in turn as NAME-quiet, then the cell logged; with GP_TYPED=NAME:GLEVO also that
#     build's runs as typed (progress on) at each cell, as NAME-typed;
#   gp_cold_runs JSONL GLEVO DATA_DIR VARIANT: the first run on a fresh machine, the 1000 x 100
#     cell's seed 1 twice with NVIDIA's disk cache and glevo's program cache off
#     ("cold-VARIANT").
call_start=$(date +%s)
call_log() { echo "$(( $(date +%s) - call_start ))s $*" | tee -a "$out/log.txt"; }

evogp_build_begin() {
  ls .peers/evogp/src/evogp/evogp_cuda*.so > /dev/null 2>&1 ||
  (cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=10 nice -n 19 python3 setup.py build_ext \
      --inplace > /dev/null 2>&1) &
  evogp_build=$!
}

evogp_fullruns() {
  local seeds=$1
  shift
  wait "$evogp_build"
  call_log evogp-built
  SEEDS=$seeds python3 .peers/evogp_fullrun.py "$out/evogp-data" "$@" >> "$out/evogp.jsonl" \
    2>> "$out/log.txt"
  call_log evogp-done
  rm -rf "$out/evogp-data"
}

GP_CELLS="1000:100 10000:1000 10000:10000 100000:1000"

gp_call_data() {
  mkdir -p "$1"
  python3 scripts/device/gp_sr_data.py "$1" 100 1000 10000 > /dev/null
  GLEVO_PROGRAM_CACHE=${GLEVO_PROGRAM_CACHE:-$(mktemp -d)}
  export GLEVO_PROGRAM_CACHE
}

gp_test_binaries() {
  local t
  for t in "$1"/test_*; do
    GLEVO_TEST_DATA=$PWD/data GLEVO_CLI=$2 "$t" > "$out/t.txt" 2>&1
    call_log "$(basename "$t") rc=$? $(tail -1 "$out/t.txt")"
  done
  rm -f "$out/t.txt"
}

# EvoGP's pipeline's algorithm (../shared/peers/evogp_fullrun.py): squared error without
# scaling, fitting, portfolio or enumerated programs, its operator set.
EVOGP_ALGORITHM="--metric mse --function-set +,-,*,/,neg,sin,cos --no-linear-scaling --const-opt 0 --portfolio 0 --enumerate 0"

gp_whole_run() {
  local jsonl=$1 g=$2 dir=$3 v=$4 pop=$5 cases=$6 seed=$7 env=$8 t0 t1 js quiet=--quiet
  local err=/dev/stderr
  shift 8
  [ "${GP_PROGRESS:-0}" = 1 ] && quiet="" err=/dev/null
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # ENV and quiet are split into their words on purpose
  js=$(env $env "$g" gp --data "$dir/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 \
       --seed "$seed" $quiet --json "$@" 2> "$err")
  t1=$(date +%s.%N)
  echo "{\"variant\":\"$v\",\"pop\":$pop,\"cases\":$cases,\"seed\":$seed,\"wall\":$(awk "BEGIN{print $t1 - $t0}"),\"run\":${js:-null}}" >> "$jsonl"
}

gp_cell_runs() {
  local jsonl=$1 g=$2 dir=$3 v=$4 pop=$5 cases=$6 s
  gp_whole_run "$jsonl" "$g" "$dir" "warmup-$v" "$pop" "$cases" 1 X=1
  for s in 1 2 3 4 5; do
    gp_whole_run "$jsonl" "$g" "$dir" "$v" "$pop" "$cases" "$s" X=1
  done
}

gp_cells_by_build() {
  local jsonl=$1 dir=$2 c v name g
  shift 2
  for c in $GP_CELLS; do
    for v in "$@" ${GP_TYPED:+"typed=$GP_TYPED"}; do
      IFS=: read -r name g <<< "$v"
      if [ "${name%%=*}" = typed ]; then
        GP_PROGRESS=1 gp_cell_runs "$jsonl" "$g" "$dir" "${name#typed=}-typed" "${c%:*}" "${c#*:}"
      else
        gp_cell_runs "$jsonl" "$g" "$dir" "$name-quiet" "${c%:*}" "${c#*:}"
      fi
    done
    call_log "cell $c done"
  done
}

gp_cold_runs() {
  for _ in 1 2; do
    gp_whole_run "$1" "$2" "$3" "cold-$4" 1000 100 1 "__GL_SHADER_DISK_CACHE=0 GLEVO_PROGRAM_CACHE=0"
  done
}
