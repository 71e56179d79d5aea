#!/bin/bash
g=$1; out=${OUT:-out}
ev() { python3 -c "import json,sys
try:
  d=json.load(sys.stdin); print(d['seconds'], d['gpops'], sum(e for e in d['errors'] if e is not None))
except Exception as e: print('fail', e)"; }
for r in 0 3 4 6 8 12; do for l in 1 2; do
  echo "fragment ppcu regs=$r lanes=$l $(GLEVO_GP_STACK_REGS=$r $g gp-eval --programs .prof/gpe/progs.txt --data .prof/gpe/data.csv --backend fragment --lanes $l --metric mse --runs 3 --json --quiet 2>&1 | ev)" | tee -a $out/scan.txt
done; done
mkdir -p data; python3 scripts/device/gp_sr_data.py data 10000 1000 > /dev/null
for r in 0 4 8; do for c in 10000:10000 100000:1000; do pop=${c%:*}; cases=${c#*:}
  GLEVO_GP_STACK_REGS=$r $g gp --data data/sr_$cases.csv --pop $pop --generations 50 --max-size 64 --seed 1 --quiet --json --backend fragment > $out/run-$r-$pop-$cases.json
  echo "run regs=$r $c $(python3 -c "import json; d=json.load(open('$out/run-$r-$pop-$cases.json')); print(d['seconds'], d['eval_seconds'], d['best_fitness'])")" | tee -a $out/scan.txt
done; done
