#!/bin/bash
# The build with the helpers at tournaments of two, copied to /tmp/emu3/glevo (h2t3_s* were stopped unfinished).
cd /work/main
O=/tmp/emu3
run() { local n=$1 b=$2 s=$3; shift 3
  [ -f $O/$n/runs.csv ] && return
  /usr/bin/python3 scripts/srbench/run.py --glevo $O/glevo --suite $s --seeds 20 --seed $b --data-seed $b --jobs 2 --pop 2000 --out $O/$n -- --threads 1 "$@" > $O/$n.log 2>&1
  rm -rf $O/$n/data
  echo "$n $(grep '\*\*all' $O/$n/summary.md | tail -1)" >> $O/results.txt
}
run h2_s200 200 nguyen
run h2_s400 400 nguyen
run fr_h2 200 friedman1
run fr_h2t3 200 friedman1 --tournament 3
run h2t3_s200 200 nguyen --tournament 3
run h2t3_s400 400 nguyen --tournament 3
run fr_h2t5 200 friedman1 --tournament 5
run h2t5_s200 200 nguyen --tournament 5
run h2t5_s400 400 nguyen --tournament 5
