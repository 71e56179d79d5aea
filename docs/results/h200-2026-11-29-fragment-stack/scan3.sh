#!/bin/bash
# fragment tile shapes (--tile-width) on the random programs of gen.py, 10^4 x 10^4
g=$1; out=${OUT:-out}
ev() { python3 -c "import json,sys
try:
  d=json.load(sys.stdin); print(d['seconds'], d['gpops'], sum(e for e in d['errors'] if e is not None))
except Exception as e: print('fail', e)"; }
for t in 8 1 2 4 16 32 64; do for l in 1 2; do
  echo "fragment ppcu tile-width=$t lanes=$l $($g gp-eval --programs .prof/gpe/progs.txt --data .prof/gpe/data.csv --backend fragment --tile-width $t --lanes $l --metric mse --runs 3 --json --quiet 2>&1 | ev)" | tee -a $out/scan.txt
done; done
