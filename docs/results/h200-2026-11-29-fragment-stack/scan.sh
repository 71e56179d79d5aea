#!/bin/bash
# fragment evaluator layouts on 10^4 random programs (avg 25.7 nodes) x 10^4 cases
g=$1; out=${OUT:-out}
for s in ppcu fp pppe; do for l in 1 2 4 8; do
  r=$($g gp-eval --programs .prof/gpe/progs.txt --data .prof/gpe/data.csv --backend fragment --strategy $s --lanes $l --metric mse --runs 3 --json --quiet 2>&1 | python3 -c "import json,sys
try:
  d=json.load(sys.stdin); print(d['seconds'], d['gpops'], sum(e for e in d['errors'][:100] if e is not None))
except Exception as e: print('fail', e)")
  echo "fragment $s lanes=$l $r" | tee -a $out/scan.txt
done; done
for l in 0 1 2 4; do
  r=$($g gp-eval --programs .prof/gpe/progs.txt --data .prof/gpe/data.csv --backend compute --lanes $l --metric mse --runs 3 --json --quiet 2>&1 | python3 -c "import json,sys
d=json.load(sys.stdin); print(d['seconds'], d['gpops'], sum(e for e in d['errors'][:100] if e is not None))")
  echo "compute lanes=$l $r" | tee -a $out/scan.txt
done
$g gp-eval --programs .prof/gpe/progs.txt --data .prof/gpe/data.csv --backend fragment --metric mse --runs 3 --json --quiet --profile 2> $out/prof-auto.txt > /dev/null
