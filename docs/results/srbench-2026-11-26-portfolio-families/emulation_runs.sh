#!/bin/bash
# helper candidates for an N-search portfolio, emulated (VM, CPU backend)
cd /work/main
G=/tmp/pf3/glevo
O=/tmp/emu
run() { # name base pop opts...
  local n=$1 b=$2 p=$3; shift 3
  [ -f $O/${n}_p${p}_s$b/runs.csv ] && return
  /usr/bin/python3 scripts/srbench/run.py --glevo $G --suite nguyen --seeds 20 --seed $b --data-seed $b --jobs 2 --pop $p --out $O/${n}_p${p}_s$b -- --threads 1 "$@" > $O/${n}_p${p}_s$b.log 2>&1
  rm -rf $O/${n}_p${p}_s$b/data
  echo "$n p$p s$b $(grep '\*\*all' $O/${n}_p${p}_s$b/summary.md)"
}
H="--no-linear-scaling --const-opt 0 --const-prob 0 --portfolio 0"
for b in 200 400; do
  run arithlog $b 300 $H --function-set +,-,*,/,neg,sin,cos,log
  run arithlog $b 250 $H --function-set +,-,*,/,neg,sin,cos,log
  run arithlog $b 200 $H --function-set +,-,*,/,neg,sin,cos,log
  run poly $b 200 $H --function-set +,-,*
  run poly $b 150 $H --function-set +,-,*
  run poly $b 100 $H --function-set +,-,*
  run rational $b 200 $H --function-set +,-,*,/
  run rational $b 150 $H --function-set +,-,*,/
  run trig $b 200 $H --function-set +,-,*,/,sin,cos
  run trig $b 150 $H --function-set +,-,*,/,sin,cos
  run trigplain $b 150 $H --function-set +,-,*,sin,cos
  run logexp $b 150 $H --function-set +,-,*,/,log,exp
  run logexp $b 100 $H --function-set +,-,*,/,log,exp
  run polyscaled $b 150 --const-opt 0 --const-prob 0 --portfolio 0 --function-set +,-,*
done
run main 400 1500 --portfolio 0
for b in 200 400; do
  run rational $b 100 $H --function-set +,-,*,/
  run trigplain $b 100 $H --function-set +,-,*,sin,cos
  run trigplain $b 200 $H --function-set +,-,*,sin,cos
  run arithlog $b 150 $H --function-set +,-,*,/,neg,sin,cos,log
  run logdiv $b 100 $H --function-set +,-,*,/,log
  run sqrtfam $b 100 $H --function-set +,-,*,/,sqrt
  run expfam $b 100 $H --function-set +,-,*,/,exp
done
