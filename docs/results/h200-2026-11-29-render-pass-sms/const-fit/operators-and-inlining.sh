#!/bin/bash
# constant fitting: the value walks' operators replaced by one add (fitcheap: timing only) and
# the kernel without inline none (fitinline), against the tree's (base)
out=$OUT; mkdir -p $out/data
python3 scripts/device/gp_sr_data.py $out/data 1000 > /dev/null 2>&1
export GLEVO_PROGRAM_CACHE=$(mktemp -d)
for v in base fitcheap fitinline; do
  if [ $v = base ]; then unset GLEVO_SHADER_DIR; else export GLEVO_SHADER_DIR=.prof/sh-$v; fi
  s0=$(date +%s.%N)
  .prof/glevo gp --data $out/data/sr_1000.csv --pop 10000 --seed 1 --quiet > /dev/null 2>&1
  echo "$v first run (builds) $(python3 -c "print(round($(date +%s.%N) - $s0, 2))") s" | tee -a $out/fit.txt
  for m in 64 1024; do
    .prof/glevo gp --data $out/data/sr_1000.csv --pop 10000 --seed 1 --const-opt-max $m --json --profile > $out/r.json 2> $out/p.txt
    echo "$v max=$m $(python3 -c "import json;d=json.load(open('$out/r.json'));print(d['best_fitness'])") $(grep const_fit $out/p.txt)" | tee -a $out/fit.txt
  done
  for s in 1 2 3; do
    .prof/glevo gp --data $out/data/sr_1000.csv --pop 10000 --seed $s --json --quiet > $out/r.json 2>/dev/null
    echo "$v 10000x1000 seed=$s $(python3 -c "import json;d=json.load(open('$out/r.json'));print(d['seconds'], d['best_fitness'])")" | tee -a $out/runs.txt
  done
done
rm -rf $out/data $out/r.json $out/p.txt
