#!/bin/bash
# helper families alone at tournaments of two (VM, CPU backend), for portfolio.py combinations
cd /work/main
while pgrep -f sr28/run.sh >/dev/null; do sleep 5; done
O=/tmp/emu4
H="--tournament 2 --no-linear-scaling --const-opt 0 --const-prob 0 --portfolio 0"
run() { local n=$1 b=$2 p=$3; shift 3
  [ -f $O/${n}_p${p}_s$b/runs.csv ] && return
  /usr/bin/python3 scripts/srbench/run.py --glevo $O/glevo --suite nguyen --seeds 20 --seed $b --data-seed $b --jobs 2 --pop $p --out $O/${n}_p${p}_s$b -- --threads 1 $H "$@" > $O/${n}_p${p}_s$b.log 2>&1
  rm -rf $O/${n}_p${p}_s$b/data
  echo "${n}_p${p}_s$b $(grep '\*\*all' $O/${n}_p${p}_s$b/summary.md)" >> $O/results.txt
}
for p in 100 150; do for b in 200 400; do
  run arithlog $b $p --function-set +,-,*,/,neg,sin,cos,log
  run trigplain $b $p --function-set +,-,*,sin,cos
  run logdiv $b $p --function-set +,-,*,/,log
  run poly $b $p --function-set +,-,*
  run rational $b $p --function-set +,-,*,/
  run trig $b $p --function-set +,-,*,/,sin,cos
  run logexp $b $p --function-set +,-,*,/,log,exp
done; done
