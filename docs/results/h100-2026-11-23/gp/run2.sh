#!/bin/bash
# H100 run of 2026-11-23, exact math: current exact math (v2) tests and variant timings.
B=build-gpu-gp; V=$B/variants; L=$OUT/log2.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv >> $L 2>&1
echo "== tests" >> $L
( cd $B && time timeout 60 ./test_gp_math; echo "rc $?"; time GLEVO_TEST_LARGE=1 timeout 150 ./test_gp_eval; echo "rc $?" ) >> $L 2>&1
cell() {
  local name=$1 envs=$2; shift 2
  local t0=$(date +%s.%N)
  local r=$(env $envs timeout 60 $B/glevo bench gp --pops 10000 --cases 10000 --runs 3 --budget 1 "$@" 2>&1 | grep -E "^(pppe|fp|ppcu|cpu-1|cpu-all)$|^## |^\| 10000 \||rror" | tr '\n' ' ')
  echo "$name | $* | $r | $(awk "BEGIN{print $(date +%s.%N) - $t0}")s" >> $L
}
cell new "GLEVO_GP_DUMP_BINARY=/tmp/eval.bin" --engines pppe,fp,ppcu
strings -n 3 /tmp/eval.bin | sed -n '/!!NVfp5.0/,$p' > $OUT/eval_asm2.txt
cell new-class "X=1" --sets classification --engines pppe,fp,ppcu
cell cpu-all "X=1" --sets both --engines cpu-all --cpu-limit 1e10
cell hwall "GLEVO_SHADER_DIR=$V/hwall" --engines ppcu
cell hwtrig "GLEVO_SHADER_DIR=$V/hwtrig" --engines ppcu
cell hwdiv "GLEVO_SHADER_DIR=$V/hwdiv" --engines ppcu
cell nolarge "GLEVO_SHADER_DIR=$V/nolarge" --engines ppcu
cell lanes2 "X=1" --engines ppcu --lanes 2
cell lanes4 "X=1" --engines ppcu --lanes 4
cell hwall-lanes2 "GLEVO_SHADER_DIR=$V/hwall" --engines ppcu --lanes 2
cell hwall-lanes4 "GLEVO_SHADER_DIR=$V/hwall" --engines ppcu --lanes 4
cell g256 "X=1" --engines ppcu --group 256
cell ceiling "GLEVO_SHADER_DIR=$V/ceiling" --engines ppcu
echo "== pppe 50000 x 50000" >> $L
( time timeout 100 $B/glevo bench gp --pops 50000 --cases 50000 --engines pppe --runs 1 --budget 1 ) >> $L 2>&1
echo done >> $L
