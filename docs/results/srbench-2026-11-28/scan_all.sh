#!/bin/bash
cd /work/main
O=/tmp/emu2
run() { local n=$1; shift
  [ -f $O/$n/runs.csv ] && return
  /usr/bin/python3 scripts/srbench/run.py --glevo build/glevo --suite nguyen --seeds 20 --seed 200 --data-seed 200 --jobs 2 --pop 2000 --out $O/$n -- --threads 1 "$@" > $O/$n.log 2>&1
  rm -rf $O/$n/data
  echo "$n $(grep '\*\*all' $O/$n/summary.md)" >> $O/results.txt
}
run pm03 --pm 0.3
run t3 --tournament 3
run pars001 --parsimony 0.01
#!/bin/bash
cd /work/main
O=/tmp/emu2
while pgrep -f scan.sh >/dev/null; do sleep 5; done
run() { local n=$1 b=$2; shift 2
  [ -f $O/$n/runs.csv ] && return
  /usr/bin/python3 scripts/srbench/run.py --glevo build/glevo --suite nguyen --seeds 20 --seed $b --data-seed $b --jobs 2 --pop 2000 --out $O/$n -- --threads 1 "$@" > $O/$n.log 2>&1
  rm -rf $O/$n/data
  echo "$n $(grep '\*\*all' $O/$n/summary.md)" >> $O/results.txt
}
run t2 200 --tournament 2
run base_s400 400
run t3_s400 400 --tournament 3
run t2_s400 400 --tournament 2
run t2p_s200 200 --tournament 2 --parsimony 0.01
run t2p_s400 400 --tournament 2 --parsimony 0.01
runf() { local n=$1 b=$2; shift 2
  [ -f $O/$n/runs.csv ] && return
  /usr/bin/python3 scripts/srbench/run.py --glevo build/glevo --suite friedman1 --seeds 20 --seed $b --data-seed $b --jobs 2 --pop 2000 --out $O/$n -- --threads 1 "$@" > $O/$n.log 2>&1
  rm -rf $O/$n/data
  echo "$n $(grep '\*\*all\|friedman' $O/$n/summary.md | tail -1)" >> $O/results.txt
}
runf fr_base 200
runf fr_t2 200 --tournament 2
runf fr_t2p 200 --tournament 2 --parsimony 0.01
run t2p3_s200 200 --tournament 2 --parsimony 0.03
run t2p3_s400 400 --tournament 2 --parsimony 0.03
