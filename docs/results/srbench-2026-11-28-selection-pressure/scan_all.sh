#!/bin/bash
# Build 5011025 (every search at the run's tournament) in build/; the runs in the order made
# (t2p3_* were stopped unfinished). NAME SUITE SEED-BASE OPTIONS...
cd /work/main
O=/tmp/emu2
run() { local n=$1 s=$2 b=$3; shift 3
  [ -f $O/$n/runs.csv ] && return
  /usr/bin/python3 scripts/srbench/run.py --glevo build/glevo --suite $s --seeds 20 --seed $b --data-seed $b --jobs 2 --pop 2000 --out $O/$n -- --threads 1 "$@" > $O/$n.log 2>&1
  rm -rf $O/$n/data
  echo "$n $(grep '\*\*all' $O/$n/summary.md | tail -1)" >> $O/results.txt
}
run pm03 nguyen 200 --pm 0.3
run t3 nguyen 200 --tournament 3
run pars001 nguyen 200 --parsimony 0.01
run t2 nguyen 200 --tournament 2
run base_s400 nguyen 400
run t3_s400 nguyen 400 --tournament 3
run t2_s400 nguyen 400 --tournament 2
run t2p_s200 nguyen 200 --tournament 2 --parsimony 0.01
run t2p_s400 nguyen 400 --tournament 2 --parsimony 0.01
run fr_base friedman1 200
run fr_t2 friedman1 200 --tournament 2
run fr_t2p friedman1 200 --tournament 2 --parsimony 0.01
run t2p3_s200 nguyen 200 --tournament 2 --parsimony 0.03
run t2p3_s400 nguyen 400 --tournament 2 --parsimony 0.03
