#!/bin/bash
# Next H100 run (device paused before it could run): the variant timings of the current
# shaders. Build build-gpu-gp (Release, tests on), make the variants with
# `docs/results/h100-2026-11-23/gp/make_variants.sh build-gpu-gp/variants`, copy this script
# to build-gpu-gp/run2.sh, run ../shared/tools/gpu-prep, then on the device (carry .gl and
# build-gpu-gp), from the repository root:
#   . .gl/env.sh && ./build-gpu-gp/run2.sh
B=build-gpu-gp; V=$B/variants; L=$OUT/log2.txt
echo "== tests" >> $L
( cd $B && timeout 60 ./test_gp_math; echo "rc $?"; GLEVO_TEST_LARGE=1 timeout 120 ./test_gp_eval; echo "rc $?" ) >> $L 2>&1
cell() {
  local name=$1 envs=$2; shift 2
  local t0=$(date +%s.%N)
  local r=$(env $envs timeout 60 $B/glevo bench gp --pops 10000 --cases 10000 --runs 3 --budget 1 "$@" 2>&1 | grep -E "^(pppe|fp|ppcu|cpu-1|cpu-all)$|^\| 10000 \||rror" | tr '\n' ' ')
  echo "$name | $* | $r | $(awk "BEGIN{print $(date +%s.%N) - $t0}")s" >> $L
}
cell new "GLEVO_GP_DUMP_BINARY=/tmp/eval.bin" --engines pppe,fp,ppcu
strings -n 3 /tmp/eval.bin | sed -n '/!!NVfp5.0/,$p' > $OUT/eval_asm2.txt
cell hwtrig "GLEVO_SHADER_DIR=$V/hwtrig" --engines ppcu
cell hwdiv "GLEVO_SHADER_DIR=$V/hwdiv" --engines ppcu
cell nolarge "GLEVO_SHADER_DIR=$V/nolarge" --engines ppcu
cell old "GLEVO_SHADER_DIR=$V/oldmath" --engines ppcu
cell g256 "X=1" --engines ppcu --group 256
cell g16 "X=1" --engines ppcu --group 16
echo "== pppe 50000 x 50000" >> $L
( time timeout 100 $B/glevo bench gp --pops 50000 --cases 50000 --engines pppe --runs 1 --budget 1 ) >> $L 2>&1
echo done >> $L
