#!/bin/bash
# What a user types, `glevo gp --data FILE` (progress lines on stderr), against the same run
# with --quiet, before (OLD: a progress report every generation) and after (NEW: every 10
# generations and the last; the fitting walks reordered), whole default runs at the four cells,
# seeds 1-5 after a discarded run; gp.const_fit at 1000 x 100 with each build forced
# (GLEVO_GP_FIT_DERIVS 3 and 7, seeds 1-3); the GP test binaries (TESTS) with NEW; EvoGP's
# pipeline at the four cells in the same call.
# Usage (repository root on the GPU machine, $OUT set, EvoGP in .peers/evogp): defaults.sh OLD NEW TESTS
set -u
old=$1; new=$2; tests=$3; out=${OUT:-out}; mkdir -p "$out/data"
start=$(date +%s)
log() { echo "$(( $(date +%s) - start ))s $*" | tee -a "$out/log.txt"; }
ls .peers/evogp/src/evogp/evogp_cuda*.so > /dev/null 2>&1 ||
(cd .peers/evogp && TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS=10 nice -n 19 python3 setup.py build_ext \
    --inplace > /dev/null 2>&1) &
build=$!
python3 scripts/device/gp_sr_data.py "$out/data" 100 1000 10000 > /dev/null
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
for t in "$tests"/test_*; do
  GLEVO_TEST_DATA=$PWD/data GLEVO_CLI=$new "$t" > "$out/t.txt" 2>&1
  log "$(basename "$t") rc=$? $(tail -1 "$out/t.txt")"
done
# One run: {"variant", "pop", "cases", "seed", "wall", "run"} a line, progress to /dev/null.
one() { # VARIANT GLEVO POP CASES SEED [options]
  local v=$1 g=$2 pop=$3 cases=$4 seed=$5 t0 t1 js; shift 5
  t0=$(date +%s.%N)
  js=$("$g" gp --data "$out/data/sr_$cases.csv" --pop "$pop" --generations 50 --max-size 64 \
       --seed "$seed" --json "$@" 2> /dev/null)
  t1=$(date +%s.%N)
  echo "{\"variant\":\"$v\",\"pop\":$pop,\"cases\":$cases,\"seed\":$seed,\"wall\":$(awk "BEGIN{print $t1 - $t0}"),\"run\":${js:-null}}" >> "$out/glevo.jsonl"
}
for c in 1000:100 10000:1000 10000:10000 100000:1000; do
  pop=${c%:*}; cases=${c#*:}
  for v in "old:$old" "new:$new"; do
    IFS=: read name g <<< "$v"
    one "warmup-$name" "$g" "$pop" "$cases" 1 --quiet
    for s in 1 2 3 4 5; do
      one "$name" "$g" "$pop" "$cases" "$s"
      one "$name-quiet" "$g" "$pop" "$cases" "$s" --quiet
    done
  done
  log "cell $c done"
done
for v in "old:$old" "new:$new"; do
  IFS=: read name g <<< "$v"
  for d in 3 7; do
    for s in 1 2 3; do
      GLEVO_GP_FIT_DERIVS=$d "$g" gp --data "$out/data/sr_100.csv" --pop 1000 --generations 50 \
        --max-size 64 --seed $s --quiet --profile 2>&1 | grep const_fit | sed "s/^/$name derivs $d seed $s /" >> "$out/log.txt"
    done
  done
done
wait $build
log evogp-built
SEEDS=1,2,3,4,5 python3 .peers/evogp_fullrun.py "$out/evogp-data" 1000 100 10000 1000 10000 10000 \
  100000 1000 >> "$out/evogp.jsonl" 2>> "$out/log.txt"
log evogp-done
rm -rf "$out/data" "$out/evogp-data" "$out/t.txt"
