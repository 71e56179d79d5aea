#!/bin/bash
# main search at tournament 5 (helpers at 2) against 4, on other seeds
cd /work/main
O=/tmp/emu5
run() { local n=$1 s=$2 b=$3 k=$4; shift 4
  [ -f $O/$n/runs.csv ] && return
  /usr/bin/python3 scripts/srbench/run.py --glevo $O/glevo --suite $s --seeds $k --seed $b --data-seed $b --jobs 2 --pop 2000 --out $O/$n -- --threads 1 "$@" > $O/$n.log 2>&1
  rm -rf $O/$n/data
  echo "$n $(grep '\*\*all' $O/$n/summary.md | tail -1)" >> $O/results.txt
}
run h2t5_s300 nguyen 300 30 --tournament 5
run fr_h2t5_s300 friedman1 300 30 --tournament 5
run fr_h2_s400 friedman1 400 20
run fr_h2t5_s400 friedman1 400 20 --tournament 5
