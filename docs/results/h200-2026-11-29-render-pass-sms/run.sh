#!/bin/bash
# The fragment evaluator against the compute kernel on the same programs (NVIDIA H200,
# 2026-11-29): shader variants of make_variants.py under GLEVO_SHADER_DIR, 10^4 programs of
# ../h200-2026-11-29-fragment-stack/gen.py (seed 7) and 10^4 copies of one of them, on 10^4
# cases of ten inputs in [-1, 1]. Run from the repository root with .prof/glevo (the build) and
# .prof/gpe/{progs,same}.txt, data.csv; OUT the output folder.
g=.prof/glevo; out=${OUT:-out}; D=.prof/gpe/data.csv
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
python3 docs/results/h200-2026-11-29-render-pass-sms/make_variants.py shaders .prof
summ() { python3 -c "import json,sys
try:
  d=json.load(sys.stdin); e=[x for x in d['errors'] if x is not None]; print(d['seconds'], round(d['gpops'],2), repr(sum(e[:200])))
except Exception as ex: print('fail', ex)"; }
for P in .prof/gpe/same.txt .prof/gpe/progs.txt; do
  for v in base w4 w8 inl nowalk fetchonly nostack cheapops alu; do
    if [ $v = base ]; then unset GLEVO_SHADER_DIR; else export GLEVO_SHADER_DIR=.prof/sh-$v; fi
    for b in fragment compute; do
      r=$($g gp-eval --programs $P --data $D --backend $b --metric mse --runs 5 --json --quiet 2>&1 | summ)
      echo "$P $v $b $r" | tee -a $out/scan.txt
    done
  done
done
unset GLEVO_SHADER_DIR
$g info | tee $out/info.txt
