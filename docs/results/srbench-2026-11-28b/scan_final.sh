#!/bin/bash
# The build with helper restarts, copied to /tmp/fin/glevo.
cd /work/main
O=/tmp/fin
run() { local n=$1 b=$2 s=$3 seeds=$4; shift 4
  [ -f $O/$n/runs.csv ] && return
  /usr/bin/python3 scripts/srbench/run.py --glevo $O/glevo --suite $s --seeds $seeds --seed $b --data-seed $b --jobs 2 --pop 2000 --out $O/$n -- --threads 1 "$@" > $O/$n.log 2>&1
  rm -rf $O/$n/data
  echo "$n $(grep '\*\*all' $O/$n/summary.md | tail -1)" >> $O/results.txt
}
run nguyen_s300 300 nguyen 30
run nguyen_s500 500 nguyen 30
run friedman1_s300 300 friedman1 30
run keijzer_s200 200 keijzer 30
