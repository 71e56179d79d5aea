#!/bin/bash
cd /work/main
O=/tmp/rs
run() { local n=$1 b=$2 s=$3 env=$4; shift 4
  [ -f $O/$n/runs.csv ] && return
  env $env /usr/bin/python3 scripts/srbench/run.py --glevo ${BIN:-$O/glevo} --suite $s --seeds ${SEEDS:-20} --seed $b --data-seed $b --jobs 2 --pop 2000 --out $O/$n -- --threads 1 "$@" > $O/$n.log 2>&1
  rm -rf $O/$n/data
  echo "$n $(grep '\*\*all' $O/$n/summary.md | tail -1)" >> $O/results.txt
}
for spec in "$@"; do run $spec; done
